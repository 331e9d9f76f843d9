"""Deadlines enforced: the timeout path, its tasks, and the sweeps that catch lost ones."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from common.publish import publisher
from config.celery_app import app as celery_app
from games import services, tasks
from games.errors import GameActionError
from games.models import Game, Move
from games.services import RACK
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.positions import set_position

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], Any]]:
    """The clock's tasks queued for later, instead of running."""
    calls: list[tuple[str, tuple[Any, ...], Any]] = []

    def recorder(name: str) -> Any:
        return lambda args, eta=None: calls.append((name, tuple(args), eta))

    monkeypatch.setattr(tasks.expire_turn, "apply_async", recorder("expire_turn"))
    monkeypatch.setattr(tasks.remind_turn, "apply_async", recorder("remind_turn"))
    return calls


def live_game(alice: User, bob: User, **settings: Any) -> Game:
    with time_machine.travel(T0, tick=False):
        return current_game(start_table(alice, bob, **{"turn_seconds": 60, **settings}))


def mail_game(alice: User, bob: User, **settings: Any) -> Game:
    return live_game(alice, bob, clock="correspondence", turn_seconds=86400, **settings)


# --- the timeout ------------------------------------------------------------------------


def test_a_move_sent_after_the_deadline_is_refused_and_changes_nothing(
    alice: User, bob: User
) -> None:
    game = live_game(alice, bob)
    mover = user_at(game, game.current_seat or 0)
    state_before = game.state

    late = T0 + timedelta(seconds=60, milliseconds=1)
    with time_machine.travel(late, tick=False), pytest.raises(GameActionError) as refused:
        services.draw(game.pk, mover, game.version)

    assert refused.value.code == "time_up"
    assert "ran out" in refused.value.message
    game.refresh_from_db()
    assert (game.version, game.turn_number, game.state) == (0, 1, state_before)


def test_a_move_at_the_deadline_itself_still_counts(alice: User, bob: User) -> None:
    game = live_game(alice, bob)
    mover = user_at(game, game.current_seat or 0)

    with time_machine.travel(T0 + timedelta(seconds=60), tick=False):
        services.draw(game.pk, mover, game.version)

    assert Move.objects.get(game=game).by == Move.By.USER


def test_a_timed_out_turn_restores_the_table_and_draws_the_configured_penalty(
    alice: User, bob: User
) -> None:
    game = live_game(alice, bob, options={"failed_turn_penalty_draw": 2})
    set_position(game, [["R5", "R6", "R7"]], ["R8", "K1", "K2"])
    seat = game.current_seat or 0
    services.move_tiles(game.pk, user_at(game, seat), [("R8", RACK)], 0)

    with time_machine.travel(T0 + timedelta(seconds=61), tick=False):
        tasks.expire_turn.delay(game.pk, 1)

    game.refresh_from_db()
    state = game.engine_state()
    assert [[str(t) for t in s] for s in state.table] == [["R5", "R6", "R7"]]
    assert len(state.racks[seat]) == 5  # the three tiles and the two penalty tiles
    assert game.moves.get().action == {"type": "timeout", "changed": True}


def test_a_timed_out_turn_with_nothing_changed_draws_the_overtime_penalty(
    alice: User, bob: User
) -> None:
    game = live_game(alice, bob, options={"overtime_penalty_draw": 0})
    seat = game.current_seat or 0

    with time_machine.travel(T0 + timedelta(seconds=61), tick=False):
        services.time_out_turn(game.pk, 1)

    game.refresh_from_db()
    assert len(game.engine_state().racks[seat]) == 14
    assert (game.turn_number, game.current_seat) == (2, 1 - seat)


def test_a_timeout_pushes_the_new_state_to_everyone_after_commit(
    alice: User,
    bob: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    pushed: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(publisher, "publish", pushed.extend)
    game = live_game(alice, bob)
    late = user_at(game, game.current_seat or 0)
    next_up = bob if late == alice else alice

    with (
        time_machine.travel(T0 + timedelta(seconds=61), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.time_out_turn(game.pk, 1)

    # The game's watchers hear of the new version; the header of the player whose turn
    # ended and of the one now to move get their new counts, with the first game.
    assert pushed == [
        (f"game-{game.pk}", {"type": "game.changed", "version": 1}),
        (f"user-{late.pk}", {"type": "your_move.changed", "count": 0, "next": None}),
        (f"user-{next_up.pk}", {"type": "your_move.changed", "count": 1, "next": game.pk}),
    ]


def test_the_timeout_task_for_a_turn_that_ended_does_nothing_however_often_it_runs(
    alice: User, bob: User
) -> None:
    game = live_game(alice, bob)
    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        services.draw(game.pk, user_at(game, game.current_seat or 0), 0)

    with time_machine.travel(T0 + timedelta(days=1), tick=False):
        for _ in range(3):
            tasks.expire_turn.delay(game.pk, 1)
    # The second turn's clock ran out too by then: it ends once, as often as asked.
    with time_machine.travel(T0 + timedelta(days=1), tick=False):
        for _ in range(3):
            tasks.expire_turn.delay(game.pk, 2)

    game.refresh_from_db()
    assert [m.by for m in game.moves.all()] == [Move.By.USER, Move.By.TIMEOUT]
    assert game.turn_number == 3


# --- queueing the clock's tasks ---------------------------------------------------------


def test_a_600_second_live_turn_queues_no_task_at_its_start(
    alice: User, bob: User, queued: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = live_game(alice, bob, turn_seconds=600)

    with (
        time_machine.travel(T0 + timedelta(seconds=5), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.draw(game.pk, user_at(game, game.current_seat or 0), 0)

    game.refresh_from_db()
    assert game.turn_number == 2
    assert queued == []  # the sweep queues it as its deadline comes near


def test_the_sweep_queues_the_turn_due_before_the_next_sweep_once(
    alice: User, bob: User, queued: list[Any]
) -> None:
    game = live_game(alice, bob)
    assert game.turn_deadline is not None
    ahead = timedelta(seconds=1.5 * settings.GAMES_SWEEP_SECONDS)

    with time_machine.travel(game.turn_deadline - ahead - timedelta(seconds=1), tick=False):
        tasks.sweep_expired_turns.delay()
    assert queued == []  # not yet: the next sweep is due first
    with time_machine.travel(game.turn_deadline - ahead + timedelta(seconds=1), tick=False):
        tasks.sweep_expired_turns.delay()

    assert queued == [("expire_turn", (game.pk, 1), game.turn_deadline)]


def test_a_turn_ended_by_a_move_never_gets_a_timeout_task(
    alice: User, bob: User, queued: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = live_game(alice, bob)
    assert game.turn_deadline is not None
    first_deadline = game.turn_deadline

    with (
        time_machine.travel(T0 + timedelta(seconds=20), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.draw(game.pk, user_at(game, game.current_seat or 0), 0)
    # Sweeps up to the first turn's old deadline and past it: the turn is over.
    for seconds in range(25, 65, 5):
        with time_machine.travel(T0 + timedelta(seconds=seconds), tick=False):
            tasks.sweep_expired_turns.delay()

    assert first_deadline < T0 + timedelta(seconds=65)
    assert queued == []


def test_a_correspondence_turn_days_ahead_is_left_to_the_sweep_until_it_comes_near(
    alice: User, bob: User, queued: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    with (
        time_machine.travel(T0, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = mail_game(alice, bob)
    assert queued == []  # a day ahead: a Redis broker would hand it out again every hour

    with time_machine.travel(T0 + timedelta(hours=17, minutes=59, seconds=58), tick=False):
        tasks.sweep_turn_reminders.delay()
    with time_machine.travel(T0 + timedelta(hours=23, minutes=59, seconds=57), tick=False):
        assert tasks.sweep_expired_turns.delay().get() == 0

    assert queued == [
        ("remind_turn", (game.pk, 1), T0 + timedelta(hours=18)),
        ("expire_turn", (game.pk, 1), T0 + timedelta(days=1)),
    ]


# --- the sweeps -------------------------------------------------------------------------


def test_the_sweep_ends_a_turn_whose_task_was_lost_and_leaves_the_others(
    alice: User, bob: User, carol: User, queued: list[Any]
) -> None:
    lost = live_game(alice, bob)
    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        later = current_game(start_table(carol, bob, turn_seconds=60))

    with time_machine.travel(T0 + timedelta(seconds=62), tick=False):
        ended = tasks.sweep_expired_turns.delay().get()

    assert ended == 1
    lost.refresh_from_db()
    later.refresh_from_db()
    assert (lost.turn_number, lost.moves.get().by) == (2, Move.By.TIMEOUT)
    assert later.version == 0


def test_the_sweep_leaves_a_turn_its_own_task_is_about_to_end(
    alice: User, bob: User, queued: list[Any]
) -> None:
    game = live_game(alice, bob)

    with time_machine.travel(T0 + timedelta(seconds=60, milliseconds=500), tick=False):
        assert tasks.sweep_expired_turns.delay().get() == 0

    game.refresh_from_db()
    assert game.version == 0
    # At most its task again (a second one does nothing), never the turn ended here.
    assert queued in ([], [("expire_turn", (game.pk, 1), game.turn_deadline)])


def test_a_sweep_is_two_queries_when_nothing_is_due(alice: User, bob: User) -> None:
    live_game(alice, bob)
    mail_game(alice, User.objects.create(username="dora"))

    with (
        time_machine.travel(T0 + timedelta(seconds=10), tick=False),
        CaptureQueriesContext(connection) as queries,
    ):
        tasks.sweep_expired_turns.delay()
        tasks.sweep_turn_reminders.delay()

    # Per sweep: one for what is due, one for what comes due before the next sweep.
    assert len(queries) == 4
    assert all('"games_game"' in q["sql"] for q in queries)


def test_the_sweeps_run_from_celery_beat() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    names = {entry["task"] for entry in schedule.values()}

    assert {
        "games.tasks.sweep_expired_turns",
        "games.tasks.sweep_turn_reminders",
        "notifications.tasks.send_daily_digests",
    } <= names
    # The apps' task modules are found when a worker starts; a test run alone may not
    # have imported them yet.
    celery_app.loader.import_default_modules()
    assert names <= set(celery_app.tasks)
    sweep = next(e for e in schedule.values() if e["task"].endswith("sweep_expired_turns"))
    assert sweep["schedule"] == settings.GAMES_SWEEP_SECONDS


def test_the_deadline_index_serves_the_sweep() -> None:
    indexes = {index.name: index.fields for index in Game._meta.indexes}

    assert indexes["games_game_deadline_due"] == ["status", "turn_deadline"]
    assert indexes["games_game_reminder_due"] == ["status", "turn_reminder_at"]
