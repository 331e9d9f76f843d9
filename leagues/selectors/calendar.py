"""A member's calendar feed (iCalendar): their fixtures and the registration deadlines
of their clubs' seasons, for a calendar app to subscribe to.

Each fixture of a season the member is playing is two short events, not a block over
the whole matchday that would fill the member's week: its deadline, the half hour that
ends at it ("Winter league: matchday 2 vs Bob, Carol"), and its matchday's opening
("Winter league: matchday 2 opens"), each leading to its table (or, before the matchday
opens, to the member's league page). Each season of the member's
clubs that takes registrations until a set time is an event at that time. The feed is
read through a secret address (:class:`leagues.models.CalendarToken`), so it shows
nothing a stranger could not be told: names, dates and addresses, never a game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leagues.models import CalendarToken, Entry, Season
from leagues.selectors.player import PlayerFixture, entries_played_by, fixtures_of

PRODUCT = "-//Rummikub Club//Leagues//EN"
TOKEN_MAX_LENGTH = CalendarToken._meta.get_field("token").max_length or 64


def member_of_token(token: str) -> User | None:
    """The member whose feed address has ``token``, or ``None``."""
    if len(token) > TOKEN_MAX_LENGTH:
        return None  # no token is that long: not worth a query
    row = CalendarToken.objects.select_related("user").filter(token=token).first()
    return row.user if row is not None else None


def feed_token(user: User) -> str | None:
    """The secret of ``user``'s feed address, if they have one yet."""
    token: str | None = (
        CalendarToken.objects.filter(user=user).values_list("token", flat=True).first()
    )
    return token


def member_calendar(user: User, now: datetime | None = None) -> bytes:
    """``user``'s feed, as the bytes of an ``.ics`` file."""
    now = now or timezone.now()
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"Leagues of {user}")
    entries = list(
        entries_played_by(user)
        .filter(status=Entry.Status.REGISTERED, season__status=Season.Status.RUNNING)
        .select_related("season__league")
    )
    by_entry = fixtures_of(entries, user)
    for entry in entries:
        for fixture in by_entry.get(entry.pk, ()):
            calendar.add_component(_fixture_event(entry.season, fixture, now))
            calendar.add_component(_opening_event(entry.season, fixture, now))
    for season in _registrations_closing(user):
        calendar.add_component(_registration_event(season, now))
    return bytes(calendar.to_ical())


SHORT = timedelta(minutes=30)
"""How long a calendar shows a moment (a deadline, an opening) for."""


def _fixture_event(season: Season, fixture: PlayerFixture, now: datetime) -> icalendar.Event:
    """The fixture's deadline: the half hour that ends at it."""
    versus = f" vs {', '.join(fixture.opponents)}" if fixture.opponents else ""
    return _event(
        uid=f"fixture-{fixture.fixture.pk}",
        summary=f"{season}: matchday {fixture.matchday}{versus}",
        starts=fixture.deadline - SHORT,
        ends=fixture.deadline,
        link=_fixture_link(season, fixture),
        now=now,
        description=f"{season}: your fixture{versus} is due at the end of this event.",
    )


def _opening_event(season: Season, fixture: PlayerFixture, now: datetime) -> icalendar.Event:
    """The fixture's matchday opens: the half hour from then."""
    return _event(
        uid=f"fixture-{fixture.fixture.pk}-opens",
        summary=f"{season}: matchday {fixture.matchday} opens",
        starts=fixture.opens_at,
        ends=fixture.opens_at + SHORT,
        link=_fixture_link(season, fixture),
        now=now,
        description=f"{season}: your fixture can be played from now until "
        f"{timezone.localtime(fixture.deadline):%a %d %b, %H:%M %Z}.",
    )


def _fixture_link(season: Season, fixture: PlayerFixture) -> str:
    if fixture.table_id is not None:
        return reverse("games:current", kwargs={"pk": fixture.table_id})
    return f"{reverse('leagues:player')}#season-{season.pk}"


def _registration_event(season: Season, now: datetime) -> icalendar.Event:
    closes = season.registration_closes_at
    assert closes is not None  # _registrations_closing keeps seasons with a time set
    return _event(
        uid=f"season-{season.pk}-registration",
        summary=f"{season.league.name}: registration for season {season.number} closes",
        starts=closes,
        ends=closes + SHORT,
        link=f"{reverse('leagues:player')}#season-{season.pk}",
        now=now,
        description=f"Register for {season} before this time.",
    )


def _registrations_closing(user: User) -> list[Season]:
    return list(
        Season.objects.filter(
            league__club__memberships__user=user,
            status=Season.Status.REGISTRATION,
            registration_closes_at__isnull=False,
        ).select_related("league")
    )


def _event(
    *,
    uid: str,
    summary: str,
    starts: datetime,
    ends: datetime,
    link: str,
    now: datetime,
    description: str,
) -> icalendar.Event:
    event = icalendar.Event()
    host = settings.SITE_URL.split("://", 1)[-1]
    event.add("uid", f"{uid}@{host}")
    event.add("dtstamp", now)
    event.add("dtstart", starts)
    event.add("dtend", ends)
    event.add("summary", summary)
    event.add("description", description)
    event.add("url", f"{settings.SITE_URL}{link}")
    return event
