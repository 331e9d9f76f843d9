"""Beat on every node: one sends, the others stand by and take over once the sender's lock
lapses; a beat survives Redis losing its schedule and lock. Real Redis, real schedulers
(config.beat.LockedScheduler), a schedule and queue names of the test's own."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from config import runstack
from config.beat import LockedScheduler
from config.celery_app import app as celery_app
from tests.games.workers import new_prefix, use_queues

pytestmark = pytest.mark.serial

LOCK_SECONDS = 1
PROBE = "tests.beat_probe"
"""A task no worker knows: beat sends it by name, and it waits in the queue, counted."""


@pytest.fixture
def queue() -> Iterator[str]:
    """The test's own queue (beat sends there) and redbeat keys; its name."""
    prefix = new_prefix()
    conf = celery_app.conf
    saved = conf.beat_schedule, conf.redbeat_key_prefix
    conf.beat_schedule = {"probe": {"task": PROBE, "schedule": 0.2}}
    conf.redbeat_key_prefix = f"{prefix}redbeat:"
    try:
        with use_queues(prefix):
            yield prefix + settings.CELERY_TASK_DEFAULT_QUEUE
    finally:
        conf.beat_schedule, conf.redbeat_key_prefix = saved
        # celery-redbeat reads its settings once per app: the next test reads them afresh.
        del celery_app.redbeat_conf


@pytest.fixture
def server() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        yield client
    finally:
        client.close()


def beat() -> LockedScheduler:
    return LockedScheduler(celery_app, lock_timeout=LOCK_SECONDS)


def sent(server: redis.Redis, queue: str) -> int:
    return int(server.llen(queue))


def tick_after(seconds: float, *beats: LockedScheduler) -> None:
    time.sleep(seconds)
    for each in beats:
        each.tick()


def test_one_beat_sends_while_another_stands_by(queue: str, server: redis.Redis) -> None:
    sender, standby = beat(), beat()

    tick_after(0, sender, standby)
    for _ in range(3):
        tick_after(0.25, sender, standby)

    assert sender.lock.owned() and not standby.lock.owned()
    assert sent(server, queue) == 3  # the probe's three runs, each sent once


def test_a_standby_beat_takes_over_once_the_lock_of_a_killed_one_lapses(
    queue: str, server: redis.Redis
) -> None:
    killed, standby = beat(), beat()
    tick_after(0, killed, standby)
    tick_after(0.25, killed, standby)
    assert sent(server, queue) == 1

    # ``killed`` ticks no more and gives nothing back, as a process killed outright.
    tick_after(0.5, standby)
    assert not standby.lock.owned() and sent(server, queue) == 1
    tick_after(LOCK_SECONDS, standby)

    assert standby.lock.owned()
    assert sent(server, queue) == 2  # the probe was due: sent at once


def test_a_beat_stopped_gracefully_hands_over_at_once(queue: str, server: redis.Redis) -> None:
    stopped, standby = beat(), beat()
    tick_after(0, stopped, standby)

    stopped.close()
    tick_after(0, standby)

    assert standby.lock.owned()


def test_a_beat_carries_on_after_redis_loses_its_schedule_and_lock(
    queue: str, server: redis.Redis
) -> None:
    sender = beat()
    tick_after(0, sender)
    prefix = celery_app.conf.redbeat_key_prefix
    keys = list(server.scan_iter(match=f"{prefix}*"))
    assert keys

    server.delete(*keys)  # as a Redis restarted empty
    for _ in range(4):
        tick_after(0.25, sender)

    assert sender.lock.owned()
    assert server.exists(f"{prefix}:statics")
    assert sent(server, queue) >= 1


def test_every_node_runs_a_beat_behind_the_lock() -> None:
    assert settings.CELERY_BEAT_SCHEDULER == "config.beat.LockedScheduler"
    # The sender renews the lock every second at least; a standby takes it within seconds.
    assert settings.CELERY_BEAT_MAX_LOOP_INTERVAL == 1
    assert settings.CELERY_REDBEAT_LOCK_TIMEOUT <= settings.GAMES_SWEEP_SECONDS
    # Sites (and test runs) sharing a Redis database have a lock and schedule each.
    prefix = settings.CELERY_TASK_DEFAULT_QUEUE.removesuffix("main")
    assert f"{prefix}redbeat:" == settings.CELERY_REDBEAT_KEY_PREFIX
    # `make run` starts beat as docs/operating.md says, with nothing kept on disk.
    assert runstack.beat_command()[-3:] == ["beat", "--loglevel", "INFO"]


def test_the_scheduler_reads_redbeats_settings_under_the_celery_namespace() -> None:
    scheduler = LockedScheduler(celery_app)
    try:
        conf = celery_app.redbeat_conf
        assert conf.redis_url == settings.CELERY_REDBEAT_REDIS_URL
        assert conf.redbeat_redis_options == settings.CELERY_REDBEAT_REDIS_OPTIONS
        assert scheduler.lock_timeout == settings.CELERY_REDBEAT_LOCK_TIMEOUT
        assert scheduler.max_interval == settings.CELERY_BEAT_MAX_LOOP_INTERVAL
    finally:
        del celery_app.redbeat_conf
