"""A real Celery worker process plays a bot's turn that a committed move scheduled."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from accounts.models import User
from games import services
from games.models import Game, Move
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.games.conftest import current_game, seat_starts
from tests.games.workers import Worker, new_prefix, use_queues, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.serial]


@pytest.fixture
def queues() -> Iterator[str]:
    """Queue names of this test's own; the test's tasks go there, not run eagerly."""
    prefix = new_prefix()
    with use_queues(prefix):
        yield prefix


@contextmanager
def running(worker: Worker) -> Iterator[Worker]:
    try:
        yield worker
    finally:
        worker.stop()
        print(worker.text())  # shown when the test fails


@pytest.fixture
def main_worker(queues: str, tmp_path: Path) -> Iterator[Worker]:
    """A worker on the test database serving the "main" queue: clocks, sweeps, mail."""
    with running(Worker(queues, "main", tmp_path / "main-worker.log")) as worker:
        yield worker


@pytest.fixture
def bots_worker(queues: str, tmp_path: Path) -> Iterator[Worker]:
    """A worker on the test database serving the "bots" queue."""
    with running(Worker(queues, "bots", tmp_path / "bots-worker.log")) as worker:
        yield worker


def test_a_worker_plays_the_bots_turn_after_a_players_move(
    alice: User, bots_worker: Worker
) -> None:
    with seat_starts(1):
        table = services.create_table(
            alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.bot("easy")]
        )
    game = current_game(table)
    # The first turn is the bot's: the worker plays it from the start's schedule.
    wait_for(lambda: Game.objects.get(pk=game.pk).current_seat == 0)
    game.refresh_from_db()

    services.draw(game.pk, alice, game.version)

    wait_for(lambda: Game.objects.get(pk=game.pk).current_seat == 0)
    game.refresh_from_db()
    last = game.moves.order_by("-seq").first()
    assert last is not None and (last.seat, last.by) == (1, Move.By.BOT)
    assert game.replay_state() == game.engine_state()
