"""Requests racing for the same turn: exactly one applies, the game stays consistent.

Each thread has its own database connection, so the row lock really is contended.
"""

from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine

from accounts.models import User
from games import services
from games.errors import GameActionError
from games.models import Draft, Game
from games.services import NEW_SET, RACK
from tests import races
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db(transaction=True)


def race(*attempts: Callable[[], object]) -> list[str]:
    """Run the attempts at the same moment in threads; ``"ok"`` or each error's code."""
    return races.race(*attempts, refusal=GameActionError, name=lambda err: err.code)


def assert_consistent(game: Game) -> None:
    game.refresh_from_db()
    assert game.version == game.moves.count()
    assert game.replay_state() == game.engine_state()


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob))


def test_the_same_move_sent_many_times_at_once_applies_once(game: Game) -> None:
    mover = user_at(game, game.current_seat or 0)

    results = race(*[lambda: services.draw(game.pk, mover, 0)] * 6)

    assert results == ["ok"] + ["stale"] * 5
    assert_consistent(game)
    assert game.version == 1


def test_different_moves_for_one_turn_apply_once(game: Game) -> None:
    mover = user_at(game, game.current_seat or 0)
    tile = str(game.engine_state().racks[game.current_seat or 0][0])

    results = race(
        lambda: services.draw(game.pk, mover, 0),
        lambda: services.play(game.pk, mover, 0, [[tile]]),
        lambda: services.draw(game.pk, mover, 0),
        lambda: services.pass_turn(game.pk, mover, 0),
    )

    # The illegal play and the pass are refused whenever they run; of the draws one wins.
    assert results.count("ok") == 1 and results.count("stale") >= 1
    assert set(results) <= {"ok", "stale", "illegal", "invalid"}
    assert_consistent(game)
    assert game.version == 1


def test_the_clock_and_the_player_racing_at_the_deadline_end_the_turn_once(game: Game) -> None:
    mover = user_at(game, game.current_seat or 0)
    assert game.turn_deadline is not None

    with time_machine.travel(game.turn_deadline + timedelta(seconds=1), tick=False):
        results = race(
            lambda: services.draw(game.pk, mover, 0),
            lambda: services.time_out_turn(game.pk, 1),
            lambda: services.time_out_turn(game.pk, 1),
        )

    # Past the deadline the turn belongs to the clock: the player is told time ran out
    # (or, if a timeout got there first, that the game moved on), and of the two
    # timeouts the second finds the turn over and returns quietly.
    assert results in (["ok", "ok", "stale"], ["ok", "ok", "time_up"])
    assert_consistent(game)
    assert game.moves.get().by == "timeout"
    assert game.version == 1 and game.turn_number == 2


def test_a_draft_edit_racing_a_move_never_outlives_its_turn(game: Game) -> None:
    seat = game.current_seat or 0
    mover = user_at(game, seat)
    tile = str(game.engine_state().racks[seat][0])

    results = race(
        lambda: services.move_tiles(game.pk, mover, [(tile, RACK)], NEW_SET),
        lambda: services.draw(game.pk, mover, 0),
    )

    assert results in (["ok", "ok"], ["not_your_turn", "ok"])
    assert_consistent(game)
    # Either the edit came first and counts for no later turn, or it came too late.
    game.refresh_from_db()
    assert not Draft.objects.filter(game=game, turn_number=game.turn_number).exists()
