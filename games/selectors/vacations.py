"""A member's vacations as the vacation page reads them: this year's allowance, what is
left of it, the vacation in progress and the planned ones (written by
:mod:`games.services.vacations`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from accounts.models import User
from games.conf import vacation_days_per_year
from games.models import Vacation

DAY = timedelta(days=1)
GRACE = timedelta(hours=1)
"""A vacation ended this soon after it began takes no day from the allowance, and stops
no clock (:func:`games.services.clock.pauses_of`): it is as if it had never been."""


@dataclass(frozen=True)
class VacationInfo:
    """A vacation as its member sees it."""

    id: int
    starts_at: datetime
    ends_at: datetime
    days: int
    is_current: bool
    is_planned: bool


@dataclass(frozen=True)
class VacationSummary:
    """What the vacation page shows: this year's allowance, and the vacations to come."""

    year: int
    allowance: int
    used: int
    current: VacationInfo | None
    planned: tuple[VacationInfo, ...]

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)


def days_counted(starts_at: datetime, ends_at: datetime) -> int:
    """Days a vacation takes from the allowance: each day or part of one, except that a
    vacation ended within :data:`GRACE` of its start takes none (planned by mistake, or
    the member came back at once: their clocks barely stood still).

    >>> from datetime import datetime, timezone
    >>> days_counted(datetime(2025, 5, 1, 9, tzinfo=timezone.utc),
    ...              datetime(2025, 5, 3, 10, tzinfo=timezone.utc))
    3
    >>> days_counted(datetime(2025, 5, 1, 9, tzinfo=timezone.utc),
    ...              datetime(2025, 5, 1, 9, 1, tzinfo=timezone.utc))
    0
    """
    if ends_at - starts_at < GRACE:
        return 0
    return math.ceil((ends_at - starts_at) / DAY)


def days_used(user: User, year: int) -> int:
    """Vacation days of ``user`` that count against ``year`` (planned ones included)."""
    tz = timezone.get_current_timezone()
    vacations = Vacation.objects.filter(user=user).values_list("starts_at", "ends_at")
    return sum(
        days_counted(starts, ends)
        for starts, ends in vacations
        if timezone.localtime(starts, tz).year == year
    )


def vacation_summary(user: User, now: datetime | None = None) -> VacationSummary:
    """This year's allowance and what is left of it, the vacation in progress and the
    planned ones."""
    now = now or timezone.now()
    year = timezone.localtime(now).year
    coming = [
        _info(vacation, now) for vacation in Vacation.objects.filter(user=user, ends_at__gt=now)
    ]
    return VacationSummary(
        year=year,
        allowance=vacation_days_per_year(),
        used=days_used(user, year),
        current=next((v for v in coming if v.is_current), None),
        planned=tuple(v for v in coming if v.is_planned),
    )


def current_vacation(user_id: int, now: datetime | None = None) -> Vacation | None:
    """The member's vacation in progress, if any."""
    now = now or timezone.now()
    return Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).first()


def _info(vacation: Vacation, now: datetime) -> VacationInfo:
    return VacationInfo(
        id=vacation.pk,
        starts_at=vacation.starts_at,
        ends_at=vacation.ends_at,
        days=days_counted(vacation.starts_at, vacation.ends_at),
        is_current=vacation.starts_at <= now < vacation.ends_at,
        is_planned=vacation.starts_at > now,
    )
