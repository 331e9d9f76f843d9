"""The sweeps: turns whose deadline (or reminder) is due, found in the database.

A turn's timeout (and reminder) task runs at its moment, and is queued by these sweeps
as the moment comes near (within :func:`look_ahead`), or when the turn starts if it is
that near already: nearly every turn ends by a move long before its deadline, so a task
queued at its start would only come, at the old deadline, to find the turn over (and
lock its game for nothing); and a correspondence task due days ahead cannot be queued
at all (a Redis broker would deliver it again every hour). A queued task can also be
lost (a worker stopped, the broker emptied). So Celery beat runs these sweeps every
``GAMES_SWEEP_SECONDS``, on every node behind a lock (``config/beat.py``):

* what is due is processed at once, game by game, each in its own transaction, passing
  over a game whose row another writer holds (``SKIP LOCKED``): that writer is ending
  the turn, or the next sweep comes back;
* what falls due before the next sweep, and was too far ahead to be queued when its
  turn started, gets its task queued for the exact moment. Two sweeps in a row look
  ahead over a common stretch, so a turn due in it may get two tasks: the turn number
  and the row lock make the second do nothing.

Each is one query on an index of ``(status, turn_deadline)`` (or ``turn_reminder_at``),
whatever the number of games in play. A turn is ended exactly once however many tasks
and sweeps reach it: the row lock and the turn number see to that.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F

from games.conf import sweep_seconds
from games.models import Game

SWEEP_LIMIT = 500
"""At most this many due games per sweep; the next sweep takes the rest."""
GRACE = timedelta(seconds=1)
"""A turn's own task normally ends it within this; the sweep leaves it that long."""


@dataclass(frozen=True)
class SweepResult:
    """What one sweep did: games processed (changed), passed over, and tasks queued."""

    due: int = 0
    done: int = 0
    queued: int = 0
    seconds: float = 0.0


def sweep_deadlines(
    process: Callable[[int, int], object],
    queue: Callable[[int, int, datetime], object],
    now: datetime,
) -> SweepResult:
    """End every turn past its deadline; queue the tasks of those due before the next
    sweep. ``process(game_id, turn_number)`` ends one turn (returns ``None`` if there was
    nothing to do); ``queue(game_id, turn_number, deadline)`` queues a task."""
    return _sweep("turn_deadline", process, queue, now)


def sweep_reminders(
    process: Callable[[int, int], object],
    queue: Callable[[int, int, datetime], object],
    now: datetime,
) -> SweepResult:
    """The same for the "time is running out" reminders (``turn_reminder_at``)."""
    return _sweep("turn_reminder_at", process, queue, now)


def _sweep(
    field: str,
    process: Callable[[int, int], object],
    queue: Callable[[int, int, datetime], object],
    now: datetime,
) -> SweepResult:
    started = time.perf_counter()
    due = list(
        Game.objects.filter(status=Game.Status.PLAYING, **{f"{field}__lte": now - GRACE})
        .order_by(field)
        .values_list("pk", "turn_number")[:SWEEP_LIMIT]
    )
    done = sum(1 for game_id, turn in due if process(game_id, turn) is not None)
    coming = _coming(now, field)
    for game_id, turn, moment in coming:
        queue(game_id, turn, moment)
    return SweepResult(len(due), done, len(coming), time.perf_counter() - started)


def look_ahead() -> timedelta:
    """How far ahead a sweep queues what falls due: one and a half times the time
    between sweeps, so that the next sweep, even a little late, finds it queued. A task
    due within it is queued at once wherever a moment is set (a turn's start, a
    reclock); anything later waits for a sweep."""
    return timedelta(seconds=1.5 * sweep_seconds())


def _coming(now: datetime, field: str) -> list[tuple[int, int, datetime]]:
    """Turns due before the next sweep whose task was too far ahead to queue when they
    started (those nearer had theirs queued then)."""
    ahead = look_ahead()
    rows = Game.objects.filter(
        status=Game.Status.PLAYING,
        **{f"{field}__gt": now - GRACE, f"{field}__lte": now + ahead},
        turn_started_at__lt=F(field) - ahead,
    ).values_list("pk", "turn_number", field)
    return list(rows)
