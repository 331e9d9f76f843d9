"""A league's seasons before they start: opening one, and its registration.

An organiser opens a season (it copies the league's house rules); club members register
and unregister until it starts; when the league wants approval an organiser approves or
declines each registration; an organiser closes registration or opens it again. The
season's start is :mod:`leagues.services.season_start`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pghistory
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from leagues.conf import ensure_may_take_part
from leagues.errors import Conflict, NotAllowed
from leagues.models import Club, Entry, League, Season
from leagues.notices import LeagueNotice
from leagues.permissions import ensure_staff
from leagues.selectors.roles import is_member
from leagues.services import bounds
from notifications.services import notices

NOT_STARTED = (Season.Status.REGISTRATION, Season.Status.READY)
TAKING_PART = (Entry.Status.PENDING, Entry.Status.REGISTERED)


def season_path(season: Season) -> str:
    """The season's page."""
    league = season.league
    return reverse(
        "leagues:season",
        kwargs={"club": league.club.slug, "league": league.slug, "number": season.number},
    )


def open_season(
    league: League,
    by: Any,
    registration_closes_at: datetime | None = None,
    starts_at: datetime | None = None,
) -> Season:
    """The league's next season, taking registrations, with the league's house rules as
    they are now. Raises :class:`LeaguesError` while a season is unfinished, or past the
    club's cap of seasons not finished (``LEAGUES_OPEN_SEASONS_PER_CLUB``)."""
    ensure_staff(by, league)
    try:
        with transaction.atomic(), pghistory.context(user=by.pk):
            # The club's and the league's rows are locked so that two organisers opening
            # a season at once are served in turn: the second finds the first's season
            # unfinished, or counts it against the club's cap of open seasons.
            club = Club.objects.select_for_update().get(pk=league.club_id)
            League.objects.select_for_update().get(pk=league.pk)
            if league.seasons.exclude(status=Season.Status.FINISHED).exists():
                raise Conflict("The league's current season must finish before a new one opens.")
            bounds.check_new_season(club)
            previous = league.seasons.filter(status=Season.Status.FINISHED).first()
            number = (league.seasons.aggregate(last=Max("number"))["last"] or 0) + 1
            season = Season.objects.create(
                league=league,
                number=number,
                previous=previous,
                registration_closes_at=registration_closes_at,
                starts_at=starts_at,
                **league.house_rules(),
            )
            _announce_registration(season, by)
            return season
    except IntegrityError:
        raise Conflict("The league's current season must finish before a new one opens.") from None


def _announce_registration(season: Season, by: Any) -> None:
    """Tell the club's members (but the organiser who opened it) that they may register."""
    members = season.league.club.memberships.exclude(user=by).values_list("user_id", flat=True)
    for user_id in members:
        notices.create(
            user_id,
            LeagueNotice.LEAGUE_SEASON,
            f"{season} is open for registration.",
            season_path(season),
            subject=season,
            key=f"league-season-{season.pk}-registration",
        )


def register(season: Season, user: Any) -> Entry:
    """``user`` (a club member) registers for ``season``: at once, or awaiting an
    organiser's approval when the league wants it. Raises :class:`LeaguesError`, and
    :class:`NotAllowed` for a member suspended from the club or the site."""
    if not is_member(season.league.club, user):
        raise NotAllowed("Only the club's members may register.")
    ensure_may_take_part(user, season.league.club_id, "register")
    with transaction.atomic(), pghistory.context(user=user.pk):
        locked = _locked(season)
        if not _registration_open(locked):
            raise Conflict("Registration for this season is closed.")
        status = Entry.Status.PENDING if locked.registration_approval else Entry.Status.REGISTERED
        entry, created = Entry.objects.get_or_create(
            season=locked, user=user, defaults={"status": status}
        )
        if created:
            return entry
        if entry.status in TAKING_PART:
            raise Conflict("You are registered already.")
        if entry.status == Entry.Status.DECLINED:
            raise Conflict("An organiser declined your registration for this season.")
        entry.status, entry.withdrawn_at = status, None
        entry.save(update_fields=["status", "withdrawn_at"])
        return entry


def unregister(season: Season, user: Any) -> Entry:
    """``user`` takes back their registration, before the season starts."""
    with transaction.atomic(), pghistory.context(user=user.pk):
        locked = _locked(season)
        if locked.status not in NOT_STARTED:
            raise Conflict("The season has started: a player withdraws instead.")
        entry = _entry(locked, user.pk, TAKING_PART, "You are not registered.")
        entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        return entry


def decide(season: Season, by: Any, user_id: int, approve: bool) -> Entry:
    """An organiser approves or declines a pending registration; the player is told."""
    with transaction.atomic(), pghistory.context(user=by.pk):
        locked = _organised_before_start(season, by)
        entry = _entry(
            locked, user_id, (Entry.Status.PENDING,), "No registration awaits a decision."
        )
        entry.status = Entry.Status.REGISTERED if approve else Entry.Status.DECLINED
        entry.save(update_fields=["status"])
        verdict = "approved" if approve else "declined"
        notices.create(
            user_id,
            LeagueNotice.LEAGUE_SEASON,
            f"Your registration for {locked} was {verdict}.",
            season_path(locked),
            subject=locked,
        )
        return entry


def set_registration(season: Season, by: Any, is_open: bool) -> Season:
    """An organiser closes registration, or opens it again, before the season starts."""
    with transaction.atomic(), pghistory.context(user=by.pk):
        locked = _organised_before_start(season, by)
        locked.status = Season.Status.REGISTRATION if is_open else Season.Status.READY
        if (
            is_open
            and locked.registration_closes_at
            and locked.registration_closes_at <= timezone.now()
        ):
            locked.registration_closes_at = None  # opened by hand: no longer closed by date
        locked.save(update_fields=["status", "registration_closes_at"])
        return locked


def _locked(season: Season) -> Season:
    """The season's row, locked: registrations and the start are served one at a time,
    so nobody registers into a season that is starting."""
    return (
        Season.objects.select_for_update(of=("self",))
        .select_related("league__club")
        .get(pk=season.pk)
    )


def _organised_before_start(season: Season, by: Any) -> Season:
    """The season's row, locked, for an organiser's change to its registration."""
    ensure_staff(by, season)
    locked = _locked(season)
    if locked.status not in NOT_STARTED:
        raise Conflict("The season has started.")
    return locked


def _registration_open(season: Season) -> bool:
    closes = season.registration_closes_at
    return season.status == Season.Status.REGISTRATION and (
        closes is None or closes > timezone.now()
    )


def _entry(season: Season, user_id: int, statuses: tuple[str, ...], missing: str) -> Entry:
    # The season's row is locked: its entries change one request at a time.
    entry = Entry.objects.filter(season=season, user_id=user_id).first()
    if entry is None or entry.status not in statuses:
        raise Conflict(missing)
    return entry
