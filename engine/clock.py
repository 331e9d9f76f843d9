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

A correspondence table may also pause on weekends (OGS's ``pause_on_weekends``): the
clock stands still from Saturday 00:00 to Monday 00:00 *in the zone of the player whose
turn it is* (:func:`weekends`). Weekends are pauses like vacations and join them where
they overlap, so a turn is allowed the same time counted outside both, whichever comes
first. A weekend is the local calendar's, so it lasts 47 or 49 hours when the clocks
change inside it, and a day that has no midnight (a change at 00:00) starts when it does.

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
from datetime import UTC, date, datetime, time, timedelta, tzinfo
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
    weekend_pause: bool = False
    """The clock stands still at weekends in the mover's zone (correspondence only)."""

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
    zone: tzinfo | None = None,
) -> TurnClock:
    """The clock of a turn that starts at ``started_at``.

    ``pauses`` (vacations) only count for correspondence; a live clock never stops.
    ``zone`` is the mover's, whose weekends stop the clock when the table pauses on
    weekends (none do if no zone is given: a bot has no weekend).

    >>> from datetime import datetime, timezone
    >>> start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> clock = turn_clock(TimeControl("live", 60, bank_seconds=30), start, bank_left=20)
    >>> (clock.deadline - start).total_seconds(), (clock.reminder_at - start).total_seconds()
    (80.0, 60.0)
    """
    stops = list(pauses) if control.is_correspondence else []
    weekend_zone = weekend_zone_of(control, zone)
    allowance = control.allowance(bank_left)
    return TurnClock(
        started_at=started_at,
        deadline=instant_after(started_at, allowance, stops, weekend_zone),
        reminder_at=instant_after(
            started_at, allowance * (1 - REMINDER_SHARE), stops, weekend_zone
        ),
    )


def weekend_zone_of(control: TimeControl, zone: tzinfo | None) -> tzinfo | None:
    """The zone whose weekends stop a turn's clock under ``control`` (``None``: none do)."""
    if not (control.is_correspondence and control.weekend_pause):
        return None
    return zone


def weekends(zone: tzinfo, start: datetime, end: datetime) -> list[Pause]:
    """The weekends in ``zone`` (Saturday 00:00 to Monday 00:00 there) that overlap
    ``[start, end]``, in order, as UTC instants.

    A weekend across a change of the clocks is 47 or 49 hours long; a midnight that does
    not exist (a change at 00:00) is the moment the clocks jump, one that happens twice
    the first of them.

    >>> from zoneinfo import ZoneInfo
    >>> friday = datetime(2026, 10, 23, 12, tzinfo=UTC)
    >>> [(a.isoformat(), b - a) for a, b in weekends(ZoneInfo("Europe/London"), friday, friday)]
    []
    >>> [(a.isoformat(), b - a) for a, b in weekends(ZoneInfo("Europe/London"), friday, friday
    ...     + timedelta(days=2))]
    [('2026-10-23T23:00:00+00:00', datetime.timedelta(days=2, seconds=3600))]
    """
    first = start.astimezone(zone).date()
    saturday = first - timedelta(days=(first.weekday() - SATURDAY) % 7)
    found: list[Pause] = []
    while True:
        begins, ends = _midnight(saturday, zone), _midnight(saturday + timedelta(days=2), zone)
        if begins > end:
            return found
        if ends > start:
            found.append((begins, ends))
        saturday += timedelta(days=7)


SATURDAY = 5
"""``date.weekday()`` of a Saturday."""


def _midnight(day: date, zone: tzinfo) -> datetime:
    # fold=0: a midnight that happens twice is the first; one that does not exist is read
    # with the offset before the change, which is the instant the clocks jump.
    return datetime.combine(day, time(), tzinfo=zone).astimezone(UTC)


def instant_after(
    start: datetime,
    seconds: float,
    pauses: Iterable[Pause] = (),
    weekend_zone: tzinfo | None = None,
) -> datetime:
    """The moment when ``seconds`` of unpaused time have passed since ``start``: outside
    ``pauses`` (vacations) and, given a ``weekend_zone``, outside its weekends.

    The weekends that count are not known before the deadline is: the search adds those
    up to the deadline found so far until it no longer moves (each round adds at least a
    weekend, so it ends).

    >>> from zoneinfo import ZoneInfo
    >>> friday = datetime(2026, 10, 23, 20, tzinfo=ZoneInfo("Europe/London"))
    >>> instant_after(friday, 86400, weekend_zone=ZoneInfo("Europe/London")).astimezone(
    ...     ZoneInfo("Europe/London")).isoformat()
    '2026-10-26T20:00:00+00:00'

    >>> from datetime import datetime, timedelta, timezone
    >>> t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> hour = timedelta(hours=1)
    >>> instant_after(t0, 7200, [(t0 + hour, t0 + 3 * hour)]) - t0
    datetime.timedelta(seconds=14400)
    >>> instant_after(t0, 3600, [(t0 + hour, t0 + 3 * hour)]) - t0  # due as the pause begins
    datetime.timedelta(seconds=3600)
    """
    stops = merge_pauses(pauses)
    if weekend_zone is None:
        return _instant_after(start, seconds, stops)
    horizon = start
    while True:
        moment = _instant_after(start, seconds, [*stops, *weekends(weekend_zone, start, horizon)])
        if moment <= horizon:
            return moment
        horizon = moment


def _instant_after(start: datetime, seconds: float, pauses: Iterable[Pause]) -> datetime:
    # In UTC: adding to a datetime of a zone with daylight saving adds wall-clock time.
    moment, left = start.astimezone(UTC), timedelta(seconds=seconds)
    for pause_start, pause_end in merge_pauses(pauses):
        if pause_end <= moment:
            continue
        if pause_start > moment:
            if left <= pause_start - moment:
                break
            left -= pause_start - moment
        moment = pause_end
    return moment + left


def active_seconds(
    start: datetime,
    end: datetime,
    pauses: Iterable[Pause] = (),
    weekend_zone: tzinfo | None = None,
) -> float:
    """Seconds between ``start`` and ``end`` that no pause covers (nor, given a
    ``weekend_zone``, its weekends).

    >>> from datetime import datetime, timedelta, timezone
    >>> t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
    >>> hour = timedelta(hours=1)
    >>> active_seconds(t0, t0 + 5 * hour, [(t0 - hour, t0 + 2 * hour)])
    10800.0
    """
    if end <= start:
        return 0.0
    stops = list(pauses)
    if weekend_zone is not None:
        stops += weekends(weekend_zone, start, end)
    total = (end - start).total_seconds()
    for pause_start, pause_end in merge_pauses(stops):
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
