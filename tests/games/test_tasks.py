import logging
import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import override_settings

from accounts.models import User
from engine.actions import Action, Play
from engine.state import GameState
from games import services, tasks
from games.models import Draft, Game, Move
from games.models.table_settings import TableSettings
from games.services import NEW_SET, RACK, SeatPlan
from tests.games.conftest import current_game, seat_starts
from tests.games.players import simple_action, user_at
from tests.games.positions import set_position

pytestmark = pytest.mark.django_db


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots play like the test player (engine.bots is not what these tests are about)."""

    def choose(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return simple_action(state, seat, rng)

    monkeypatch.setattr("games.services.turns.choose_bot_action", choose)


def after_deadline(game: Game) -> time_machine.travel:
    assert game.turn_deadline is not None
    return time_machine.travel(game.turn_deadline + timedelta(seconds=1), tick=False)


def rack_size(game: Game, seat: int) -> int:
    game.refresh_from_db()
    return len(game.engine_state().racks[seat])


def test_a_turn_times_out_after_its_deadline(game: Game) -> None:
    seat = game.current_seat
    assert seat is not None

    with after_deadline(game):
        tasks.expire_turn.delay(game.pk, 1)

    assert rack_size(game, seat) == 15
    move = game.moves.get()
    assert (move.by, move.user, move.action) == (
        Move.By.TIMEOUT,
        None,
        {"type": "timeout", "changed": False},
    )
    assert (game.turn_number, game.current_seat) == (2, 1 - seat)


def test_a_timed_out_player_who_had_changed_the_table_draws_three(game: Game) -> None:
    set_position(game, [["R5", "R6", "R7"]], ["R8", "K1", "K2"])
    seat = game.current_seat
    assert seat is not None
    services.move_tiles(game.pk, user_at(game, seat), [("R8", RACK)], 0)

    with after_deadline(game):
        tasks.expire_turn.delay(game.pk, 1)

    assert game.moves.get().action == {"type": "timeout", "changed": True}
    assert rack_size(game, seat) == 6
    game.refresh_from_db()
    assert not Draft.objects.filter(turn_number=game.turn_number).exists()


def test_a_draft_moved_back_to_the_start_is_no_change(game: Game) -> None:
    set_position(game, [["R5", "R6", "R7"]], ["R8", "K1", "K2"])
    assert game.current_seat is not None
    player = user_at(game, game.current_seat)
    services.move_tiles(game.pk, player, [("K1", RACK)], NEW_SET)
    services.move_tiles(game.pk, player, [("K1", 1)], RACK)

    with after_deadline(game):
        tasks.expire_turn.delay(game.pk, 1)

    assert game.moves.get().action == {"type": "timeout", "changed": False}


def test_a_timeout_before_the_deadline_does_nothing(game: Game) -> None:
    tasks.expire_turn.delay(game.pk, 1)

    game.refresh_from_db()
    assert (game.version, game.turn_number) == (0, 1)


def test_a_timeout_delivered_early_by_a_broker_tries_again_at_the_deadline(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.expire_turn, "apply_async", lambda *a, **kw: calls.append((a, kw)))

    assert game.turn_deadline is not None
    # A few seconds early (its task is queued only as the deadline comes near).
    with time_machine.travel(game.turn_deadline - timedelta(seconds=3), tick=False):
        tasks.expire_turn.run(game.pk, 1)  # as a worker runs it: not eagerly

    assert calls == [(((game.pk, 1),), {"eta": game.turn_deadline})]
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_timeout_for_a_turn_that_ended_does_nothing(game: Game) -> None:
    assert game.current_seat is not None
    services.draw(game.pk, user_at(game, game.current_seat), 0)

    with after_deadline(game):
        tasks.expire_turn.delay(game.pk, 1)
        tasks.expire_turn.delay(game.pk + 1000, 1)

    game.refresh_from_db()
    assert (game.version, game.turn_number) == (1, 2)


def test_a_committed_turn_due_before_the_next_sweep_schedules_its_timeout_at_once(
    game: Game, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.expire_turn, "apply_async", lambda *a, **kw: calls.append((a, kw)))
    assert game.current_seat is not None

    # Sweeps an hour apart: the turn's deadline falls within their look-ahead.
    with (
        override_settings(GAMES_SWEEP_SECONDS=3600),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.draw(game.pk, user_at(game, game.current_seat), 0)

    game.refresh_from_db()
    assert calls == [(((game.pk, 2),), {"eta": game.turn_deadline})]


def bot_table(alice: User, *levels: str, first: int = 0, **settings: Any) -> Game:
    """A game of alice (seat 0) against bots, with seat ``first`` to move."""
    seats = [SeatPlan.taken_by(alice), *(SeatPlan.bot(level) for level in levels)]
    with seat_starts(first):
        game = current_game(services.create_table(alice, TableSettings(**settings), seats))
    assert game.current_seat == first
    return game


def until_bots_turn(game: Game, alice: User) -> None:
    """Alice, who starts, draws (in the River she has then to discard)."""
    services.draw(game.pk, alice, game.version)
    game.refresh_from_db()


@pytest.mark.usefixtures("test_bots")
def test_a_bot_plays_its_turn_once(alice: User) -> None:
    game = bot_table(alice, "easy")
    until_bots_turn(game, alice)
    turn = game.turn_number

    tasks.play_bot_turn.delay(game.pk, turn)
    tasks.play_bot_turn.delay(game.pk, turn)

    game.refresh_from_db()
    bot_moves = game.moves.filter(by=Move.By.BOT)
    assert bot_moves.count() == 1
    assert (game.turn_number, game.current_seat) == (turn + 1, 0)


@pytest.mark.usefixtures("test_bots")
def test_a_bot_answers_a_players_move_by_itself(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    game = bot_table(alice, "normal", "strong", first=1)
    while game.current_seat != 0:  # the bots' first turns
        tasks.play_bot_turn.delay(game.pk, game.turn_number)
        game.refresh_from_db()

    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, alice, game.version)

    # The bots' tasks ran one after the other, eagerly, until it was alice's turn again.
    game.refresh_from_db()
    assert game.current_seat == 0
    last_three = game.moves.order_by("-seq")[:3]
    assert [(m.seat, m.by) for m in reversed(last_three)] == [
        (0, Move.By.USER),
        (1, Move.By.BOT),
        (2, Move.By.BOT),
    ]


@pytest.mark.usefixtures("test_bots")
def test_a_bot_finishes_a_river_turn(alice: User) -> None:
    game = bot_table(alice, "easy", options={"draw_mode": "river"})
    until_bots_turn(game, alice)
    while game.current_seat == 0:  # alice drew two: she discards one
        state = game.engine_state()
        services.discard(game.pk, alice, game.version, str(state.pending_draw[0]))
        game.refresh_from_db()
    turn = game.turn_number

    tasks.play_bot_turn.delay(game.pk, turn)

    game.refresh_from_db()
    assert game.turn_number == turn + 1
    kinds = [m.action["type"] for m in game.moves.filter(by=Move.By.BOT)]
    assert kinds in (["draw", "discard"], ["play"])


def test_a_bots_refused_move_becomes_a_timeout(
    alice: User, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def blunder(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return Play(((state.racks[seat][0],),))

    monkeypatch.setattr("games.services.turns.choose_bot_action", blunder)
    game = bot_table(alice, "easy")
    until_bots_turn(game, alice)

    with caplog.at_level(logging.ERROR):
        tasks.play_bot_turn.delay(game.pk, game.turn_number)

    move = game.moves.last()
    assert move is not None
    assert (move.by, move.action) == (Move.By.BOT, {"type": "timeout", "changed": False})
    assert "chose a refused move" in caplog.text


def test_a_bot_task_on_a_players_turn_does_nothing(alice: User, test_bots: None) -> None:
    game = bot_table(alice, "easy", first=0)

    tasks.play_bot_turn.delay(game.pk, game.turn_number)
    tasks.play_bot_turn.delay(game.pk + 1000, 1)

    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_strong_bot_moves_within_its_budget(alice: User, settings: object) -> None:
    # The engine's tests prove a bot sees only its own view and its play is legal under
    # any budget; here the real bot runs through the task, with a short budget.
    settings.GAMES_BOT_STEPS = {"strong": 20_000}  # type: ignore[attr-defined]
    game = bot_table(alice, "strong")
    until_bots_turn(game, alice)
    turn_number = game.turn_number

    tasks.play_bot_turn.delay(game.pk, turn_number)

    game.refresh_from_db()
    last = game.moves.last()
    assert last is not None and (last.turn_number, last.seat, last.by) == (turn_number, 1, "bot")
    assert game.replay_state() == game.engine_state()
