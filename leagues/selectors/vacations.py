"""Vacations as a league counts them: the days a season's players take of its allowance,
and who is away now.

A season's allowance (``Season.vacation_days``) is spent by the vacation time that falls
within the season's running period - from its start to its end, or while it runs to its
last matchday's deadline - each vacation counting its days or parts of days there. The
vacations themselves are the games app's (:class:`games.models.Vacation`): they stop
every correspondence clock of the member, the league's fixtures' among them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from games.models import Vacation
from games.selectors.vacations import DAY, GRACE
from leagues.models import Entry, Fixture, Season


@dataclass(frozen=True)
class SeasonVacation:
    """A player's vacations within one season: days used of the allowance, and the end
    of the vacation they are on now (``None``: not away)."""

    used: int
    allowance: int
    away_until: datetime | None

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)


def running_period(season: Season) -> tuple[datetime, datetime | None] | None:
    """When ``season`` runs: from its start to its end (``None``: no end in sight);
    ``None`` for a season that has not started."""
    if season.started_at is None:
        return None
    if season.finished_at is not None:
        return season.started_at, season.finished_at
    last_deadline: datetime | None = season.matchdays.aggregate(last=Max("deadline"))["last"]
    return season.started_at, last_deadline


def days_within(
    starts_at: datetime, ends_at: datetime, period: tuple[datetime, datetime | None]
) -> int:
    """Days of the vacation ``[starts_at, ends_at)`` within ``period``: each day or part
    of one; 0 when they do not meet.

    >>> from datetime import datetime, timezone
    >>> at = lambda day, hour=0: datetime(2025, 5, day, hour, tzinfo=timezone.utc)
    >>> days_within(at(1), at(10), (at(8, 12), None))
    2
    >>> days_within(at(1), at(3), (at(8), at(20)))
    0
    """
    start = max(starts_at, period[0])
    end = ends_at if period[1] is None else min(ends_at, period[1])
    return math.ceil((end - start) / DAY) if end > start else 0


def season_vacations(
    season: Season, user_ids: Iterable[int], now: datetime | None = None
) -> dict[int, SeasonVacation]:
    """Each of ``user_ids``' vacations within ``season``, read in one query."""
    now = now or timezone.now()
    ids = list(user_ids)
    period = running_period(season)
    used = dict.fromkeys(ids, 0)
    away: dict[int, datetime] = {}
    vacations = Vacation.objects.filter(user_id__in=ids)
    if period is not None:
        vacations = vacations.filter(ends_at__gt=min(period[0], now))
    else:
        vacations = vacations.filter(ends_at__gt=now)
    for user_id, starts_at, ends_at in vacations.values_list("user_id", "starts_at", "ends_at"):
        if period is not None:
            used[user_id] += days_within(starts_at, ends_at, period)
        if starts_at <= now < ends_at:
            away[user_id] = ends_at
    return {
        user_id: SeasonVacation(used[user_id], season.vacation_days, away.get(user_id))
        for user_id in ids
    }


def days_away(fixture: Fixture) -> Counter[User]:
    """Each of the fixture's players away during its matchday: the days, each day or
    part of one between its opening and its deadline before any extension."""
    matchday = fixture.matchday
    period = (matchday.opens_at, fixture.deadline or matchday.deadline)
    players = {
        seat.entry.player.pk: seat.entry.player
        for seat in fixture.seats.select_related("entry__user", "entry__substitute")
        if seat.entry.status != Entry.Status.WITHDRAWN
    }
    away: Counter[User] = Counter()
    vacations = Vacation.objects.filter(
        user_id__in=players, starts_at__lt=period[1], ends_at__gt=period[0]
    )
    for user_id, starts_at, ends_at in vacations.values_list("user_id", "starts_at", "ends_at"):
        if ends_at - starts_at >= GRACE:  # one ended at once takes no day, as in games
            away[players[user_id]] += days_within(starts_at, ends_at, period)
    return away
