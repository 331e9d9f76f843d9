"""A real Celery worker process plays a bot's turn that a committed move scheduled."""

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from accounts.models import User
from config.celery_app import app as celery_app
from games import services
from games.models import Game, Move
from games.services import SeatPlan
from tests.browser.conftest import database_url
from tests.games.conftest import current_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker_queue(tmp_path: Path) -> Iterator[str]:
    """A worker on the test database, listening to a queue of its own."""
    queue = f"test-games-{uuid.uuid4().hex[:12]}"
    log = (tmp_path / "worker.log").open("w")
    command = [
        *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker"),
        *("--queues", queue, "--pool", "solo", "--loglevel", "INFO"),
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
    ]
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict)}
    worker = subprocess.Popen(
        command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        yield queue
    finally:
        celery_app.conf.task_default_queue = "celery"
        worker.terminate()
        worker.wait(timeout=30)
        # The turn clock's tasks the worker held go back to the queue: nobody wants them.
        server = redis.Redis.from_url(settings.REDIS_URL)
        server.delete(queue, *server.keys(f"_kombu.binding*.{queue}"))
        log.close()
        print((tmp_path / "worker.log").read_text())  # shown when the test fails


def wait_for(condition: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError("the worker did not do it in time")


def test_a_worker_plays_the_bots_turn_after_a_players_move(alice: User, worker_queue: str) -> None:
    table = services.create_table(alice, [SeatPlan.taken_by(alice), SeatPlan.bot("easy")])
    game = current_game(table)
    if game.current_seat == 1:
        # The first turn was the bot's: the worker plays it from the start's schedule.
        wait_for(lambda: Game.objects.get(pk=game.pk).current_seat == 0)
        game.refresh_from_db()

    services.draw(game.pk, alice, game.version)

    wait_for(lambda: Game.objects.get(pk=game.pk).current_seat == 0)
    game.refresh_from_db()
    last = game.moves.order_by("-seq").first()
    assert last is not None and (last.seat, last.by) == (1, Move.By.BOT)
    assert game.replay_state() == game.engine_state()
