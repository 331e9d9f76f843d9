"""Seats taken from their player by an authority above the table (a league whose player
withdrew): handed to a bot at once, or forfeiting a game by a ruling."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from accounts.models import User
from games.errors import GameFinished, InvalidMove, TableError
from games.models import Game, Move, Seat, Table
from games.models.table_settings import TableSettings
from games.services import (
    SeatPlan,
    create_table,
    forfeit_for_the_round,
    forfeit_seat,
    hand_seat_to_bot,
    resign,
)
from games.services.locking import lock_game
from tests.games.conftest import current_game, start_table
from tests.races import Meanwhile

pytestmark = pytest.mark.django_db


def test_a_seat_handed_to_a_bot_mid_turn_is_played_by_the_bot(
    alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    table = start_table(alice, bob, carol, first=1)
    game = current_game(table)

    with django_capture_on_commit_callbacks(execute=True):
        assert hand_seat_to_bot(table.pk, 1) is True

    seat = Seat.objects.get(table=table, number=1)
    assert (seat.kind, seat.bot_level, seat.user, seat.replaced_user) == (
        Seat.Kind.BOT,
        "normal",
        None,
        bob,
    )
    game.refresh_from_db()
    assert game.current_seat == 2
    assert Move.objects.filter(game=game, seat=1, by=Move.By.BOT).count() == 1


def test_handing_over_a_bot_seat_or_a_finished_table_does_nothing(alice: User, bob: User) -> None:
    table = start_table(alice, bob)
    assert hand_seat_to_bot(table.pk, 1) is True
    assert hand_seat_to_bot(table.pk, 1) is False
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Game.objects.filter(table=table).update(status=Game.Status.FINISHED)
    assert hand_seat_to_bot(table.pk, 0) is False
    assert Seat.objects.get(table=table, number=0).kind == Seat.Kind.PLAYER


def test_there_is_no_seat_nine(alice: User, bob: User) -> None:
    table = start_table(alice, bob)
    with pytest.raises(TableError, match="no seat 9"):
        hand_seat_to_bot(table.pk, 9)


def test_a_seat_forfeits_out_of_turn_by_a_ruling(alice: User, bob: User, carol: User) -> None:
    table = start_table(alice, bob, carol, first=0)
    game = current_game(table)

    forfeit_seat(game.pk, 2)

    game.refresh_from_db()
    assert game.engine_state().dropped == (2,)
    assert game.current_seat == 0
    move = Move.objects.get(game=game, seat=2)
    assert (move.by, move.action, move.user) == (Move.By.RULING, {"type": "forfeit"}, None)
    with pytest.raises(InvalidMove, match="already left"):
        forfeit_seat(game.pk, 2)


def test_the_last_seat_in_play_wins_when_the_other_forfeits(alice: User, bob: User) -> None:
    table = start_table(alice, bob, games_in_round=1)
    game = current_game(table)

    forfeit_seat(game.pk, 0)

    game.refresh_from_db()
    assert game.is_over
    with pytest.raises(GameFinished):
        forfeit_seat(game.pk, 1)


def test_a_seat_forfeiting_for_the_round_forfeits_the_game_in_play_and_each_one_dealt(
    alice: User, bob: User, carol: User
) -> None:
    table = start_table(alice, bob, carol, first=0, games_in_round=3)
    game = current_game(table)

    assert forfeit_for_the_round(table.pk, 0) is True

    game.refresh_from_db()
    assert game.engine_state().dropped == (0,)
    assert game.current_seat == 1
    seat = Seat.objects.get(table=table, number=0)
    assert (seat.kind, seat.user, seat.forfeits_each_game) == (Seat.Kind.PLAYER, alice, True)
    # Bob and carol end the game (carol resigns): the next one is dealt with alice out
    # of it from its first move, in the same transaction.
    resign(game.pk, carol)
    dealt = current_game(table)
    assert dealt.number == 2
    assert dealt.engine_state().dropped == (0,)
    assert dealt.current_seat != 0
    first = Move.objects.get(game=dealt)
    assert (first.seq, first.seat, first.by, first.action) == (
        1,
        0,
        Move.By.RULING,
        {"type": "forfeit"},
    )


def test_a_table_set_up_with_a_forfeiting_seat_deals_every_game_without_it(
    alice: User, bob: User
) -> None:
    table = create_table(
        alice,
        TableSettings(games_in_round=2),
        [SeatPlan.taken_by(alice), SeatPlan.forfeiting(bob)],
        seated_by_authority=True,
    )

    # Two seats: each forfeit ends its game and deals the next, to the round's end.
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    games = list(table.games.order_by("number"))
    assert [game.engine_state().dropped for game in games] == [(1,), (1,)]
    assert all(game.is_over for game in games)


def test_forfeiting_for_the_round_leaves_a_bot_seat_and_a_finished_round_alone(
    alice: User, bob: User
) -> None:
    table = start_table(alice, bob, games_in_round=1)
    hand_seat_to_bot(table.pk, 1)
    assert forfeit_for_the_round(table.pk, 1) is False
    with pytest.raises(TableError):
        forfeit_for_the_round(table.pk, 9)
    forfeit_seat(current_game(table).pk, 1)
    assert forfeit_for_the_round(table.pk, 0) is False


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_that_waits_for_a_game_ending_forfeits_the_next_one_it_deals(
    alice: User, bob: User
) -> None:
    # The forfeit waits on the game in play while bob's resignation ends it and deals
    # game 2; it then starts again from game 2 (locked before the table, as every writer
    # locks), rather than lock game 2 while holding the table.
    table = start_table(alice, bob, first=0, games_in_round=3)
    game = current_game(table)

    with transaction.atomic():
        lock_game(game.pk)
        resign(game.pk, bob)
        forfeiting = Meanwhile(
            lambda: forfeit_for_the_round(table.pk, 0), refusal=TableError, name=str
        )
        assert forfeiting.waiting

    assert forfeiting.outcome() == "ok"
    assert Seat.objects.get(table=table, number=0).forfeits_each_game
    # Game 1 is bob's resignation; alice forfeits game 2, and game 3 as it is dealt.
    games = list(table.games.order_by("number"))
    assert [g.engine_state().dropped for g in games] == [(1,), (0,), (0,)]
    assert [m.by for m in Move.objects.filter(game=games[0])] == [Move.By.USER]
