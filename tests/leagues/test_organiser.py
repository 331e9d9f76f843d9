"""Organisers' tools: deadlines extended, fixtures moved, substitutes, scores adjusted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result, Seat
from games.services.adjudication import stop_round
from leagues.errors import LeaguesError
from leagues.models import Entry, Fixture, Matchday, Membership, Role
from leagues.services.adjustments import propose
from leagues.services.organiser import (
    extend_deadline,
    replace_player,
    reschedule_fixture,
)
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def test_a_deadline_is_extended_later_only_with_a_reason(
    running: RunningSeason, olga: User
) -> None:
    # Olga: alice plays in the matchday (leagues.conflicts).
    matchday = running.matchday
    Matchday.objects.filter(pk=matchday.pk).update(reminded_at=timezone.now())
    later = matchday.deadline + timedelta(days=1)

    with pytest.raises(LeaguesError):
        extend_deadline(matchday, matchday.deadline - timedelta(hours=1), olga, "x")
    with pytest.raises(LeaguesError):
        extend_deadline(matchday, later, olga, " ")
    extended = extend_deadline(matchday, later, olga, "Holidays.")

    assert (extended.deadline, extended.reminded_at) == (later, None)
    event = matchday.events.order_by("pgh_id").last()  # type: ignore[attr-defined]
    assert event.pgh_context.metadata == {"reason": "Holidays.", "user": olga.pk}


def test_a_closed_matchday_keeps_its_deadline(running: RunningSeason) -> None:
    Matchday.objects.filter(pk=running.matchday.pk).update(status=Matchday.Status.CLOSED)
    with pytest.raises(LeaguesError):
        extend_deadline(
            running.matchday, timezone.now() + timedelta(days=9), running.organiser, "x"
        )


def test_a_fixture_gets_its_own_deadline_and_a_note(running: RunningSeason) -> None:
    moved = reschedule_fixture(
        running.fixtures[0], timezone.now() + timedelta(days=5), running.organiser, "Bob is ill."
    )
    assert moved.deadline is not None
    assert moved.note.startswith("Rescheduled to ") and moved.note.endswith(": Bob is ill.")
    with pytest.raises(LeaguesError):
        reschedule_fixture(moved, timezone.now() - timedelta(hours=1), running.organiser, "x")


def test_a_substitute_takes_the_seat_at_the_table_being_played(running: RunningSeason) -> None:
    bob_entry = running.entries[0]
    frank = UserFactory(username="frank", display_name="Frank")
    Membership.objects.create(club=running.club, user=frank, role=Role.MEMBER)

    replaced = replace_player(bob_entry, frank, running.organiser, "Bob moved away.")

    assert replaced.player == frank
    seat = Seat.objects.get(table_id=running.fixtures[0].table_id, number=0)
    assert seat.user == frank
    # The game goes on for the seat: frank may move now (it is seat 0's turn).
    game = Game.objects.get(table_id=running.fixtures[0].table_id, number=1)
    assert game.current_seat == 0


def test_a_substitute_must_be_a_member_not_already_playing(running: RunningSeason) -> None:
    stranger = UserFactory(username="stranger")
    bob_entry, dave = running.entries[0], running.players[1]
    with pytest.raises(LeaguesError, match="not a member"):
        replace_player(bob_entry, stranger, running.organiser, "x")
    with pytest.raises(LeaguesError, match="already"):
        replace_player(bob_entry, dave, running.organiser, "x")
    assert Entry.objects.get(pk=bob_entry.pk).substitute is None


def test_a_score_is_adjusted_through_a_ruling(running: RunningSeason, bob: User) -> None:
    table_id = running.fixtures[0].table_id
    assert table_id is not None
    stop_round(table_id)
    game = Game.objects.get(table_id=table_id, number=1)

    propose(running.season, game.pk, 1, -42, running.organiser, "Miscounted rack.")

    seat_1 = Result.objects.current().get(game=game, seat=1)
    assert (seat_1.score, seat_1.source, seat_1.reason) == (
        -42,
        Result.Source.RULING,
        "Miscounted rack.",
    )
    assert seat_1.decided_by == running.organiser


def test_a_score_outside_the_season_or_unchanged_is_refused(running: RunningSeason) -> None:
    with pytest.raises(LeaguesError):
        propose(running.season, 10**9, 0, 1, running.organiser, "x")
    table_id = running.fixtures[0].table_id
    assert table_id is not None
    game = Game.objects.get(table_id=table_id, number=1)
    with pytest.raises(LeaguesError):  # the game is not finished
        propose(running.season, game.pk, 0, 1, running.organiser, "x")
    assert not Fixture.objects.filter(status=Fixture.Status.SETTLED).exists()
