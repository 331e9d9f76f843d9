"""Celery beat on every node, behind a lock in Redis: one beat sends, the others stand by.

Beat sends the sweeps that end turns whose timeout task was lost (a worker killed while
it held the task, see :mod:`games.services.sweeps`), so a single beat is a single point
of failure for deadlines. Every node therefore runs a beat (``CELERY_BEAT_SCHEDULER``
names :class:`LockedScheduler`); celery-redbeat keeps the schedule and its last runs in
Redis, where every beat reads them, and a lock there lets one beat send. The lock lapses
``CELERY_REDBEAT_LOCK_TIMEOUT`` seconds after its holder last renewed it (each tick, at
least every ``CELERY_BEAT_MAX_INTERVAL``), and a standby beat tries to take it at each of
its own ticks: a beat killed outright is replaced within those few seconds; one stopped
gracefully gives the lock back at once.

celery-redbeat's own scheduler waits for the lock once, at start, and then stops with an
error when the lock goes away under it (Redis restarted empty, or a beat stalled past
the timeout) or when Redis cannot be reached; and a Redis restarted empty loses the
schedule with the lock, after which it would send nothing. This scheduler takes the
lock at its ticks instead, puts the schedule back when Redis lost it, and waits out an
unreachable Redis, so that a beat, holder or standby, survives all three. Two beats
sending together for a moment (the lost lock taken by another while the first carries on
with its tick) double nothing: every periodic job locks its rows and checks them again.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery
from celery.signals import beat_init
from redbeat.schedulers import (
    LUA_EXTEND_TO_SCRIPT,
    RedBeatScheduler,
    acquire_distributed_beat_lock,
    get_redis,
)
from redis.exceptions import LockNotOwnedError, RedisError
from redis.lock import Lock

logger = logging.getLogger(__name__)

# celery-redbeat's blocking wait for the lock at start: this scheduler takes it at its ticks.
beat_init.disconnect(acquire_distributed_beat_lock)


REDBEAT_SETTINGS = (
    "redbeat_redis_url",
    "redbeat_redis_options",
    "redbeat_key_prefix",
    "redbeat_lock_timeout",
)


class LockedScheduler(RedBeatScheduler):  # type: ignore[misc]
    """celery-redbeat's scheduler, taking (and retaking) the lock at each tick."""

    lock: Lock | None = None

    def __init__(self, app: Celery, *args: Any, **kwargs: Any) -> None:
        # celery-redbeat looks for its settings under their own names; Django's CELERY_
        # namespace hides them (CELERY_REDBEAT_REDIS_URL), and it would warn and leave
        # the Redis options out.
        named = {name: app.conf.get(name) for name in REDBEAT_SETTINGS}
        app.conf.update({name: value for name, value in named.items() if value is not None})
        super().__init__(app, *args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        """Send what is due if this beat holds the lock; return the seconds to wait."""
        try:
            if not self._hold_lock():
                return float(self.max_interval)
            self._restore_lost_schedule()
            # Renews the lock, then sends what is due.
            return float(super().tick(*args, **kwargs))
        except LockNotOwnedError:
            logger.warning(
                "beat: lost the lock (Redis restarted, or this beat stalled past %s s); "
                "standing by",
                self.lock_timeout,
            )
            if self.lock is not None:
                self.lock.local.token = None
        except RedisError as error:
            logger.warning("beat: Redis cannot be reached (%s); trying again", error)
        return float(self.max_interval)

    def _hold_lock(self) -> bool:
        """Whether this beat holds the lock (or has just taken it)."""
        lock = self.lock
        if lock is None:
            client = get_redis(self.app)
            lock = self.lock = client.lock(self.lock_key, timeout=self.lock_timeout)
            # celery-redbeat's renewal sets the lock's time left, not adds to it.
            lock.lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)
        if lock.local.token is not None:
            return True
        if not lock.acquire(blocking=False):
            return False
        logger.info("beat: took the lock; this beat sends the periodic tasks")
        return True

    def _restore_lost_schedule(self) -> None:
        """Put the schedule back in Redis when Redis lost it (restarted empty): without
        its entries nothing would ever be due again."""
        if not get_redis(self.app).exists(self.app.redbeat_conf.statics_key):
            logger.warning("beat: the schedule was gone from Redis; stored again")
            self.setup_schedule()
