"""A move and the clock for the same turn, fired together many times: exactly one applies.

Threads with their own database connections really contend for the game's row lock.
The clock comes as the turn's own task and as the sweep, at once.
"""

from collections import Counter
from datetime import timedelta

import pytest
import time_machine

from accounts.models import User
from games import services, tasks
from games.models import Game, Move, Seat
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.test_concurrency import race

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 30


def one_turn_ended(game: Game) -> Move.By:
    """The game ended exactly its first turn, and its cache equals its log."""
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq"))
    turn_ends = [m for m in moves if m.turn_number == 1 and m.action["type"] != "forfeit"]
    assert len(turn_ends) == 1, moves
    assert game.version == len(moves)
    assert game.turn_number >= 2
    assert game.replay_state() == game.engine_state()
    return Move.By(turn_ends[0].by)


def move_against_clock(game: Game, offset: timedelta) -> list[str]:
    mover = user_at(game, game.current_seat or 0)
    assert game.turn_deadline is not None
    with time_machine.travel(game.turn_deadline + offset, tick=False):
        return race(
            lambda: services.draw(game.pk, mover, 0),
            lambda: tasks.expire_turn.delay(game.pk, 1),
            lambda: tasks.sweep_expired_turns.delay(),
        )


@pytest.mark.parametrize("offset", [timedelta(0), timedelta(milliseconds=1500)])
def test_a_move_and_the_timeout_for_one_turn_never_both_apply(
    alice: User, bob: User, offset: timedelta
) -> None:
    winners: Counter[str] = Counter()
    for _ in range(ROUNDS):
        game = current_game(start_table(alice, bob, turn_seconds=30))

        # At the deadline itself, and a little after it (when the sweep joins in).
        results = move_against_clock(game, offset)

        by = one_turn_ended(game)
        # The clock never complains. At the deadline itself the row lock decides, and a
        # player who comes second is told the game moved on; after it, the turn is the
        # clock's: the player is told time ran out, or that the game moved on if the
        # clock has already ended the turn.
        if offset:
            assert by == Move.By.TIMEOUT
            assert results in (["ok", "ok", "stale"], ["ok", "ok", "time_up"])
        else:
            assert results == (["ok", "ok", "ok"] if by == Move.By.USER else ["ok", "ok", "stale"])
        winners[by] += 1
    assert sum(winners.values()) == ROUNDS


def resignation_against_clock(game: Game, seat: int) -> list[str]:
    player = user_at(game, seat)
    assert game.turn_deadline is not None
    with time_machine.travel(game.turn_deadline, tick=False):
        return race(
            lambda: services.resign(game.pk, player),
            lambda: tasks.expire_turn.delay(game.pk, 1),
        )


def test_a_forfeiting_timeout_racing_a_resignation_leaves_one_ending(
    alice: User, bob: User, carol: User
) -> None:
    for _ in range(ROUNDS // 3):
        game = current_game(start_table(alice, bob, carol, turn_seconds=30, timeouts_to_forfeit=1))
        late = game.current_seat or 0

        results = resignation_against_clock(game, late)

        game.refresh_from_db()
        state = game.engine_state()
        assert state.dropped == (late,)
        assert game.replay_state() == state
        assert game.version == game.moves.count()
        # Either the resignation ended the turn, or the clock did and then put the seat
        # out, and the resignation found it gone already.
        assert results in (["ok", "ok"], ["invalid", "ok"])  # (sorted)
        assert Seat.objects.get(table_id=game.table_id, number=late).timeouts_in_a_row == 0
