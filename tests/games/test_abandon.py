"""Abandonment: turns run out in a row until the player forfeits; resigning; the round goes on."""

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from accounts.models import User
from engine.actions import Action
from engine.state import GameState
from games import services, tasks
from games.errors import GameFinished, InvalidMove, NotSeated
from games.models import Game, Move, Result, Seat, Table
from games.rendering import game_context
from games.services.abandonment import resign
from tests.games.conftest import current_game, start_table, winner_of
from tests.games.players import simple_action, user_at

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    def choose(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return simple_action(state, seat, rng)

    monkeypatch.setattr("games.services.turns.choose_bot_action", choose)


class Clock:
    """Frozen time that the test moves on by hand."""

    def __init__(self) -> None:
        self.now = T0

    def at(self, moment: datetime) -> time_machine.travel:
        self.now = moment
        return time_machine.travel(moment, tick=False)

    def past_deadline(self, game: Game) -> time_machine.travel:
        game.refresh_from_db()
        assert game.turn_deadline is not None
        return self.at(game.turn_deadline + timedelta(seconds=2))


def new_game(*players: User, **settings: Any) -> tuple[Game, Clock]:
    clock = Clock()
    with clock.at(T0):
        game = current_game(start_table(*players, **{"turn_seconds": 60, **settings}))
    return game, clock


def run_out(game: Game, clock: Clock) -> None:
    """Let the current turn run out; its task ends it."""
    with clock.past_deadline(game):
        tasks.expire_turn.delay(game.pk, game.turn_number)
    game.refresh_from_db()


def seat_row(game: Game, number: int) -> Seat:
    return Seat.objects.get(table_id=game.table_id, number=number)


def test_turns_run_out_in_a_row_are_counted_per_seat(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob)
    first = game.current_seat or 0

    run_out(game, clock)
    run_out(game, clock)

    assert seat_row(game, first).timeouts_in_a_row == 1
    assert seat_row(game, 1 - first).timeouts_in_a_row == 1


def test_a_move_of_the_player_starts_the_count_again(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob)
    first = game.current_seat or 0
    run_out(game, clock)
    run_out(game, clock)

    with clock.at(clock.now + timedelta(seconds=1)):
        services.draw(game.pk, user_at(game, first), game.version)

    assert seat_row(game, first).timeouts_in_a_row == 0


def test_the_third_timeout_in_a_row_forfeits_a_two_player_game(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob)
    first = game.current_seat or 0
    other = 1 - first
    while not Game.objects.get(pk=game.pk).is_over:
        # The other player keeps playing; the first one has gone.
        if game.current_seat == first:
            run_out(game, clock)
        else:
            with clock.at(clock.now + timedelta(seconds=1)):
                services.draw(game.pk, user_at(game, other), game.version)
            game.refresh_from_db()

    game.refresh_from_db()
    kinds = [(m.seat, m.by, m.action["type"]) for m in game.moves.filter(seat=first)]
    assert kinds == [
        (first, Move.By.TIMEOUT, "timeout"),
        (first, Move.By.TIMEOUT, "timeout"),
        (first, Move.By.TIMEOUT, "timeout"),
        (first, Move.By.TIMEOUT, "forfeit"),
    ]
    assert game.outcome is not None
    assert (game.outcome["termination"], winner_of(game)) == ("forfeit", other)
    assert game.outcome["scores"][first] < 0 < game.outcome["scores"][other]
    assert game.replay_state() == game.engine_state()


def test_the_limit_is_the_tables_choice(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob, timeouts_to_forfeit=1)

    run_out(game, clock)

    assert game.is_over
    assert game.outcome is not None and game.outcome["termination"] == "forfeit"


def test_play_skips_a_player_who_forfeited_and_the_others_play_on(
    alice: User, bob: User, carol: User
) -> None:
    game, clock = new_game(alice, bob, carol, timeouts_to_forfeit=1)
    gone = game.current_seat or 0

    run_out(game, clock)

    assert not game.is_over
    assert game.engine_state().dropped == (gone,)
    for _ in range(4):
        assert game.current_seat != gone
        with clock.at(clock.now + timedelta(seconds=1)):
            services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    clock_info = game_context(game, alice)["clock"]
    assert clock_info.seat(gone).dropped


def test_the_round_and_its_scores_follow_a_forfeit(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob, timeouts_to_forfeit=1, games_in_round=2)
    gone = game.current_seat or 0

    run_out(game, clock)

    table = Table.objects.get(pk=game.table_id)
    results = Result.objects.current().of_table(table)
    assert results.count() == 2
    assert results.wins(table)[1 - gone] == 1
    assert results.totals(table)[gone] < 0
    second = current_game(table)
    assert (second.number, second.is_over) == (2, False)
    # A forfeit is of one game: the player is dealt in again and counts from nought.
    assert seat_row(game, gone).timeouts_in_a_row == 0
    assert second.engine_state().dropped == ()


@pytest.mark.usefixtures("test_bots")
def test_a_bot_takes_the_seat_when_the_table_says_so(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    game, clock = new_game(alice, bob, timeouts_to_forfeit=2, on_forfeit="bot")
    gone = game.current_seat or 0
    gone_user = user_at(game, gone)
    stays = user_at(game, 1 - gone)

    run_out(game, clock)
    with clock.at(clock.now + timedelta(seconds=1)):
        services.draw(game.pk, stays, game.version)
    game.refresh_from_db()
    run_out(game, clock)

    seat = seat_row(game, gone)
    assert (seat.kind, seat.bot_level, seat.user, seat.replaced_user) == (
        "bot",
        "normal",
        None,
        gone_user,
    )
    assert seat.occupant_name == f"Bot (normal) for {gone_user}"
    assert not game.is_over
    # The bot plays the seat's next turn by itself, after the remaining player's move.
    with (
        clock.at(clock.now + timedelta(seconds=1)),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.draw(game.pk, stays, game.version)
    game.refresh_from_db()
    assert game.current_seat == 1 - gone
    last = game.moves.order_by("-seq").first()
    assert last is not None and (last.seat, last.by) == (gone, Move.By.BOT)
    assert not Game.objects.your_move(gone_user).exists()


# --- resigning -------------------------------------------------------------------------


def test_a_player_resigns_on_their_turn_and_the_other_wins(alice: User, bob: User) -> None:
    game, clock = new_game(alice, bob)
    mover = user_at(game, game.current_seat or 0)

    with clock.at(T0 + timedelta(seconds=3)):
        resign(game.pk, mover)

    game.refresh_from_db()
    move = game.moves.get()
    assert (move.by, move.user, move.action) == (Move.By.USER, mover, {"type": "resign"})
    assert game.outcome is not None
    assert game.outcome["termination"] == "resignation"
    assert winner_of(game) == 1 - move.seat


def test_a_player_may_resign_while_another_is_to_move(alice: User, bob: User, carol: User) -> None:
    game, clock = new_game(alice, bob, carol)
    waiting = next(s for s in range(3) if s != game.current_seat)
    deadline = game.turn_deadline

    with clock.at(T0 + timedelta(seconds=3)):
        resign(game.pk, user_at(game, waiting))

    game.refresh_from_db()
    assert (game.turn_number, game.turn_deadline, game.version) == (1, deadline, 1)
    assert game.engine_state().dropped == (waiting,)
    with pytest.raises(InvalidMove, match="already left"):
        resign(game.pk, user_at(game, waiting))


def test_outsiders_cannot_resign_and_a_finished_game_cannot_be_resigned(
    alice: User, bob: User, carol: User
) -> None:
    game, _ = new_game(alice, bob)

    with pytest.raises(NotSeated):
        resign(game.pk, carol)
    resign(game.pk, alice)
    with pytest.raises(GameFinished):
        resign(game.pk, bob)
