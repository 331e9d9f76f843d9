"""A member's vacation counted against the allowance of each league season they play.

The games app plans vacations and stops the member's correspondence clocks with them
(:func:`games.services.vacations.plan_vacation`); it calls :func:`check_allowance`,
named by the ``GAMES_VACATION_POLICY`` setting, under the member's lock, so two
requests at once cannot both fit in what is left of a season's allowance.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from accounts.models import User
from leagues.models import Entry, Season
from leagues.selectors.vacations import days_within, running_period, season_vacations


def check_allowance(user: User, starts_at: datetime, ends_at: datetime) -> str | None:
    """``None`` if a vacation ``[starts_at, ends_at)`` fits in the allowance of every
    running season ``user`` plays; else the sentence that refuses it."""
    seasons = Season.objects.filter(
        status=Season.Status.RUNNING,
        entries__in=Entry.objects.filter(
            Q(user=user, substitute__isnull=True) | Q(substitute=user),
            status=Entry.Status.REGISTERED,
        ),
    ).select_related("league")
    for season in seasons:
        period = running_period(season)
        wanted = days_within(starts_at, ends_at, period) if period is not None else 0
        if not wanted:
            continue
        left = season_vacations(season, [user.pk])[user.pk].left
        if wanted > left:
            return (
                f"That vacation would take {_days(wanted)} of {season}, where you have "
                f"{_days(left)} left of the season's {_days(season.vacation_days)}."
            )
    return None


def _days(count: int) -> str:
    return f"{count} vacation day{'' if count == 1 else 's'}"
