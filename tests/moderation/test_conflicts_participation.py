"""Conflict of interest from facts (review wave 2, finding 4): a moderator who takes part
in the case's division in any way, not only with an entry of their own, shares it with
the parties: as a substitute (now or earlier), through a seat a bot took over from them,
or through a fixture they played. They cannot claim the case nor open its evidence."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from benchmarks import site_rows
from games.models import Game, Seat
from games.services.lobby import replace_seat_player
from leagues.models import Fixture, Membership, Role
from leagues.selectors.participation import (
    divisions_of,
    fixture_participants,
    shared_division,
)
from leagues.services.organiser import replace_player
from moderation.errors import NotAllowed
from moderation.models import Case
from moderation.permissions import conflicts, conflicts_of
from moderation.services import claims
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, olga
from tests.moderation.conftest import finished_league_game, open_case

pytestmark = pytest.mark.django_db

__all__ = ["olga"]  # a second organiser, who plays nowhere, seats the substitutes

SHARED = "You play in Division 1 of Winter league, season 1, as a party of the case does."


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    """Bob's report about game 1 of bob-dave."""
    return open_case(league_game, bob, fixture=league_fixture)


@pytest.fixture
def sub(running: RunningSeason) -> User:
    """A moderator of the club with no entry in the season."""
    user = UserFactory(username="sub", display_name="Sub")
    Membership.objects.create(club=running.club, user=user, role=Role.MODERATOR)
    return user


def _erin_alice(running: RunningSeason) -> Fixture:
    return running.fixtures[1]


def assert_in_conflict(sub: User, case: Case) -> None:
    assert conflicts(sub, case) == [SHARED]
    assert not sub.has_perm("moderation.take_case", case)
    with pytest.raises(NotAllowed, match="play in Division 1"):
        claims.claim(case.pk, sub)
    case.refresh_from_db()
    assert case.claimed_by is None


def test_a_moderator_in_no_division_may_take_the_case(case: Case, sub: User) -> None:
    assert conflicts(sub, case) == []


def test_a_moderator_playing_as_a_substitute_shares_the_division(
    running: RunningSeason, case: Case, sub: User, erin: User, olga: User
) -> None:
    replace_player(running.entries[2], sub, olga, "Erin is away.")
    assert_in_conflict(sub, case)


def test_an_earlier_substitute_still_shares_the_division(
    running: RunningSeason, case: Case, sub: User, olga: User
) -> None:
    erin_entry = running.entries[2]
    replace_player(erin_entry, sub, olga, "Erin is away.")
    frank = UserFactory(username="frank")
    Membership.objects.create(club=running.club, user=frank)
    replace_player(erin_entry, frank, olga, "Sub is away too.")
    erin_entry.refresh_from_db()
    assert erin_entry.substitute == frank
    assert_in_conflict(sub, case)


def test_a_moderator_whose_seat_a_bot_took_over_shares_the_division(
    running: RunningSeason, case: Case, sub: User
) -> None:
    # sub sat at erin-alice's table (no entry of theirs says so) until a bot took over.
    table_id = _erin_alice(running).table_id
    Seat.objects.filter(table_id=table_id, number=0).update(
        kind=Seat.Kind.BOT, user=None, bot_level="easy", replaced_user=sub
    )
    assert_in_conflict(sub, case)


def test_a_moderator_credited_with_a_result_shares_the_division(
    running: RunningSeason, case: Case, sub: User, erin: User
) -> None:
    # sub played game 1 of erin-alice in erin's seat, then the seat went back to erin:
    # only the result says sub played there.
    fixture = _erin_alice(running)
    assert fixture.table_id is not None
    replace_seat_player(fixture.table_id, 0, sub)
    game = finished_league_game(fixture)
    assert game.results.filter(member=sub).exists()
    replace_seat_player(fixture.table_id, 0, erin)
    assert_in_conflict(sub, case)


def test_the_substitute_is_refused_the_claim_and_the_evidence_by_url(
    running: RunningSeason, case: Case, sub: User, client: Client, olga: User
) -> None:
    replace_player(running.entries[2], sub, olga, "Erin is away.")
    client.force_login(sub)
    claimed = client.post(reverse("moderation:claim", args=[case.pk]))
    assert claimed.status_code == 403
    assert SHARED in claimed.content.decode()
    assert client.get(reverse("moderation:evidence", args=[case.pk])).status_code == 404
    case.refresh_from_db()
    assert case.claimed_by is None


def test_the_division_and_the_fixture_list_every_way_of_taking_part(
    running: RunningSeason, sub: User, erin: User, alice: User, bob: User, olga: User
) -> None:
    fixture = _erin_alice(running)
    replace_player(running.entries[2], sub, olga, "Erin is away.")
    season = running.season.pk
    assert list(divisions_of(sub, season)) == [running.division]
    assert shared_division(sub, {bob.pk}, season) == running.division
    assert shared_division(sub, set(), season) is None
    assert fixture_participants(fixture) == {erin.pk, alice.pk, sub.pk}
    assert bob.pk not in fixture_participants(fixture)


def test_the_shared_division_is_one_query(
    running: RunningSeason, sub: User, bob: User, django_assert_num_queries: Any, olga: User
) -> None:
    replace_player(running.entries[2], sub, olga, "Erin is away.")
    with django_assert_num_queries(1):
        assert shared_division(sub, {bob.pk}, running.season.pk) == running.division
    with django_assert_num_queries(1):
        assert sub.pk in fixture_participants(_erin_alice(running))


def test_the_queue_reads_each_cases_own_conflicts_in_a_few_queries(
    running: RunningSeason,
    case: Case,
    sub: User,
    olga: User,
    bob: User,
    dave: User,
    django_assert_max_num_queries: Any,
) -> None:
    """Many cases at once (the queue's way) give each case the reasons it gives alone:
    sub shares the league case's division, sat at one casual game, filed another, and
    has nothing to do with the last."""
    replace_player(running.entries[2], sub, olga, "Erin is away.")
    sat, filed, apart = site_rows.games_in_play(3, [dave, bob])
    Seat.objects.filter(table__games=sat, number=1).update(user=sub)
    at_sat = open_case(Game.objects.get(pk=sat), dave)
    at_filed = open_case(Game.objects.get(pk=filed), sub)
    at_apart = open_case(Game.objects.get(pk=apart), dave, accused=bob)
    cases = [case, at_sat, at_filed, at_apart]

    with django_assert_max_num_queries(4):
        together = conflicts_of(sub, cases)

    assert together == {
        case.pk: [SHARED],
        at_sat.pk: ["You sat at this game's table."],
        at_filed.pk: ["You filed a report in this case."],
        at_apart.pk: [],
    }
    assert together == {c.pk: conflicts(sub, c) for c in cases}
    assert conflicts_of(bob, cases)[at_apart.pk] == [
        "You sat at this game's table.",
        "The case is about you.",
    ]
