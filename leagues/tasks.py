"""The season's beat job: reminders before matchday deadlines, settling after them.

:func:`run_seasons` runs every ``GAMES_SWEEP_SECONDS`` (``CELERY_BEAT_SCHEDULE``). It
takes no arguments and finds its work in the database (``Matchday.deadline``,
``Fixture.deadline``, ``Matchday.reminded_at``), so a run that is lost or late is made
good by the next, and two runs at once share the work: each matchday is locked with
``SKIP LOCKED`` by the run that serves it, and whatever was done already (a reminder
sent, a fixture settled, a matchday closed) is found done and not done again.

The steps of a season that come at a moment (registration closing, the season
starting, a matchday opening) belong here too, each a step of :func:`run_seasons`
calling its service for what is due; and a season whose close an organiser announced is
closed when that moment comes (:func:`leagues.services.season_end.close_announced_season`:
its final standings, the next season proposed with promotion and relegation). Closing a
season's last matchday never closes the season: that waits for the organiser's
confirmation or the announced close, so a late dispute can still be settled.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db.models import DurationField, ExpressionWrapper, F, Q, Value
from django.utils import timezone

from games.services import TableError
from leagues.errors import LeaguesError
from leagues.models import Matchday, Season
from leagues.services.deadlines import (
    REMINDER_SHARE,
    SHORTEST_REMINDER,
    UNFINISHED,
    close_due_matchday,
    remind_matchday,
    reminder_window,
)
from leagues.services.matchdays import open_matchday
from leagues.services.season_end import close_announced_season
from leagues.services.season_start import mark_start_failed, start_season
from leagues.services.seasons import NOT_STARTED

logger = logging.getLogger(__name__)

# Matchdays served per step and run: a backlog is worked off over a few runs rather
# than in one that outlives its time limit.
BATCH = 50


@shared_task(ignore_result=True)
def run_seasons() -> None:
    """Close registrations, start seasons and open matchdays whose time has come; send
    the reminders that are due and settle what is past its deadline; close the seasons
    whose announced close has come, proposing the next."""
    now = timezone.now()
    close_due_registrations(now)
    start_due_seasons(now)
    open_due_matchdays(now)
    send_due_reminders(now)
    close_due_matchdays(now)
    close_announced_seasons(now)


def close_due_registrations(now: datetime) -> int:
    """Close the registration of seasons past their ``registration_closes_at``."""
    due = Season.objects.filter(status=Season.Status.REGISTRATION, registration_closes_at__lte=now)
    return due.update(status=Season.Status.READY)


def start_due_seasons(now: datetime) -> list[int]:
    """Start the seasons past their ``starts_at``, the longest due first, at most
    ``LEAGUES_STARTS_PER_RUN`` a run (the rest are the next run's). One that cannot start
    (nobody registered, a division too small) is marked with the reason and left to its
    organisers, who are told: it is not tried again, so seasons that can never start do
    not hold the places of those that can."""
    due = Season.objects.filter(
        status__in=NOT_STARTED, starts_at__lte=now, start_failed_at__isnull=True
    ).order_by("starts_at", "pk")
    started = []
    for season in due.select_related("league__club")[: starts_per_run()]:
        try:
            start_season(season, None, reason="the season's start time")
        except LeaguesError as error:
            failure = error.message
        except TableError as error:
            failure = f"A fixture's table could not be set up: {error.message}"
        else:
            started.append(season.pk)
            continue
        logger.warning("season %s: not started at its start time: %s", season.pk, failure)
        mark_start_failed(season, failure, now)
    return started


def starts_per_run() -> int:
    """``LEAGUES_STARTS_PER_RUN``: seasons one run tries to start (10)."""
    return int(getattr(settings, "LEAGUES_STARTS_PER_RUN", 10))


def open_due_matchdays(now: datetime) -> list[int]:
    """Open the scheduled matchdays of running seasons whose time has come. One that
    cannot open rests for ``LEAGUES_RETRY_MINUTES`` before it is tried again, so that
    matchdays failing every run do not hold the places of those behind them."""
    resting = _resting(OPENING, now)
    due = (
        Matchday.objects.filter(
            status=Matchday.Status.SCHEDULED,
            opens_at__lte=now,
            season__status=Season.Status.RUNNING,
        )
        .exclude(pk__in=resting)
        .order_by("opens_at", "pk")
    )
    opened = []
    for matchday in due[:BATCH]:
        try:
            open_matchday(matchday)
        except (LeaguesError, TableError):
            logger.warning("matchday %s: not opened", matchday.pk, exc_info=True)
            _rest(OPENING, matchday.pk, now)
        else:
            opened.append(matchday.pk)
    return opened


OPENING = "leagues:resting:open-matchday"
"""The cache's key of the matchdays resting after a failed opening: {id: until}."""


def retry_minutes() -> int:
    """``LEAGUES_RETRY_MINUTES``: how long a matchday that could not open rests (15)."""
    return int(getattr(settings, "LEAGUES_RETRY_MINUTES", 15))


def _resting(key: str, now: datetime) -> list[int]:
    """The ids resting under ``key`` at ``now``. Kept in the cache: were it lost, each
    would only be tried once more."""
    until: dict[int, float] = cache.get(key) or {}
    return [pk for pk, moment in until.items() if moment > now.timestamp()]


def _rest(key: str, pk: int, now: datetime) -> None:
    """Rest ``pk`` under ``key`` for ``LEAGUES_RETRY_MINUTES``. Two runs at once may each
    write their own: a matchday then lost from the list is tried once more, no harm."""
    until: dict[int, float] = cache.get(key) or {}
    moment = now.timestamp()
    until = {other: later for other, later in until.items() if later > moment}
    until[pk] = moment + retry_minutes() * 60
    cache.set(key, until, timeout=retry_minutes() * 60)


def send_due_reminders(now: datetime) -> int:
    """Remind the players of matchdays whose reminder is due (:func:`reminder_lead`: a
    quarter of the matchday before its deadline, at most ``LEAGUES_REMINDER_HOURS``);
    returns how many."""
    quarter = ExpressionWrapper(
        (F("deadline") - F("opens_at")) / REMINDER_SHARE, output_field=DurationField()
    )
    due = (
        Matchday.objects.annotate(remind_until=Value(now) + quarter)
        .filter(
            status=Matchday.Status.OPEN,
            reminded_at=None,
            deadline__lte=now + reminder_window(),
            # Three quarters of it have passed, and its quarter is long enough to remind.
            deadline__gte=F("opens_at") + SHORTEST_REMINDER * REMINDER_SHARE,
        )
        .filter(deadline__lte=F("remind_until"))
        .order_by("deadline")
    )
    ids = list(due.values_list("pk", flat=True)[:BATCH])
    return sum(remind_matchday(pk, now, wait=False) for pk in ids)


def close_due_matchdays(now: datetime) -> list[int]:
    """Settle the fixtures past their deadline and close the matchdays past theirs;
    returns the matchdays served."""
    overdue_fixture = Q(fixtures__status__in=UNFINISHED, fixtures__deadline__isnull=False) & Q(
        fixtures__deadline__lte=now
    )
    due = (
        Matchday.objects.filter(status=Matchday.Status.OPEN)
        .filter(Q(deadline__lte=now) | overdue_fixture)
        .order_by("deadline")
        .values_list("pk", flat=True)
        .distinct()
    )
    served = []
    for pk in list(due[:BATCH]):
        try:
            if close_due_matchday(pk, now) is not None:
                served.append(pk)
        except TableError:
            # A round that kept moving under the stop; the next run tries again.
            logger.warning("matchday %s: a fixture could not be settled yet", pk, exc_info=True)
    return served


def close_announced_seasons(now: datetime) -> list[int]:
    """Close the running seasons whose announced close has come; returns them. A season
    whose last matchday closed waits for its organiser's confirmation or its announced
    close: the beat job never closes one on its own account. A second run finds them
    finished (``close_season`` locks the season and refuses a season no longer under
    way), so two runs at once close each once."""
    due = Season.objects.filter(status=Season.Status.RUNNING, closes_at__lte=now)
    closed = []
    for pk in list(due.order_by("closes_at", "pk").values_list("pk", flat=True)[:BATCH]):
        try:
            close_announced_season(pk, now)
        except LeaguesError:
            continue
        closed.append(pk)
    return closed
