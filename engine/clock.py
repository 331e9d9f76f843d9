"""The turn clock, computed in one place: deadlines, reminders and the time bank.

Everything here is plain arithmetic on datetimes, with no database: games' services feed it
a table's :class:`TimeControl`, the seat's bank and the player's vacations, and store
what it returns on the game (``turn_deadline``, ``turn_reminder_at``).

A turn is allowed the table's time per turn plus what is left in the seat's time bank.
Time spent on vacation does not count (correspondence only): a deadline falls when the
allowance of *unpaused* time has run out, so a vacation that overlaps a turn pushes its
deadline back by exactly the overlap. When a turn ends, the time it did not use goes to
the bank and the time it used beyond the time per turn comes out of it; the bank never
holds more than the table's bank size (so nobody can hoard days to stall a game later)
and never less than nothing.

>>> from datetime import datetime, timedelta, timezone
>>> start = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)
>>> day = timedelta(days=1)
>>> control = TimeControl("correspondence", turn_seconds=86400, bank_seconds=0)
>>> clock = turn_clock(control, start, bank_left=0, pauses=[(start + day / 2, start + 3 * day)])
>>> clock.deadline - start, clock.reminder_at - start
(datetime.timedelta(days=3, seconds=43200), datetime.timedelta(days=3, seconds=21600))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

ClockKind = Literal["live", "correspondence"]
LIVE: ClockKind = "live"
CORRESPONDENCE: ClockKind = "correspondence"

HOUR = 3600
DAY = 24 * HOUR
LIVE_TURN_SECONDS = (30, 60, 120)
"""The live time controls a new table offers (seconds per turn)."""
CORRESPONDENCE_TURN_SECONDS = (12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY)
"""The correspondence time controls a new table offers (seconds per turn)."""

REMINDER_SHARE = 0.25
"""'Time is running out' is sent when this share of the turn's allowance is left."""

Pause = tuple[datetime, datetime]
"""A stretch of time, ``[start, end)``, during which a player's clock stands still."""


@dataclass(frozen=True)
class TimeControl:
    """How a table's turns are timed: live or by correspondence, the time per turn and
    the size of each seat's time bank (0: no bank)."""

    kind: ClockKind
    turn_seconds: int
    bank_seconds: int = 0

    @property
    def is_correspondence(self) -> bool:
        return self.kind == CORRESPONDENCE

    def allowance(self, bank_left: float) -> float:
        """Seconds a turn may last: the time per turn and what is left in the bank."""
        return self.turn_seconds + max(0.0, min(float(bank_left), float(self.bank_seconds)))


@dataclass(frozen=True)
class TurnClock:
    """When a turn started, when it must end, and when to warn that time is short."""

    started_at: datetime
    deadline: datetime
    reminder_at: datetime


def turn_clock(
    control: TimeControl,
    started_at: datetime,
    bank_left: float,
    pauses: Iterable[Pause] = (),
) -> TurnClock:
    """The clock of a turn that starts at ``started_at``.

    ``pauses`` (vacations) only count for correspondence; a live clock never stops.

    >>> from datetime import datetime, timezone
    >>> start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> clock = turn_clock(TimeControl("live", 60, bank_seconds=30), start, bank_left=20)
    >>> (clock.deadline - start).total_seconds(), (clock.reminder_at - start).total_seconds()
    (80.0, 60.0)
    """
    stops = list(pauses) if control.is_correspondence else []
    allowance = control.allowance(bank_left)
    return TurnClock(
        started_at=started_at,
        deadline=instant_after(started_at, allowance, stops),
        reminder_at=instant_after(started_at, allowance * (1 - REMINDER_SHARE), stops),
    )


def instant_after(start: datetime, seconds: float, pauses: Iterable[Pause] = ()) -> datetime:
    """The moment when ``seconds`` of unpaused time have passed since ``start``.

    >>> from datetime import datetime, timedelta, timezone
    >>> t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> hour = timedelta(hours=1)
    >>> instant_after(t0, 7200, [(t0 + hour, t0 + 3 * hour)]) - t0
    datetime.timedelta(seconds=14400)
    >>> instant_after(t0, 3600, [(t0 + hour, t0 + 3 * hour)]) - t0  # due as the pause begins
    datetime.timedelta(seconds=3600)
    """
    moment, left = start, timedelta(seconds=seconds)
    for pause_start, pause_end in merge_pauses(pauses):
        if pause_end <= moment:
            continue
        if pause_start > moment:
            if left <= pause_start - moment:
                break
            left -= pause_start - moment
        moment = pause_end
    return moment + left


def active_seconds(start: datetime, end: datetime, pauses: Iterable[Pause] = ()) -> float:
    """Seconds between ``start`` and ``end`` that no pause covers.

    >>> from datetime import datetime, timedelta, timezone
    >>> t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> hour = timedelta(hours=1)
    >>> active_seconds(t0, t0 + 5 * hour, [(t0 - hour, t0 + 2 * hour)])
    10800.0
    """
    if end <= start:
        return 0.0
    total = (end - start).total_seconds()
    for pause_start, pause_end in merge_pauses(pauses):
        overlap = (min(end, pause_end) - max(start, pause_start)).total_seconds()
        total -= max(0.0, overlap)
    return total


def bank_after_turn(control: TimeControl, bank_left: float, used_seconds: float) -> int:
    """The bank once a turn that used ``used_seconds`` is over (whole seconds, rounded
    down so that a bank never grows by a fraction nobody saw).

    >>> control = TimeControl("live", 60, bank_seconds=120)
    >>> bank_after_turn(control, 100, 15), bank_after_turn(control, 100, 90)
    (120, 70)
    >>> bank_after_turn(TimeControl("live", 60), 0, 10)
    0
    """
    if control.bank_seconds <= 0:
        return 0
    left = float(bank_left) + control.turn_seconds - float(used_seconds)
    return max(0, min(control.bank_seconds, math.floor(left)))


def merge_pauses(pauses: Iterable[Pause]) -> Sequence[Pause]:
    """Pauses in order, overlapping or touching ones joined, empty ones left out.

    >>> from datetime import datetime, timezone
    >>> d = [datetime(2025, 1, day, tzinfo=timezone.utc) for day in range(1, 6)]
    >>> [(a.day, b.day) for a, b in merge_pauses([(d[2], d[4]), (d[0], d[2]), (d[3], d[3])])]
    [(1, 5)]
    """
    merged: list[Pause] = []
    for pause_start, pause_end in sorted(p for p in pauses if p[1] > p[0]):
        if merged and pause_start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], pause_end))
        else:
            merged.append((pause_start, pause_end))
    return merged
