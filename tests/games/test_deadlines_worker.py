"""A real Celery worker on real Redis and PostgreSQL enforces deadlines end to end: the
turn's own task at its deadline (queued by the sweep before it, as beat's would), and
the sweep for a turn whose task was lost."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import services, tasks
from games.models import Game, Move
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.games.conftest import current_game
from tests.games.test_worker import main_worker, queues
from tests.games.workers import Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.serial]

__all__ = ["main_worker", "queues"]  # fixtures shared with test_worker


def timeouts(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game, by=Move.By.TIMEOUT).order_by("seq"))


def test_a_worker_ends_a_turn_at_its_deadline(alice: User, bob: User, main_worker: Worker) -> None:
    table = services.create_table(
        alice, TableSettings(turn_seconds=10), [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)]
    )
    game = current_game(table)
    deadline = game.turn_deadline
    assert deadline is not None
    # No beat runs here: its sweep, a few seconds before the deadline, queues the task.
    wait_for(lambda: deadline - timezone.now() < timedelta(seconds=5), seconds=15)
    tasks.sweep_expired_turns.delay()

    wait_for(lambda: bool(timeouts(game)), seconds=40)

    move = timeouts(game)[0]
    assert (move.turn_number, move.seat) == (1, game.starting_seat)
    late = move.created_at - deadline
    assert timedelta(0) <= late < timedelta(seconds=5)
    game.refresh_from_db()
    assert game.turn_number >= 2
    assert game.replay_state() == game.engine_state()


def test_the_sweep_in_a_worker_ends_a_turn_whose_task_was_lost(
    alice: User, bob: User, main_worker: Worker
) -> None:
    # A correspondence turn a day long: no task is queued for it when it starts.
    table = services.create_table(
        alice,
        TableSettings(clock="correspondence", turn_seconds=86400),
        [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)],
    )
    game = current_game(table)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=5))

    tasks.sweep_expired_turns.delay()

    wait_for(lambda: bool(timeouts(game)), seconds=40)
    game.refresh_from_db()
    assert game.turn_number == 2
    assert len(timeouts(game)) == 1
