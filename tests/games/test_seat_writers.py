"""Every write to a seat while a game of its table is in play holds that game's lock.

A move reads its table's seats once, without locking them (:mod:`games.services.move`):
that is only sound if nobody changes a seat but under the game's lock. This test walks
every writer of seats in play - the clock's count and forfeit, a bank settled, a seat
handed to a bot and given back, a substitute, a forfeit for the round - and asks, at
each write, another connection whether it can take the game's lock.
"""

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet

from accounts.models import User
from games import services
from games.models import Game, Seat
from games.services.abandonment import forfeit_for_the_round, give_seat_back
from games.services.lobby import replace_seat_player
from tests.games.conftest import current_game, seat_starts, start_table

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)

Writes = list[tuple[int, bool]]


def lockable_elsewhere(game_id: int) -> bool:
    """Whether another connection could lock the game's row now (a game inserted by this
    transaction, not visible there, counts as held: nobody else can reach it)."""
    outcome: list[bool] = []

    def attempt() -> None:
        try:
            with transaction.atomic():
                row = Game.objects.select_for_update(nowait=True).filter(pk=game_id).first()
            outcome.append(row is not None)
        except DatabaseError:
            outcome.append(False)
        finally:
            connection.close()

    thread = threading.Thread(target=attempt)
    thread.start()
    thread.join()
    return outcome[0]


@pytest.fixture
def seat_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Writes]:
    """``(table_id, held)`` for every seat written while a game of its table is in play:
    whether the writer held the game's lock."""
    writes: Writes = []

    def check(table_id: int) -> None:
        in_play = (
            Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
            .values_list("pk", flat=True)
            .first()
        )
        if in_play is not None:
            writes.append((table_id, not lockable_elsewhere(in_play)))

    save = Seat.save

    def checked_save(self: Seat, *args: Any, **kwargs: Any) -> None:
        check(self.table_id)
        save(self, *args, **kwargs)

    update = QuerySet.update

    def checked_update(self: QuerySet[Any], **kwargs: Any) -> int:
        if self.model is Seat:
            for table_id in set(self.values_list("table_id", flat=True)):
                check(table_id)
        return update(self, **kwargs)

    monkeypatch.setattr(Seat, "save", checked_save)
    monkeypatch.setattr(QuerySet, "update", checked_update)
    yield writes


def test_every_seat_writer_in_play_locks_the_game_first(
    alice: User, bob: User, carol: User, seat_writes: Writes
) -> None:
    with time_machine.travel(T0, tick=False), seat_starts(0):
        table = start_table(
            alice,
            bob,
            turn_seconds=60,
            time_bank_seconds=120,
            timeouts_to_forfeit=2,
            on_forfeit="bot",
            games_in_round=3,
        )
    game = current_game(table)
    seat_writes.clear()  # the deal's writes come before any game is in play

    # The clock: alice's turn runs out (her count, her bank spent), bob takes long over
    # his move (his bank), alice's next turn runs out too: a bot takes her seat.
    assert game.turn_deadline is not None
    with time_machine.travel(game.turn_deadline + timedelta(seconds=2), tick=False):
        services.time_out_turn(game.pk, 1)
    game.refresh_from_db()
    with time_machine.travel(game.turn_started_at + timedelta(seconds=70), tick=False):
        services.draw(game.pk, bob, game.version)
    game.refresh_from_db()
    assert game.turn_deadline is not None
    with time_machine.travel(game.turn_deadline + timedelta(seconds=2), tick=False):
        services.time_out_turn(game.pk, game.turn_number)
    assert Seat.objects.get(table=table, number=0).kind == Seat.Kind.BOT
    assert Seat.objects.get(table=table, number=1).bank_seconds == 110

    # An authority above the table: the seat given back, a substitute, a forfeit.
    assert give_seat_back(table.pk, 0, alice.pk)
    replace_seat_player(table.pk, 1, carol)
    assert forfeit_for_the_round(table.pk, 1)

    assert len(seat_writes) >= 7
    assert [held for _, held in seat_writes] == [True] * len(seat_writes)
