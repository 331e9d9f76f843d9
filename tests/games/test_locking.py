"""The locks every service takes: the game, then its table, then a seat."""

import threading
from collections.abc import Callable

import pytest
from django.db import DatabaseError, connection, transaction

from accounts.models import User
from games.errors import NotFound
from games.models import Game, Seat, Table
from games.services.locking import (
    lock_game,
    lock_game_if_free,
    lock_seat,
    lock_table,
    lock_table_of,
)
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db(transaction=True)


def elsewhere(attempt: Callable[[], object]) -> object:
    """What ``attempt`` returns or raises on another connection, in its own transaction."""
    outcome: list[object] = []

    def run() -> None:
        try:
            with transaction.atomic():
                outcome.append(attempt())
        except DatabaseError as err:
            outcome.append(err)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return outcome[0]


def test_the_game_then_its_table_then_a_seat_are_held_until_commit(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))

    with transaction.atomic():
        locked = lock_game(game.pk)
        table = lock_table_of(locked)
        seat = lock_seat(locked, 0)
        assert locked.table is table
        assert seat is not None and seat.number == 0

        for query in (
            Game.objects.select_for_update(nowait=True).filter(pk=game.pk),
            Table.objects.select_for_update(nowait=True).filter(pk=game.table_id),
            Seat.objects.select_for_update(nowait=True).filter(pk=seat.pk),
        ):
            assert isinstance(elsewhere(lambda q=query: list(q)), DatabaseError)
        # A sweep passes a held game by instead of waiting for it.
        assert elsewhere(lambda: lock_game_if_free(game.pk, wait=False)) is None

    assert elsewhere(lambda: lock_game_if_free(game.pk, wait=False)) == game


def test_a_table_of_the_lobby_is_locked_on_its_own(alice: User, bob: User) -> None:
    table = start_table(alice, bob)
    with transaction.atomic():
        assert lock_table(table.pk) == table
        held = Table.objects.select_for_update(nowait=True).filter(pk=table.pk)
        assert isinstance(elsewhere(lambda: list(held)), DatabaseError)


def test_a_game_or_table_that_is_not_there_is_not_found(db: None) -> None:
    with transaction.atomic():
        with pytest.raises(NotFound):
            lock_game(0)
        with pytest.raises(NotFound):
            lock_table(0)
        assert lock_game_if_free(0) is None
