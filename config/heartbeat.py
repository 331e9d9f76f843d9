"""Workers' heartbeats: each Celery worker says, every few seconds, which queues it serves.

The readiness probe (:mod:`config.probes`) and the metrics (:mod:`config.metrics`) ask
whether every queue of the site (``CELERY_TASK_QUEUES``) has a worker alive. Celery's
own answers do not fit: its event heartbeats are off (the workers start
``--without-heartbeat``, see :func:`config.runstack.worker_command`), and a ``ping``
broadcast to every worker on every probe would cost each of them a message.

So a bootstep of the worker's consumer (:class:`Heartbeat`) writes, on the consumer's
own timer, the time into one sorted set per queue in the broker's Redis, keyed by the
worker's name. The consumer's timer runs in the loop that takes tasks: a worker whose
loop is stuck stops beating, which a thread of its own would hide. A worker stopped
gracefully takes its name out at once; one killed outright ages out after
:func:`stale_after` seconds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

import redis
from celery import bootsteps
from django.conf import settings

logger = logging.getLogger(__name__)

KEY = "worker-heartbeat:{queue}"
"""The sorted set of a queue's workers (names scored by their last beat, Unix time)."""


def interval() -> float:
    return float(settings.WORKER_HEARTBEAT_SECONDS)


def stale_after() -> float:
    """A beat older than this is no worker: three beats missed."""
    return 3 * interval()


def site_queues() -> list[str]:
    """The queues of the site, as the settings name them (prefix included)."""
    return [queue.name for queue in settings.CELERY_TASK_QUEUES]


def _client() -> redis.Redis:
    # Short timeouts: the beat runs in the worker's consumer loop, which must not wait
    # long on a Redis that is away (the worker's own connection notices that anyway).
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def beat(queues: Iterable[str], worker: str, now: float | None = None) -> None:
    """Say that ``worker`` serves ``queues`` at ``now``; forget workers long gone."""
    now = time.time() if now is None else now
    with _client() as client, client.pipeline(transaction=False) as pipe:
        for queue in queues:
            key = KEY.format(queue=queue)
            pipe.zadd(key, {worker: now})
            pipe.zremrangebyscore(key, "-inf", now - 10 * stale_after())
            # The set goes with its last worker, a while after its beats stop.
            pipe.expire(key, int(10 * stale_after()) + 1)
        pipe.execute()


def forget(queues: Iterable[str], worker: str) -> None:
    """``worker`` stops: it serves none of ``queues`` any more."""
    with _client() as client, client.pipeline(transaction=False) as pipe:
        for queue in queues:
            pipe.zrem(KEY.format(queue=queue), worker)
        pipe.execute()


def youngest_beats(queues: Iterable[str]) -> dict[str, float | None]:
    """For each queue, the age in seconds of its freshest worker's beat (``None``: no
    worker ever beat, or all are forgotten)."""
    queues = list(queues)
    with _client() as client, client.pipeline(transaction=False) as pipe:
        for queue in queues:
            pipe.zrevrange(KEY.format(queue=queue), 0, 0, withscores=True)
        answers = pipe.execute()
    now = time.time()
    return {
        queue: (max(0.0, now - float(found[0][1])) if found else None)
        for queue, found in zip(queues, answers, strict=True)
    }


def queues_without_workers() -> list[str]:
    """The site's queues that no worker has beaten for within :func:`stale_after`."""
    ages = youngest_beats(site_queues())
    return [queue for queue, age in ages.items() if age is None or age > stale_after()]


class Heartbeat(bootsteps.StartStopStep):
    """The consumer's bootstep that beats for the queues this worker consumes from."""

    # After the task consumer: the queues it consumes from are known by then.
    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, consumer: Any, **kwargs: Any) -> None:
        self.timer_entry: Any = None
        self.queues: list[str] = []
        self.worker = ""

    def start(self, consumer: Any) -> None:
        self.queues = sorted(consumer.app.amqp.queues.consume_from)
        self.worker = str(consumer.hostname)
        self._beat()
        self.timer_entry = consumer.timer.call_repeatedly(interval(), self._beat)

    def stop(self, consumer: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
        if self.worker:
            try:
                forget(self.queues, self.worker)
            except redis.RedisError:
                logger.warning("heartbeat: could not take %s out (Redis away)", self.worker)

    shutdown = stop

    def _beat(self) -> None:
        try:
            beat(self.queues, self.worker)
        except redis.RedisError as error:
            # The next beat tries again; meanwhile the probe may see the worker go stale,
            # which is true: a worker without Redis takes no task either.
            logger.warning("heartbeat: Redis cannot be reached (%s)", error)
