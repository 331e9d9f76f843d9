"""The moderation log page: site moderators read everything, a club's owner their club's
entries, other moderators their own cases'; filters narrow it, pages split it; reading it
changes nothing, and the table still refuses every change."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import ProgrammingError, connection, transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Club, Fixture
from moderation.models import Case, Category, LogEntry
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db
URL = reverse("moderation:log")


def entry(
    action: str,
    summary: str,
    *,
    case: Case | None = None,
    actor: User | None = None,
    days_ago: int = 0,
) -> LogEntry:
    return LogEntry.objects.create(
        at=timezone.now() - timedelta(days=days_ago),
        actor=actor,
        action=action,
        case=case,
        club_id=case.club_id if case else None,
        summary=summary,
        reason="Because.",
        changes={"seat 1": "0 → 25"},
    )


@pytest.fixture
def league_case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    return open_case(league_game, bob, Category.BUG, fixture=league_fixture)


@pytest.fixture
def casual_case(casual_game: Game, alice: User) -> Case:
    return open_case(casual_game, alice, Category.ABUSE)


@pytest.fixture
def logged(
    league_case: Case, casual_case: Case, club_moderator: User, site_moderator: User, bob: User
) -> dict[str, LogEntry]:
    colleague = UserFactory(username="colleague")
    return {
        "filed": entry(LogEntry.Action.FILED, "bob filed a report", case=league_case, actor=bob),
        "claimed": entry(
            LogEntry.Action.CLAIMED, "mo claimed the case", case=league_case, actor=club_moderator
        ),
        "casual": entry(
            LogEntry.Action.RULED,
            "sid dismissed the abuse case",
            case=casual_case,
            actor=site_moderator,
        ),
        "colleague": entry(
            LogEntry.Action.EVIDENCE_OPENED,
            "colleague opened the evidence",
            actor=colleague,
            days_ago=3,
        ),
    }


def shown(user: User, query: str = "") -> str:
    response = client_as(user).get(f"{URL}{query}")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_a_site_moderator_reads_every_entry(
    logged: dict[str, LogEntry], site_moderator: User
) -> None:
    html = shown(site_moderator)
    for item in logged.values():
        assert item.summary in html
    assert "Because." in html and "seat 1: 0 → 25" in html


def test_a_club_owner_reads_their_clubs_entries(logged: dict[str, LogEntry], alice: User) -> None:
    html = shown(alice)
    assert logged["filed"].summary in html and logged["claimed"].summary in html
    assert logged["casual"].summary not in html and logged["colleague"].summary not in html


def test_a_moderator_reads_the_entries_of_the_cases_they_worked_on(
    logged: dict[str, LogEntry], club_moderator: User, running: RunningSeason
) -> None:
    html = shown(club_moderator)
    assert logged["filed"].summary in html  # the same case: mo claimed it
    assert logged["casual"].summary not in html
    other = UserFactory()
    from leagues.models import Membership, Role

    Membership.objects.create(club=running.club, user=other, role=Role.MODERATOR)
    nothing = shown(other)
    assert "Nothing logged" in nothing and logged["filed"].summary not in nothing


def test_members_and_visitors_may_not_read_the_log(logged: dict[str, LogEntry], bob: User) -> None:
    assert client_as(bob).get(URL).status_code == 403
    assert Client().get(URL).status_code == 302
    assert client_as(bob).post(URL).status_code == 405


def test_filters_narrow_the_log(
    logged: dict[str, LogEntry], site_moderator: User, league_case: Case, running: RunningSeason
) -> None:
    by_action = shown(site_moderator, "?action=claimed")
    assert logged["claimed"].summary in by_action and logged["filed"].summary not in by_action
    by_case = shown(site_moderator, f"?case={league_case.pk}")
    assert logged["filed"].summary in by_case and logged["casual"].summary not in by_case
    by_club = shown(site_moderator, f"?club={running.club.slug}")
    assert logged["claimed"].summary in by_club and logged["colleague"].summary not in by_club
    by_actor = shown(site_moderator, "?actor=MO")
    assert logged["claimed"].summary in by_actor and logged["filed"].summary not in by_actor
    today = timezone.localdate()
    recent = shown(site_moderator, f"?since={today - timedelta(days=1)}")
    assert logged["colleague"].summary not in recent and logged["filed"].summary in recent
    old = shown(site_moderator, f"?until={today - timedelta(days=2)}")
    assert logged["colleague"].summary in old and logged["filed"].summary not in old


@pytest.mark.parametrize(
    "query",
    [
        "?action=erased",
        "?case=abc",
        "?case=-1",
        "?case=99999999999999999999",
        "?since=tomorrow",
        "?since=2026-02-01&until=2026-01-01",
        "?club=no-such-club",
    ],
)
def test_filters_that_make_no_sense_answer_400(
    logged: dict[str, LogEntry], site_moderator: User, query: str
) -> None:
    response = client_as(site_moderator).get(f"{URL}{query}")
    assert response.status_code == 400
    assert "Fix the filters" in response.content.decode()


def test_a_club_owner_cannot_filter_by_another_club(
    logged: dict[str, LogEntry], alice: User
) -> None:
    other = Club.objects.create(name="Other", slug="other")
    assert client_as(alice).get(f"{URL}?club={other.slug}").status_code == 400


@override_settings(MODERATION_LOG_PER_PAGE=2)
def test_the_log_comes_in_pages_newest_first_keeping_the_filters(
    league_case: Case, site_moderator: User
) -> None:
    for n in range(5):
        entry(LogEntry.Action.FILED, f"report number {n}", case=league_case, days_ago=n)
    first = shown(site_moderator, "?action=filed")
    assert "report number 0" in first and "report number 2" not in first
    assert "Page 1 of 3" in first and "?action=filed&amp;page=2" in first
    last = shown(site_moderator, "?action=filed&page=3")
    assert "report number 4" in last
    assert "report number 4" in shown(site_moderator, "?action=filed&page=99")


@pytest.mark.as_owner  # the owner meets the triggers; the app's role has no right to try
def test_reading_the_log_changes_nothing_and_the_table_still_refuses_changes(
    logged: dict[str, LogEntry], site_moderator: User
) -> None:
    before = list(LogEntry.objects.order_by("pk").values())
    shown(site_moderator)
    shown(site_moderator, "?action=claimed")
    assert list(LogEntry.objects.order_by("pk").values()) == before
    target = logged["claimed"]
    with (
        pytest.raises(ProgrammingError, match="pgtrigger"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM moderation_logentry WHERE id = %s", [target.pk])
    assert LogEntry.objects.filter(pk=target.pk).exists()


@pytest.mark.parametrize(
    "day", ["9999-12-31", "0001-01-01", "1899-12-31", "3000-01-01", "10000-01-01", "2026-02-30"]
)
@pytest.mark.parametrize("field", ["since", "until"])
def test_a_day_out_of_range_answers_400_with_a_sentence(
    site_moderator: User, field: str, day: str
) -> None:
    response = client_as(site_moderator).get(URL, {field: day})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Enter a valid date" in html or "Choose a day from 1 January 2000" in html
