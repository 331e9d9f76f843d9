"""Games played through the services replay exactly from their move log."""

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine

from accounts.models import User
from engine.actions import Action
from engine.round import GameScores, Tally
from engine.state import GameState
from games import services, tasks
from games.models import Game, Result, Seat, Table
from games.models.table_settings import TableSettings
from games.selectors.replay import replay_frame
from games.services import SeatPlan
from games.services.rewinds import rewind
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.games.players import send, simple_action, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    def choose(state: GameState, seat: int, level: str, rng: random.Random) -> Action:
        return simple_action(state, seat, rng)

    monkeypatch.setattr("games.services.turns.choose_bot_action", choose)


def play_out(game: Game, rng: random.Random, timeout_every: int = 0, until: int = 0) -> Game:
    """Play every seat to the end (or, with ``until``, to that many moves): people by
    the services, bots by their task, and with ``timeout_every``, every so many moves a
    person's turn left to run out of time. Checks the replay along the way."""
    bots = set(
        Seat.objects.filter(table_id=game.table_id, kind=Seat.Kind.BOT).values_list(
            "number", flat=True
        )
    )
    for _ in range(3000):
        game.refresh_from_db()
        if game.is_over or (until and game.version >= until):
            return game
        if game.version % 20 == 0:
            assert game.replay_state() == game.engine_state()
        seat = game.current_seat
        assert seat is not None and game.turn_deadline is not None
        if seat in bots:
            tasks.play_bot_turn.delay(game.pk, game.turn_number)
        elif timeout_every and game.version % timeout_every == 1:
            with time_machine.travel(game.turn_deadline + timedelta(seconds=1), tick=False):
                tasks.expire_turn.delay(game.pk, game.turn_number)
        else:
            send(game, user_at(game, seat), simple_action(game.engine_state(), seat, rng))
    raise AssertionError("the game did not end")


def seated_table(plans: list[str], **settings: Any) -> tuple[Table, list[User]]:
    users = [UserFactory() for plan in plans if plan == "person"]
    people = iter(users)
    seats = [
        SeatPlan.taken_by(next(people)) if plan == "person" else SeatPlan.bot(plan)
        for plan in plans
    ]
    return services.create_table(users[0], TableSettings(**settings), seats), users


@pytest.mark.parametrize(
    ("seed", "plans", "settings"),
    [
        (1, ["person", "person"], {}),
        (2, ["person", "easy", "person"], {"options": {"draw_mode": "river"}}),
        (3, ["person", "normal", "strong", "person"], {"preset": "keadle_house"}),
        (4, ["person", "easy"], {"options": {"pool_empty_end": "one_more_round"}}),
        (5, ["person", "person", "easy"], {"preset": "classic_locked"}),
    ],
)
def test_a_played_game_replays_exactly_from_its_move_log(
    seed: int, plans: list[str], settings: dict[str, Any]
) -> None:
    table, _ = seated_table(plans, games_in_round=1, **settings)
    game = play_out(current_game(table), random.Random(seed), timeout_every=11)

    state = game.engine_state()
    assert state.is_over
    assert game.replay_state() == state
    assert game.version == game.moves.count() == game.moves.last().seq  # type: ignore[union-attr]
    assert {m.by for m in game.moves.all()} >= {"user", "timeout"}
    assert {m.action["type"] for m in game.moves.all()} >= {"play", "draw", "timeout"}
    assert [m.seq for m in game.moves.order_by("seq")] == list(range(1, game.version + 1))


def test_a_game_replays_exactly_across_its_rewinds() -> None:
    table, _ = seated_table(["person", "person", "person"], games_in_round=1)
    rng = random.Random(8)
    game = play_out(current_game(table), rng, until=14)
    for back in (3, 2):
        played = game.engine_state()
        game = rewind(game.pk, game.turn_number - back)
        state = game.engine_state()
        assert state == game.replay_state()
        assert state.pool != played.pool
        game = play_out(game, rng, until=game.version + 10)
    game = play_out(game, rng)

    assert game.replay_state() == game.engine_state()
    assert [m.action["type"] for m in game.moves.all()].count("rewind") == 2
    last = replay_frame(game, 10_000)
    assert last.outcome == game.engine_state().outcome


def test_a_round_plays_its_games_in_turn_and_ends_with_standings() -> None:
    table, _ = seated_table(
        ["person", "easy", "person"], games_in_round=3, options={"pool_empty_end": "immediate"}
    )
    rng = random.Random(7)

    for number in (1, 2, 3):
        game = current_game(table)
        assert game.number == number
        play_out(game, rng)
        assert game.replay_state() == game.engine_state()

    table.refresh_from_db()
    games = list(table.games.order_by("number"))
    assert [g.status for g in games] == ["finished"] * 3
    assert table.status == Table.Status.FINISHED and table.finished_at is not None
    # Each later game starts with the next seat; the seeds are the round's.
    first = games[0].starting_seat
    assert [g.starting_seat for g in games] == [first, (first + 1) % 3, (first + 2) % 3]
    assert [g.start_drawn for g in games] == [True, False, False]
    assert len({g.seed for g in games}) == 3
    # One played result row per game and seat; the round adds them up by the rules.
    results = Result.objects.current().of_table(table)
    assert results.filter(source=Result.Source.PLAYED).count() == 9
    expected = Tally.of(
        "zero_sum",
        3,
        [GameScores(tuple(g.outcome["scores"]), g.outcome["winner"]) for g in games],  # type: ignore[index]
    )
    assert results.totals(table) == expected.totals
    assert results.standings(table) == expected.standings
    assert results.winner(table) == expected.winner


def test_the_next_game_of_a_round_starts_on_its_own_clock(
    alice: User, bob: User, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = services.create_table(
        alice,
        TableSettings(games_in_round=2, options={"pool_empty_end": "immediate"}),
        [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)],
    )
    first = current_game(table)
    scheduled: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.expire_turn, "apply_async", lambda a, **kw: scheduled.append(a))
    while True:
        first.refresh_from_db()
        assert first.current_seat is not None
        with django_capture_on_commit_callbacks(execute=True):
            services.draw(first.pk, user_at(first, first.current_seat), first.version)
        first.refresh_from_db()
        if first.is_over:
            break

    second = current_game(table)
    assert second.number == 2
    assert scheduled[-1] == (second.pk, 1)


@pytest.mark.parametrize("options", [{}, {"draw_mode": "river"}])
def test_a_game_with_the_real_bots_replays_exactly(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.undo()  # the engine's own bots (engine.bots), not the test player
    table, _ = seated_table(
        ["person", "easy", "normal", "strong"], games_in_round=1, options=options
    )

    game = play_out(current_game(table), random.Random(9), timeout_every=17)

    assert game.replay_state() == game.engine_state()
    bot_moves = game.moves.filter(by="bot")
    assert {m.seat for m in bot_moves} == {1, 2, 3}
    assert "play" in {m.action["type"] for m in bot_moves}
