"""A turn whose timeout task a worker had reserved when it died: Redis holds the task
among its unacknowledged messages and hands it out again only after its visibility
timeout (an hour). The next sweep ends the turn; the task, delivered again at last,
does nothing. Real Redis (the broker), real PostgreSQL."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
import redis
import time_machine
from django.conf import settings
from kombu import Connection

from accounts.models import User
from config.celery_app import app as celery_app
from games import tasks
from games.models import Game, Move
from tests.games.conftest import current_game, start_table
from tests.games.test_deadlines import T0
from tests.games.workers import new_prefix, use_queues

pytestmark = [pytest.mark.django_db, pytest.mark.serial]


@pytest.fixture
def queue() -> Iterator[str]:
    """The test's own "main" queue on the real broker (tasks are sent, not run)."""
    prefix = new_prefix()
    try:
        with use_queues(prefix):
            yield prefix + settings.CELERY_TASK_DEFAULT_QUEUE
    finally:
        _forget_held(prefix)


def _forget_held(prefix: str) -> None:
    """Nobody serves the test's queue: what Redis holds aside for it is dropped."""
    server = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        for tag, raw in server.hgetall("unacked").items():
            if json.loads(raw)[2].startswith(prefix):  # [message, exchange, routing key]
                server.hdel("unacked", tag)
                server.zrem("unacked_index", tag)
    finally:
        server.close()


def reserve_and_die(queue: str) -> str:
    """Take the next task from ``queue`` as a worker does (unacknowledged, so Redis keeps
    it aside until its visibility timeout) and drop the connection without giving it
    back, as a worker killed outright does; returns the task's delivery tag."""
    with Connection(settings.CELERY_BROKER_URL) as connection:
        channel = connection.default_channel
        message = channel.basic_get(queue, no_ack=False)
        assert message is not None
        # A killed worker never puts back what it held (a stopped one would).
        channel.do_restore = False
        return str(message.delivery_tag)


def held_task(tag: str) -> list[object]:
    """The arguments of the task Redis holds aside under ``tag`` (``[]``: none)."""
    server = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        raw = server.hget("unacked", tag)
    finally:
        server.close()
    if raw is None:
        return []
    message = json.loads(raw)[0]
    assert message["properties"]["body_encoding"] == "base64"
    args: list[object] = json.loads(base64.b64decode(message["body"]))[0]
    return args


def test_the_sweep_ends_a_turn_whose_task_a_dead_worker_had_reserved(
    alice: User, bob: User, queue: str
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=60))
    assert game.turn_deadline is not None
    # As the sweep before the deadline queues it.
    with time_machine.travel(game.turn_deadline - timedelta(seconds=5), tick=False):
        assert tasks.queue_expiry(game.pk, 1, game.turn_deadline)
    tag = reserve_and_die(queue)
    assert held_task(tag) == [game.pk, 1]  # out of the queue, no worker can take it

    with time_machine.travel(game.turn_deadline + timedelta(seconds=2), tick=False):
        ended = tasks.sweep_expired_turns()

    assert ended == 1
    game.refresh_from_db()
    assert game.turn_number == 2
    # An hour later Redis hands the task out again: the turn has moved on, so it does
    # nothing, and the turn was ended once.
    with time_machine.travel(T0 + timedelta(hours=1, minutes=1), tick=False):
        celery_app.tasks[tasks.expire_turn.name](*held_task(tag))
    timeouts = Move.objects.filter(game=game, by=Move.By.TIMEOUT)
    assert list(timeouts.values_list("turn_number", flat=True)) == [1]
    assert Game.objects.get(pk=game.pk).turn_number == 2
