"""A member's record for moderators and the archive of decided cases, as every kind of
viewer: a visitor and a member are turned away; a site moderator reads every case and
game; a club's moderator their club's; a moderator of another club nothing of it; a
moderator who is a party to a case never reads it through the record."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import Case, Category, Ruling
from moderation.selectors.members import RECORD_LIMIT, member_record
from tests.conftest import client_as
from tests.factories import CaseFactory, ClubFactory, RulingFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case, suspend

pytestmark = pytest.mark.django_db


def record_url(member: User) -> str:
    return reverse("moderation:member", args=[member.username])


def time_out_twice(game: Game) -> None:
    """Turns 1 and 2 of ``game`` run out of time (one each of its two players)."""
    for turn in (1, 2):
        game.refresh_from_db()
        assert game.turn_deadline is not None
        with time_machine.travel(game.turn_deadline + timedelta(seconds=1), tick=False):
            services.time_out_turn(game.pk, turn)


@pytest.fixture
def league_case(league_game: Game, league_fixture: Fixture, bob: User, dave: User) -> Case:
    """Bob's report of dave in their league game, decided by a warning of bob."""
    case = open_case(
        league_game,
        bob,
        Category.STALLING,
        fixture=league_fixture,
        accused=dave,
        text="Dave waits out every turn.",
    )
    return case


@pytest.fixture
def casual_case(casual_game: Game, alice: User, bob: User) -> Case:
    """Alice's report of bob's chat in their casual game (site moderators only)."""
    return open_case(casual_game, alice, Category.ABUSE, accused=bob, text="Bob swore at me.")


def warn(case: Case, member: User, by: User) -> Ruling:
    ruling = RulingFactory(
        case=case, kind=Ruling.Kind.WARN, note="Mind the chat.", target=member, by=by
    )
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED, decided_at=ruling.created_at)
    return ruling


@pytest.fixture
def history(
    league_case: Case, casual_case: Case, bob: User, site_moderator: User, running: RunningSeason
) -> None:
    """Bob: a party to both cases; warned in the casual one; suspended from the club in
    the league one, then lifted by a later ruling; and timed out once in each game."""
    warn(casual_case, bob, site_moderator)
    made = suspend(bob, league_case.game, site_moderator, club=running.club)
    lifting = RulingFactory(
        case=league_case,
        note="The suspension was too harsh.",
        by=site_moderator,
        supersedes=made.ruling,
    )
    now = lifting.created_at
    Ruling.objects.filter(pk=made.ruling_id).update(status=Ruling.Status.SUPERSEDED)
    type(made).objects.filter(pk=made.pk).update(lifted_at=now)
    assert lifting.pk
    time_out_twice(casual_case.game)
    assert league_case.fixture is not None and league_case.fixture.table is not None
    time_out_twice(current_game(league_case.fixture.table))


def test_a_visitor_is_sent_to_log_in_and_a_member_is_refused(
    history: None, bob: User, carol: User
) -> None:
    response = Client().get(record_url(bob))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client_as(carol).get(record_url(bob)).status_code == 403
    assert client_as(carol).get(reverse("moderation:archive")).status_code == 403
    assert client_as(bob).get(record_url(bob)).status_code == 403


def test_a_site_moderator_reads_every_case_warning_suspension_and_timeout(
    history: None, bob: User, site_moderator: User, league_case: Case, casual_case: Case
) -> None:
    response = client_as(site_moderator).get(record_url(bob))
    assert response.status_code == 200
    record = response.context["record"]
    assert {line.case for line in record.cases.items} == {league_case, casual_case}
    roles = {line.case.pk: line.roles for line in record.cases.items}
    assert roles[league_case.pk] == ["filed a report"]
    assert roles[casual_case.pk] == ["accused"]
    assert [w.note for w in record.warnings.items] == ["Mind the chat."]
    [line] = record.suspensions
    assert line.state == "lifted"
    assert line.lifted_by.note == "The suspension was too harsh."
    assert record.timeouts.total == 2
    page = response.content.decode()
    assert "Dave waits out every turn." in page and "Bob swore at me." not in page
    assert "The suspension was too harsh." in page
    assert "Made by" in page and "Lifted" in page
    assert page.count("ran out of time") == 2


def test_a_club_moderator_reads_only_their_clubs_cases_and_games(
    history: None, bob: User, club_moderator: User, league_case: Case
) -> None:
    response = client_as(club_moderator).get(record_url(bob))
    assert response.status_code == 200
    record = response.context["record"]
    assert [line.case for line in record.cases.items] == [league_case]
    assert record.warnings.total == 0  # the warning was ruled in a casual game's case
    assert len(record.suspensions) == 1
    assert record.timeouts.total == 1
    assert "Mind the chat." not in response.content.decode()


def test_a_moderator_of_another_club_reads_nothing_of_this_one(
    history: None, bob: User, carol: User
) -> None:
    ClubFactory(name="Elsewhere", slug="elsewhere", owner=carol)
    record = member_record(carol, bob)
    assert record.cases.total == record.reports.total == record.warnings.total == 0
    assert record.suspensions == [] and record.timeouts.total == 0
    page = client_as(carol).get(record_url(bob)).content.decode()
    assert "Dave waits out every turn." not in page
    assert "No case." in page


def test_a_moderator_who_is_a_party_never_reads_that_case_through_the_record(
    history: None, bob: User, dave: User, running: RunningSeason, league_case: Case
) -> None:
    """Dave, accused in the league case, moderates the club: bob's record shows him
    nothing of it (bob's report of him, its rulings, the suspension it made)."""
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    response = client_as(dave).get(record_url(bob))
    assert response.status_code == 200
    record = response.context["record"]
    assert record.cases.total == 0 and record.reports.total == 0
    assert record.suspensions == []
    assert "Dave waits out every turn." not in response.content.decode()
    archive = client_as(dave).get(reverse("moderation:archive"), {"member": "bob"})
    assert league_case.pk not in [case.pk for case in archive.context["cases"]]


def test_an_unknown_member_is_not_found(site_moderator: User) -> None:
    assert client_as(site_moderator).get("/moderation/members/nobody/").status_code == 404


def test_the_archive_lists_decided_cases_by_member_in_pages(
    history: None,
    bob: User,
    alice: User,
    site_moderator: User,
    casual_case: Case,
    league_case: Case,
    settings: object,
) -> None:
    client = client_as(site_moderator)
    everything = client.get(reverse("moderation:archive"))
    assert [case.pk for case in everything.context["cases"]] == [casual_case.pk]
    of_alice = client.get(reverse("moderation:archive"), {"member": "ALICE"})
    assert [case.pk for case in of_alice.context["cases"]] == [casual_case.pk]
    unknown = client.get(reverse("moderation:archive"), {"member": "nobody"})
    assert unknown.status_code == 400
    assert "No member has that username." in unknown.content.decode()
    # Pages: more decided cases than a page holds.
    now = timezone.now()
    for number in range(30):
        CaseFactory(
            game=casual_case.game,
            status=Case.Status.DECIDED,
            accused=alice,
            opened_at=now,
            decided_at=now - timedelta(minutes=number),
        )
    first = client.get(reverse("moderation:archive"), {"member": "alice"})
    assert len(first.context["cases"]) == 25
    assert "page=2" in first.content.decode()
    second = client.get(reverse("moderation:archive"), {"member": "alice", "page": "2"})
    assert len(second.context["cases"]) == 31 - 25
    assert client.get(reverse("moderation:archive"), {"page": "x"}).status_code == 200


def test_the_record_is_bounded(
    history: None, alice: User, site_moderator: User, casual_game: Game
) -> None:
    now = timezone.now()
    for _ in range(RECORD_LIMIT + 5):
        CaseFactory(
            game=casual_game,
            status=Case.Status.DECIDED,
            accused=alice,
            opened_at=now,
            decided_at=now,
        )
    record = member_record(site_moderator, alice)
    assert len(record.cases.items) == RECORD_LIMIT
    assert record.cases.total == RECORD_LIMIT + 6
    page = client_as(site_moderator).get(record_url(alice)).content.decode()
    assert f"And {record.cases.more} older" in page


def test_members_are_linked_to_their_record_where_a_moderator_reads_their_name(
    history: None, site_moderator: User, league_case: Case, bob: User, dave: User
) -> None:
    client = client_as(site_moderator)
    case_page = client.get(reverse("moderation:case", args=[league_case.pk])).content.decode()
    assert f'href="{record_url(dave)}"' in case_page  # the accused
    assert f'href="{record_url(bob)}"' in case_page  # the filer
    Case.objects.filter(pk=league_case.pk).update(status=Case.Status.OPEN, decided_at=None)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert f'href="{record_url(dave)}"' in queue


def test_a_party_reads_no_record_link_on_their_case_page(league_case: Case, bob: User) -> None:
    page = client_as(bob).get(reverse("moderation:case", args=[league_case.pk])).content.decode()
    assert "/moderation/members/" not in page
