"""A suspension reaches staff and moderation powers (review wave 3, S5): while a
suspension from the club lasts, its organiser uses none of the organisers' tools and its
moderator moderates none of its cases; a site moderator suspended from the site claims
and rules on nothing. Each door answers 403 with the suspension's sentence and nothing
changes; once the suspension ends the powers return.

The season (``running``): alice owns the club and plays erin-alice; olga and oscar
organise it and play nowhere; mo moderates it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from games.services.adjudication import stop_round
from leagues.errors import NotAllowed as LeaguesNotAllowed
from leagues.models import Matchday, Role, ScoreAdjustment, Season
from leagues.selectors.adjustments import deciders
from leagues.services import adjustments
from moderation.errors import NotAllowed
from moderation.models import Case, Ruling, Suspension
from moderation.permissions import is_site_moderator, moderated_club_ids
from moderation.services import claims
from moderation.services.rulings import confirm, rule
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, add_member, olga
from tests.leagues.test_open_next import add_matchday_2, finish_matchday_1
from tests.moderation.conftest import open_case, suspend

pytestmark = pytest.mark.django_db

__all__ = ["olga"]

PAGE = "/clubs/tile-club/winter/1/organiser/"
SUSPENDED = "You are suspended from the club Tile Club until"
SITE_SUSPENDED = "You are suspended from this site until"


@pytest.fixture
def bob_dave(running: RunningSeason) -> Game:
    """Game 1 of bob-dave, finished (its round stopped)."""
    table_id = running.fixtures[0].table_id
    assert table_id is not None
    stop_round(table_id)
    return Game.objects.get(table_id=table_id, number=1)


@pytest.fixture
def oscar(running: RunningSeason) -> User:
    """A second organiser who plays nowhere: he proposes, olga would confirm."""
    return add_member(running.club, UserFactory(username="oscar"), Role.ORGANISER).user


@pytest.fixture
def suspended_olga(running: RunningSeason, olga: User, bob_dave: Game, oscar: User) -> Suspension:
    return suspend(olga, bob_dave, oscar, club=running.club, days=7)


def later(running: RunningSeason) -> str:
    return (running.matchday.deadline + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")


def a_score_change(game: Game) -> dict[str, object]:
    loser = next(row for row in Result.objects.current().of_game(game) if not row.is_winner)
    return {"game": game.pk, "seat": loser.seat, "score": loser.score - 1, "reason": "Typo."}


def refused(response: object, sentence: str = SUSPENDED) -> None:
    assert response.status_code == 403  # type: ignore[attr-defined]
    assert sentence in response.content.decode()  # type: ignore[attr-defined]


# --- the organisers' tools --------------------------------------------------------------


def test_a_suspended_organiser_is_refused_the_organisers_page(
    running: RunningSeason, olga: User, suspended_olga: Suspension, client: Client
) -> None:
    client.force_login(olga)
    refused(client.get(PAGE))
    assert not olga.has_perm("leagues.manage_club", running.club)


def test_a_suspended_organiser_cannot_extend_a_deadline_until_it_ends(
    running: RunningSeason, olga: User, suspended_olga: Suspension, client: Client
) -> None:
    before = running.matchday.deadline
    client.force_login(olga)
    url = f"{PAGE}matchdays/1/deadline/"
    refused(client.post(url, {"deadline": later(running), "reason": "Snow."}))
    assert Matchday.objects.get(pk=running.matchday.pk).deadline == before
    with time_machine.travel(suspended_olga.ends_at + timedelta(minutes=1)):
        client.force_login(olga)
        done = client.post(url, {"deadline": later(running), "reason": "Snow."})
        assert done.status_code == 302
        assert olga.has_perm("leagues.manage_club", running.club)
    assert Matchday.objects.get(pk=running.matchday.pk).deadline > before


def test_a_suspended_organiser_cannot_open_a_matchday_early(
    running: RunningSeason, olga: User, suspended_olga: Suspension, client: Client
) -> None:
    following = add_matchday_2(running)
    finish_matchday_1(running)
    client.force_login(olga)
    refused(client.post(f"{PAGE}matchdays/next/open/", {"reason": "All done."}))
    assert Matchday.objects.get(pk=following.pk).status == Matchday.Status.SCHEDULED


def test_a_suspended_organiser_cannot_close_the_season(
    running: RunningSeason, olga: User, suspended_olga: Suspension, client: Client
) -> None:
    finish_matchday_1(running)
    client.force_login(olga)
    refused(client.post(f"{PAGE}close/", {"reason": "Done."}))
    refused(client.post(f"{PAGE}close/announce/", {"reason": "Done."}))
    season = Season.objects.get(pk=running.season.pk)
    assert season.status == Season.Status.RUNNING
    assert season.closes_at is None


def test_a_suspended_organiser_cannot_propose_a_score_change(
    running: RunningSeason, olga: User, suspended_olga: Suspension, bob_dave: Game, client: Client
) -> None:
    client.force_login(olga)
    url = reverse("leagues:adjust_score", args=["tile-club", "winter", 1, running.fixtures[0].pk])
    refused(client.post(url, a_score_change(bob_dave)))
    assert not ScoreAdjustment.objects.exists()


def test_a_suspended_organiser_cannot_confirm_a_score_change_nor_is_asked_to(
    running: RunningSeason,
    olga: User,
    oscar: User,
    bob_dave: Game,
    club_moderator: User,
    client: Client,
) -> None:
    change = adjustments.propose(running.season, **_proposal(bob_dave), by=oscar)
    assert olga in deciders(change)
    suspension = suspend(olga, bob_dave, oscar, club=running.club)
    assert olga not in deciders(change)
    with pytest.raises(LeaguesNotAllowed, match=SUSPENDED):
        adjustments.confirm(change.pk, olga)
    client.force_login(olga)
    url = reverse("leagues:confirm_adjustment", args=["tile-club", "winter", 1, change.pk])
    refused(client.post(url))
    change.refresh_from_db()
    assert change.status == ScoreAdjustment.Status.PROPOSED
    with time_machine.travel(suspension.ends_at + timedelta(minutes=1)):
        assert adjustments.confirm(change.pk, olga).status == ScoreAdjustment.Status.CONFIRMED


def _proposal(game: Game) -> dict[str, object]:
    change = a_score_change(game)
    return {"game_id": game.pk, "seat": change["seat"], "score": change["score"], "reason": "Typo."}


# --- moderation ---------------------------------------------------------------------------


def test_a_suspended_club_moderator_moderates_none_of_its_cases(
    running: RunningSeason, club_moderator: User, bob_dave: Game, bob: User, oscar: User
) -> None:
    case = open_case(bob_dave, bob, fixture=running.fixtures[0])
    suspension = suspend(club_moderator, bob_dave, oscar, club=running.club)
    assert running.club.pk not in moderated_club_ids(club_moderator)
    assert not club_moderator.has_perm("moderation.view_case", case)
    with pytest.raises(NotAllowed, match=SUSPENDED):
        claims.claim(case.pk, club_moderator)
    assert Case.objects.get(pk=case.pk).claimed_by is None
    with time_machine.travel(suspension.ends_at + timedelta(minutes=1)):
        assert claims.claim(case.pk, club_moderator).claimed_by == club_moderator


def test_a_site_suspended_site_moderator_cannot_claim_or_rule_until_it_ends(
    casual_game: Game, alice: User, bob: User, site_moderator: User, client: Client
) -> None:
    case = open_case(casual_game, alice)
    other = UserFactory(username="sol")
    suspension = suspend(site_moderator, casual_game, other)
    assert not is_site_moderator(site_moderator)
    with pytest.raises(NotAllowed, match=SITE_SUSPENDED):
        claims.claim(case.pk, site_moderator)
    client.force_login(site_moderator)
    refused(client.post(reverse("moderation:claim", args=[case.pk])), SITE_SUSPENDED)
    # Claimed before the suspension: the claim does not let them rule either.
    Case.objects.filter(pk=case.pk).update(claimed_by=site_moderator, claimed_at=timezone.now())
    with pytest.raises(NotAllowed, match=SITE_SUSPENDED):
        rule(case.pk, site_moderator, Ruling.Kind.WARN, "Be kind.", target=bob)
    assert not Ruling.objects.filter(case=case, by=site_moderator).exists()
    with time_machine.travel(suspension.ends_at + timedelta(minutes=1)):
        assert is_site_moderator(site_moderator)
        made = rule(case.pk, site_moderator, Ruling.Kind.WARN, "Be kind.", target=bob)
        assert made.by == site_moderator


def test_a_suspended_second_moderator_cannot_confirm_a_proposed_ruling(
    running: RunningSeason, club_moderator: User, bob_dave: Game, bob: User, oscar: User
) -> None:
    case = open_case(bob_dave, bob, fixture=running.fixtures[0])
    second = add_member(running.club, UserFactory(username="max"), Role.MODERATOR).user
    claims.claim(case.pk, club_moderator)
    proposal = rule(case.pk, club_moderator, Ruling.Kind.VOID, "The clocks failed.")
    assert proposal.status == Ruling.Status.PROPOSED
    suspend(second, bob_dave, oscar, club=running.club)
    with pytest.raises(NotAllowed, match=SUSPENDED):
        confirm(proposal.pk, second)
    proposal.refresh_from_db()
    assert proposal.status == Ruling.Status.PROPOSED


@pytest.mark.parametrize("page", ["moderation:queue", "moderation:log"])
def test_the_moderators_own_pages_tell_a_suspended_moderator_why(
    page: str,
    running: RunningSeason,
    club_moderator: User,
    casual_game: Game,
    bob_dave: Game,
    site_moderator: User,
    oscar: User,
    client: Client,
) -> None:
    # They read "Only moderators see the queue of cases." as if they had no role at all.
    suspend(club_moderator, bob_dave, oscar, club=running.club)
    client.force_login(club_moderator)
    if page == "moderation:queue":
        refused(client.get(reverse(page)))
    else:
        # Reading stays theirs while suspended ("You can still watch, read and appeal").
        assert client.get(reverse(page)).status_code == 200
    suspend(site_moderator, casual_game, UserFactory(username="sol"))
    client.force_login(site_moderator)
    refused(client.get(reverse(page)), SITE_SUSPENDED)
    client.force_login(UserFactory(username="nobody"))
    answer = client.get(reverse(page))
    assert answer.status_code == 403 and "suspended" not in answer.content.decode()
