"""Opening a matchday: each of its fixtures gets its games table, and its players are
told; and a fixture whose table's round is over is finished.

A matchday opens at its time (the beat job), or earlier when an organiser opens it
(:func:`open_next_matchday`) once every fixture before it is done: the season need not
wait for the calendar. It keeps its deadline, so its players get the time gained.

A fixture's table is created by :func:`games.services.lobby.create_table` with every
seat taken by the fixture's players in seat order, so its round starts at once on the
season's table settings. The table names the fixture (``belongs_to``) and links to the
season's page; a private club's table is marked ``private``; games knows nothing more
of leagues.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Table
from games.models.table_settings import TableSettings
from games.services.lobby import create_table
from leagues import signals
from leagues.conflicts import ANOTHER_ORGANISER, opening_conflicts, refuse_conflicts
from leagues.errors import Conflict, LeaguesError
from leagues.models import Club, Entry, Fixture, FixtureSeat, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.selectors.organiser import next_to_open, unfinished_before
from leagues.selectors.roles import organisers
from leagues.selectors.seasons import seats_in_order
from leagues.services.deadlines import audited, when
from leagues.services.locks import lock_matchday, lock_season
from leagues.services.seasons import season_path
from leagues.services.withdrawals import seat_plan_for
from leagues.signals import announce
from notifications.lines import line
from notifications.services import notices


def open_matchday(matchday: Matchday) -> Matchday:
    """Open ``matchday``: a table for each fixture, its players notified. Opening one
    that is open already (a task run twice, the beat job and an organiser) does nothing.
    Raises :class:`LeaguesError` when the season is not under way."""
    with transaction.atomic():
        # Locked (its season first, the close's order: a close either finds it open
        # or is waited for), and its status read afresh under the lock, so that two
        # openings at once create each fixture's table once.
        season, matchday = lock_matchday(matchday.pk)
        if matchday.status != Matchday.Status.SCHEDULED:
            return matchday
        if season.status != Season.Status.RUNNING:
            raise Conflict("The season is not under way.")
        creator = next(iter(organisers(season.league.club)), None)
        if creator is None:
            raise Conflict("The club has no organiser to set up the tables.")
        settings = TableSettings.from_dict(season.table_settings)
        # Read under the club's lock: a change of the club's privacy waits for these
        # tables, or these read it changed, so no table keeps the old setting.
        private = (
            Club.objects.select_for_update()
            .filter(pk=season.league.club_id)
            .values_list("is_private", flat=True)
            .get()
        )
        fixtures = matchday.fixtures.filter(table__isnull=True).order_by("pk")
        fixtures = fixtures.prefetch_related(seats_in_order())
        for fixture in fixtures:
            _set_up(fixture, matchday, creator, settings, private)
        matchday.status = Matchday.Status.OPEN
        matchday.save(update_fields=["status"])
    return matchday


def _set_up(
    fixture: Fixture, matchday: Matchday, creator: Any, settings: TableSettings, private: bool
) -> None:
    season = matchday.season
    seats: list[FixtureSeat] = list(fixture.seats.all())
    plans = [seat_plan_for(seat.entry) for seat in seats]
    table = create_table(creator, settings, plans, seated_by_authority=True)
    table.belongs_to = f"{season.league.name}, season {season.number}, matchday {matchday.number}"
    table.belongs_to_link = season_path(season)
    # A private club's fixture is seen by its members and players only (games.selectors.sight,
    # leagues.selectors.sight); the flag lets games' lists leave it out.
    table.private = private
    table.save(update_fields=["belongs_to", "belongs_to_link", "private"])
    fixture.table, fixture.status = table, Fixture.Status.PLAYING
    fixture.save(update_fields=["table", "status"])
    deadline = fixture.due_at
    for seat in seats:
        if seat.entry.status == Entry.Status.WITHDRAWN:
            continue
        player = seat.entry.player
        notices.create(
            player.pk,
            LeagueNotice.LEAGUE_MATCHDAY,
            # The deadline a moment: each player reads it in their own zone.
            line(
                f"Matchday {matchday.number} of {season} is open: your fixture is at table "
                f"{table.pk}, to finish by ",
                deadline,
                ".",
            ),
            reverse("games:current", kwargs={"pk": table.pk}),
            subject=table,
            key=f"league-matchday-{matchday.pk}",
            deadline=deadline,
        )


def finish_fixture(table_id: int) -> bool:
    """The fixture played at ``table_id`` is over (its round finished); ``False`` when
    the table is no fixture's, or the fixture was settled already."""
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("table", "matchday")
            .filter(table_id=table_id, status=Fixture.Status.PLAYING)
            .order_by("pk")
            .first()
        )
        if fixture is None or fixture.table is None:
            return False
        if fixture.table.status != Table.Status.FINISHED:
            return False
        fixture.status = Fixture.Status.FINISHED
        fixture.save(update_fields=["status"])
        announce(
            signals.fixture_finished, Fixture, fixture.matchday.season_id, fixture_id=fixture.pk
        )
        return True


def open_next_matchday(season: Season, by: User, reason: str) -> Matchday:
    """Open the season's next matchday now, before its time: allowed once every fixture
    of the matchdays before it is finished or settled (checked again under the season's
    lock, so that a fixture cannot reopen in between). The matchdays before it, all
    done, are closed; the next one opens now and keeps its deadline. Raises
    :class:`LeaguesError` with the reason it cannot."""
    if not reason.strip():
        raise LeaguesError("Give the reason: it is kept in the season's history.")
    with transaction.atomic(), audited(reason.strip(), by):
        # The season's lock first, then the matchdays': the order closing a season keeps.
        locked = lock_season(season.pk)
        assert locked is not None
        if locked.status != Season.Status.RUNNING:
            raise Conflict("The season is not under way.")
        following = next_to_open(locked)
        if following is None:
            raise Conflict("Every matchday of the season is open already.")
        following = Matchday.objects.select_for_update().get(pk=following.pk)
        left = unfinished_before(following)
        if left:
            raise Conflict(
                f"Matchday {following.number} opens {when(following.opens_at)}: "
                f"{left} fixture{'s' if left != 1 else ''} before it "
                f"{'are' if left != 1 else 'is'} not finished yet."
            )
        # Its fixtures start sooner and keep their deadline: more time for its players.
        refuse_conflicts(opening_conflicts(by, following), ANOTHER_ORGANISER)
        done = locked.matchdays.filter(number__lt=following.number, status=Matchday.Status.OPEN)
        for earlier in done.select_for_update():
            earlier.status = Matchday.Status.CLOSED
            earlier.save(update_fields=["status"])
        now = timezone.now()
        if following.opens_at > now:
            following.opens_at = now
            following.save(update_fields=["opens_at"])
        return open_matchday(following)
