"""A member's vacation counted against the allowance of each league season they play,
and the deadlines of their fixtures extended for it.

The games app plans vacations and stops the member's correspondence clocks with them
(:func:`games.services.vacations.plan_vacation`); it calls :func:`check_allowance`,
named by the ``GAMES_VACATION_POLICY`` setting, under the member's lock, so two
requests at once cannot both fit in what is left of a season's allowance.

A fixture's deadline follows its players' vacations (:func:`extend_for_vacations`, on
:data:`games.signals.vacation_changed`): where the season's house rules say so
(``vacations_extend``), it is extended by the most days any of its players is away
during its matchday, at most the matchday's length (``Fixture.vacation_days``). Where
they do not, the fixture keeps its deadline, and the matchday's close preview names the
players who were away (:func:`leagues.services.deadlines.vacation_warnings`).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from games.models import Table
from leagues.models import Entry, Fixture, Matchday, Season
from leagues.selectors.vacations import days_away, days_within, running_period, season_vacations
from leagues.services.deadlines import UNFINISHED, audited, matchday_ends, notify_players
from leagues.services.locks import lock_fixture
from leagues.signals import announce, fixtures_changed

VACATION = "A player's vacation during the matchday."
FIXTURES_PER_CHANGE = 50
"""The most fixtures one change of a member's vacations extends (a member plays a
fixture a matchday in each season: far fewer)."""


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


def _entries_of(user_id: int) -> Q:
    return Q(user_id=user_id, substitute__isnull=True) | Q(substitute_id=user_id)


def extend_for_vacations(user_id: int) -> list[int]:
    """The member's vacations changed: each of their unfinished fixtures, of a matchday
    not yet closed in a running season whose house rules let vacations extend fixtures,
    is due as its players' vacations now say. Returns the fixtures whose deadline moved."""
    fixtures = (
        Fixture.objects.filter(
            status__in=UNFINISHED,
            matchday__status__in=(Matchday.Status.OPEN, Matchday.Status.SCHEDULED),
            matchday__season__status=Season.Status.RUNNING,
            matchday__season__vacations_extend=True,
            seats__entry__in=Entry.objects.filter(_entries_of(user_id)),
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    return [pk for pk in list(fixtures[:FIXTURES_PER_CHANGE]) if _extend(pk)]


def _extend(fixture_id: int) -> bool:
    with transaction.atomic(), audited(VACATION, None):
        # Season, matchday, then fixture: the order closing a season locks them in.
        held = lock_fixture(fixture_id)
        matchday, fixture = held.matchday, held.fixture
        if matchday.status == Matchday.Status.CLOSED or fixture.status not in UNFINISHED:
            return False
        days = min(max(days_away(fixture).values(), default=0), matchday.season.matchday_days)
        if days == fixture.vacation_days:
            return False
        fixture.vacation_days = days
        fixture.save(update_fields=["vacation_days"])
        if fixture.table is not None and fixture.table.status == Table.Status.PLAYING:
            due = fixture.due_at
            notify_players(
                fixture,
                matchday_ends(fixture, due)
                + " for your fixture: its deadline follows its players' vacations.",
                due,
                key=f"league-vacation:fixture-{fixture.pk}",
            )
        announce(
            fixtures_changed,
            Fixture,
            matchday.season_id,
            matchday_id=matchday.pk,
            fixture_ids=[fixture.pk],
        )
    return True
