"""Times of a member's day (the hour of their digest, their quiet hours) as instants, on
the days the clocks change too.

A time of day names an instant only with a date and a zone, and not always one: on the
spring day the hour the clocks skip names none, on the autumn day the hour they repeat
names two. Here a time of day on a date is the first instant at which the clocks there
read it or later (:func:`instant_at`): the repeated hour's first pass, and for a skipped
time the jump itself. So a digest due at 02:00 on the day Berlin skips from 02:00 to
03:00 comes at 03:00 CEST, once, and on the day it repeats 02:00-03:00, at the first
02:00 only.

Pure functions of the standard library: the callers bring the zone and the moment.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo


def wall(moment: datetime, zone: tzinfo) -> datetime:
    """What the clocks in ``zone`` read at ``moment`` (naive)."""
    return moment.astimezone(zone).replace(tzinfo=None, fold=0)


def instant_at(day: date, at: time, zone: tzinfo) -> datetime:
    """The first instant (UTC) at which the clocks in ``zone`` read ``at`` or later on ``day``.

    >>> from zoneinfo import ZoneInfo
    >>> berlin = ZoneInfo("Europe/Berlin")
    >>> instant_at(date(2026, 3, 28), time(2), berlin).isoformat()
    '2026-03-28T01:00:00+00:00'

    The clocks skip 02:00-03:00 on 29 March: 02:00 and 02:30 are both the jump.

    >>> instant_at(date(2026, 3, 29), time(2), berlin).isoformat()
    '2026-03-29T01:00:00+00:00'
    >>> instant_at(date(2026, 3, 29), time(2, 30), berlin).isoformat()
    '2026-03-29T01:00:00+00:00'

    They repeat 02:00-03:00 on 25 October: its first pass, in summer time.

    >>> instant_at(date(2026, 10, 25), time(2, 30), berlin).isoformat()
    '2026-10-25T00:30:00+00:00'
    """
    naive = datetime.combine(day, at)
    early = naive.replace(tzinfo=zone).astimezone(UTC)  # fold=0: the first pass
    if wall(early, zone) == naive:
        return early
    # Skipped: read with the offset after the jump the time falls before it, with the
    # offset before the jump after it; the jump lies between (bisected to the second).
    low = int(naive.replace(tzinfo=zone, fold=1).timestamp())
    high = int(early.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        if wall(datetime.fromtimestamp(middle, UTC), zone) >= naive:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


def latest_at(now: datetime, at: time, zone: tzinfo) -> tuple[date, datetime]:
    """The last date of ``zone`` whose ``at`` has come by ``now``, and that instant.

    >>> from zoneinfo import ZoneInfo
    >>> day, moment = latest_at(datetime(2026, 12, 7, 6, 59, tzinfo=UTC), time(8),
    ...                         ZoneInfo("Europe/Berlin"))
    >>> day.isoformat(), moment.isoformat()
    ('2026-12-06', '2026-12-06T07:00:00+00:00')
    """
    day = wall(now, zone).date()
    moment = instant_at(day, at, zone)
    if moment > now:
        day -= timedelta(days=1)
        moment = instant_at(day, at, zone)
    return day, moment


def within(local: time, start: time, end: time) -> bool:
    """Whether the time of day ``local`` lies in ``start``-``end`` (``end`` not included),
    a span that may run past midnight.

    >>> within(time(23), time(22), time(7)), within(time(6, 59), time(22), time(7))
    (True, True)
    >>> within(time(7), time(22), time(7)), within(time(12), time(9), time(17))
    (False, True)
    """
    if start <= end:
        return start <= local < end
    return local >= start or local < end


def next_reading(now: datetime, at: time, zone: tzinfo) -> datetime:
    """The first instant after ``now`` at which the clocks in ``zone`` reach ``at``: both
    passes of a repeated hour count (the clocks read 02:30 twice), and a skipped time is
    reached at the jump.

    >>> from zoneinfo import ZoneInfo
    >>> berlin = ZoneInfo("Europe/Berlin")
    >>> next_reading(datetime(2026, 10, 25, 0, 45, tzinfo=UTC), time(2, 30), berlin).isoformat()
    '2026-10-25T01:30:00+00:00'
    """
    today = wall(now, zone).date()
    candidates = []
    for day in (today, today + timedelta(days=1), today + timedelta(days=2)):
        first = instant_at(day, at, zone)
        naive = datetime.combine(day, at)
        second = naive.replace(tzinfo=zone, fold=1).astimezone(UTC)
        candidates.append(first)
        if second != first and wall(second, zone) == naive:
            candidates.append(second)
    return min(moment for moment in candidates if moment > now)
