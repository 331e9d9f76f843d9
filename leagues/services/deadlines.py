"""Matchday deadlines: players reminded before, unfinished fixtures settled after.

A fixture is due at its own ``deadline`` when it was rescheduled, else at its matchday's.
When three quarters of a matchday have passed (at most ``LEAGUES_REMINDER_HOURS`` before
its deadline; :func:`reminder_lead`) the players of its unfinished fixtures are reminded,
once (:func:`remind_matchday`): never at its opening, and not at all when that quarter
is shorter than an hour. At the deadline each
fixture still unfinished is *settled* by the season's declared rule
(:class:`~leagues.models.OnDeadline`): its table's round is stopped
(:func:`games.services.adjudication.stop_round`), the game in play scored as it stands,
after the player to move forfeits it under the timed-out rule; the later games are never
played. The fixture keeps a note saying so in words.

Closing a matchday settles every unfinished fixture of it in one transaction and marks it
closed. An organiser does it from a preview (:func:`preview_close_matchday`: what settling
each fixture will do, and the warnings); the season's beat job (:mod:`leagues.tasks`)
does it when the deadline has passed (:func:`close_due_matchday`).

Lock order: the season, then the matchday, then its fixtures, then (inside
``stop_round``) the game and its table: a season's close takes them so
(:mod:`leagues.services.locks`), and everything that locks more than one of them keeps
that order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pghistory
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

from accounts.models import User
from common import moments
from games.models import Game, Move, Seat, Table
from games.selectors.players import player_at
from games.services.adjudication import stop_round
from leagues.conflicts import UNFINISHED_FIXTURES, playing_in, refuse_conflicts
from leagues.errors import Conflict, LeaguesError
from leagues.models import Entry, Fixture, Matchday, OnDeadline
from leagues.notices import LeagueNotice
from leagues.selectors.vacations import days_away
from leagues.services.locks import lock_fixture, lock_matchday, lock_season
from leagues.signals import announce, fixture_settled
from notifications.lines import Line, line
from notifications.services import notices

UNFINISHED = UNFINISHED_FIXTURES
DEADLINE_PASSED = "The matchday's deadline passed."
# A game younger than this, or a move more recent, is worth a second look before the
# organiser stops it: the players may be at the table right now.
RECENT_GAME = timedelta(hours=1)
RECENT_MOVE = timedelta(minutes=10)


def due_at(fixture: Fixture) -> datetime:
    """When ``fixture`` must be finished: its own deadline, else its matchday's, extended
    by its players' vacations (:attr:`Fixture.due_at`)."""
    return fixture.due_at


def keep_table_due(fixture: Fixture) -> None:
    """The fixture's table settles when the fixture is due (``Table.settles_at``), which
    the game's page, "Your move" and turn notices show when it comes before a turn's
    deadline. Follows every save of the fixture's deadline or table."""
    if fixture.table_id is not None:
        Table.objects.filter(pk=fixture.table_id).update(settles_at=due_at(fixture))


def keep_tables_due(matchday: Matchday) -> None:
    """The tables of the matchday's fixtures due at its deadline settle then; follows
    every save of its deadline."""
    tables = Table.objects.filter(fixture__matchday=matchday, fixture__deadline=None)
    tables.filter(fixture__vacation_days=0).update(settles_at=matchday.deadline)
    extended = matchday.fixtures.filter(deadline=None, vacation_days__gt=0, table__isnull=False)
    for fixture in extended:
        keep_table_due(fixture)


def reminder_window() -> timedelta:
    """``LEAGUES_REMINDER_HOURS``: the longest a reminder comes before a deadline."""
    return timedelta(hours=settings.LEAGUES_REMINDER_HOURS)


REMINDER_SHARE = 4
"""A reminder comes when 1/REMINDER_SHARE of the matchday is left."""
SHORTEST_REMINDER = timedelta(hours=1)
"""A reminder that would leave less than this is not sent."""


def reminder_lead(matchday: Matchday) -> timedelta | None:
    """How long before ``matchday``'s deadline its players are reminded: a quarter of the
    matchday, at most ``LEAGUES_REMINDER_HOURS``; ``None`` (no reminder) when that is
    less than an hour.

    >>> from datetime import datetime, UTC
    >>> opens = datetime(2026, 11, 27, 3, 36, tzinfo=UTC)
    >>> reminder_lead(Matchday(opens_at=opens, deadline=opens + timedelta(days=1)))
    datetime.timedelta(seconds=21600)
    >>> reminder_lead(Matchday(opens_at=opens, deadline=opens + timedelta(days=7)))
    datetime.timedelta(days=1)
    >>> reminder_lead(Matchday(opens_at=opens, deadline=opens + timedelta(hours=3))) is None
    True
    """
    lead = min(reminder_window(), (matchday.deadline - matchday.opens_at) / REMINDER_SHARE)
    return lead if lead >= SHORTEST_REMINDER else None


def when(moment: datetime) -> str:
    """A deadline in words, in the current time zone (a member's, when a page or their
    notice is made for them; else the site's), which it names: "Tue 14 Jan, 18:00 UTC",
    written as every notice and mail writes a moment (``common.moments``)."""
    return moments.when(moment)


def audited(reason: str, by: User | None) -> pghistory.context:
    """The pghistory context of a change: why, and who (the request's user is also
    recorded by the middleware; a task has none)."""
    if by is None:
        return pghistory.context(reason=reason)
    return pghistory.context(reason=reason, user=by.pk)


# --- reminders -------------------------------------------------------------------------


def remind_matchday(matchday_id: int, now: datetime, wait: bool = True) -> int:
    """Remind the players of the matchday's unfinished fixtures of its deadline, once;
    returns how many were notified (0 if it was done already, or it is not yet time).

    ``wait=False`` (the beat job) passes over a matchday another writer holds.
    """
    with transaction.atomic():
        matchday = (
            Matchday.objects.select_for_update(skip_locked=not wait, of=("self",))
            .select_related("season__league")
            .filter(pk=matchday_id, status=Matchday.Status.OPEN, reminded_at=None)
            .first()
        )
        lead = None if matchday is None else reminder_lead(matchday)
        if matchday is None or lead is None or matchday.deadline - now > lead:
            return 0
        sent = 0
        for fixture in _fixtures_in_play(matchday):
            deadline = due_at(fixture)
            # A fixture rescheduled to later is reminded of nothing yet: its players
            # were told of its own deadline when it was moved.
            if deadline - now > lead:
                continue
            sent += _remind(fixture, deadline)
        matchday.reminded_at = now
        matchday.save(update_fields=["reminded_at"])
    return sent


def _fixtures_in_play(matchday: Matchday) -> Iterable[Fixture]:
    return (
        matchday.fixtures.filter(status=Fixture.Status.PLAYING, table__status=Table.Status.PLAYING)
        .select_related("table")
        .order_by("pk")
    )


def _remind(fixture: Fixture, deadline: datetime) -> int:
    return notify_players(
        fixture,
        deadline_text(fixture, deadline) + " Your fixture is not finished yet.",
        deadline,
        key=f"league-deadline:fixture-{fixture.pk}",
    )


def matchday_ends(fixture: Fixture, deadline: datetime) -> Line:
    """ "Winter league, season 1: matchday 2 ends Tue 14 Jan, 18:00 UTC", the deadline a
    moment each reader reads in their zone."""
    matchday = fixture.matchday
    season = matchday.season
    return line(
        f"{season.league.name}, season {season.number}: matchday {matchday.number} ends ",
        deadline,
    )


def deadline_text(fixture: Fixture, deadline: datetime) -> Line:
    """ "Winter league, season 1: matchday 2 ends Tue 14 Jan, 18:00 UTC." """
    return matchday_ends(fixture, deadline) + "."


def notify_players(fixture: Fixture, text: Line, deadline: datetime, key: str) -> int:
    """Notify the members seated at the fixture's table (LEAGUE_MATCHDAY), once per
    ``key`` and deadline; returns how many were notified. Each reads ``text``'s
    moments in their own time zone."""
    assert fixture.table is not None
    table = fixture.table
    # A player who withdrew keeps a forfeited seat at the table; they are not reminded.
    withdrawn = fixture.seats.filter(entry__status=Entry.Status.WITHDRAWN).values("number")
    members = Seat.objects.filter(table=table, kind=Seat.Kind.PLAYER, user__isnull=False).exclude(
        number__in=withdrawn
    )
    link = reverse("games:current", kwargs={"pk": table.pk})
    stamp = int(deadline.timestamp())
    created = []
    for user_id in members.values_list("user_id", flat=True).distinct().order_by("user_id"):
        assert user_id is not None  # members: seats with a member
        notice = notices.create(
            user_id,
            LeagueNotice.LEAGUE_MATCHDAY,
            text,
            link,
            subject=table,
            key=f"{key}:{stamp}",
            deadline=deadline,
        )
        created.append(notice)
    return sum(1 for notice in created if notice is not None)


# --- settling a fixture ----------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """What settling one fixture does (a preview) or did (its note)."""

    fixture: Fixture
    note: str
    warnings: list[str] = field(default_factory=list)


def settlement_note(game_number: int, games: int, forfeited_by: str | None) -> str:
    """ "Settled at the deadline: game 2 of 3 scored as it stands; game 3 not played." """
    if forfeited_by is None:
        what = f"game {game_number} of {games} scored as it stands"
    else:
        what = (
            f"{forfeited_by}, whose turn it was, forfeited game {game_number} of {games}, "
            "scored as it stands"
        )
    if game_number + 1 == games:
        what += f"; game {games} not played"
    elif game_number < games:
        what += f"; games {game_number + 1} to {games} not played"
    return f"Settled at the deadline: {what}."


NEVER_STARTED = "Settled at the deadline: its table never started; no games played."


def plan_settlement(fixture: Fixture, rule: str, now: datetime) -> Settlement:
    """What settling ``fixture`` under ``rule`` would do now, with what deserves a
    second look. Reads only: the preview's and the settling's common ground."""
    table = fixture.table
    if table is None or table.status == Table.Status.OPEN:
        return Settlement(fixture, NEVER_STARTED)
    if table.status == Table.Status.FINISHED:
        return Settlement(fixture, "Finished: nothing to settle.")
    game = table.games.filter(status=Game.Status.PLAYING).first()
    if game is None:
        return Settlement(fixture, settlement_note(table.games.count(), table.games_in_round, None))
    to_move = None
    if rule == OnDeadline.TIMED_OUT_FORFEIT and game.current_seat is not None:
        to_move = player_at(game, game.current_seat, game.version + 1).name
    note = settlement_note(game.number, table.games_in_round, to_move)
    return Settlement(fixture, note, _game_warnings(table, game, now))


def _game_warnings(table: Table, game: Game, now: datetime) -> list[str]:
    warnings = []
    if now - game.created_at < RECENT_GAME:
        warnings.append(f"Table {table.pk}: game {game.number} started less than an hour ago.")
    if now - game.turn_started_at < RECENT_MOVE:
        warnings.append(
            f"Table {table.pk}: game {game.number} is in progress right now "
            "(a move in the last ten minutes)."
        )
    return warnings


def settle_fixture(fixture: Fixture, by: User | None, reason: str) -> Fixture:
    """Settle ``fixture`` now by its season's rule; returns it, settled (or as it was,
    if it was finished or settled already: settling twice changes nothing)."""
    with transaction.atomic(), audited(reason, by):
        lock_fixture(fixture.pk)
        return _settle(fixture.pk)


def _settle(fixture_id: int) -> Fixture:
    # The fixture's lock makes a second settling wait and then find it settled; the
    # game and table locks are stop_round's own, taken after it.
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("table", "matchday__season")
        .get(pk=fixture_id)
    )
    if fixture.status not in UNFINISHED:
        return fixture
    table = fixture.table
    if table is not None and table.status == Table.Status.FINISHED:
        # Its round ended just before; the receiver that says so has not run yet.
        fixture.status = Fixture.Status.FINISHED
        fixture.save(update_fields=["status"])
        _announce_settled(fixture)
        return fixture
    if table is None or table.status == Table.Status.OPEN:
        fixture.note = NEVER_STARTED
    else:
        games = table.games_in_round
        rule = fixture.matchday.season.on_deadline
        stopped = stop_round(table.pk, forfeit_to_move=rule == OnDeadline.TIMED_OUT_FORFEIT)
        # The note is written from what happened, not from what was planned: a move may
        # have ended the game in play between the preview and the stop.
        fixture.note = settlement_note(stopped.games_in_round, games, _forfeiter(stopped))
    fixture.status = Fixture.Status.SETTLED
    fixture.save(update_fields=["status", "note"])
    _announce_settled(fixture)
    return fixture


def _announce_settled(fixture: Fixture) -> None:
    announce(
        fixture_settled,
        Fixture,
        fixture.matchday.season_id,
        fixture_id=fixture.pk,
        matchday_id=fixture.matchday_id,
    )


def _forfeiter(table: Table) -> str | None:
    """Who forfeited the stopped round's last game by the ruling, if anyone did."""
    last = table.games.order_by("-number").first()
    forfeit = (
        Move.objects.filter(game=last, by=Move.By.RULING, action__type="forfeit")
        .values_list("seat", "seq")
        .first()
    )
    return None if forfeit is None or last is None else player_at(last, *forfeit).name


# --- closing a matchday ----------------------------------------------------------------


@dataclass(frozen=True)
class ClosePreview:
    """What closing a matchday will do: each unfinished fixture's settling, the rule,
    and the warnings worth reading before confirming."""

    matchday: Matchday
    rule: str
    settlements: list[Settlement]
    finished: int
    warnings: list[str]
    then: str = ""
    """What follows for the season: said for its last matchday (closing it never closes
    the season)."""


def preview_close_matchday(matchday: Matchday, now: datetime | None = None) -> ClosePreview:
    """What :func:`close_matchday` would do now (reads only)."""
    now = timezone.now() if now is None else now
    season = matchday.season
    fixtures = list(
        matchday.fixtures.select_related("table", "matchday").order_by("division__level", "pk")
    )
    unfinished = [f for f in fixtures if f.status in UNFINISHED]
    settlements = [plan_settlement(f, season.on_deadline, now) for f in unfinished]
    warnings = _matchday_warnings(matchday, unfinished, now)
    warnings += [warning for s in settlements for warning in s.warnings]
    return ClosePreview(
        matchday=matchday,
        rule=season.get_on_deadline_display(),
        settlements=settlements,
        finished=len(fixtures) - len(unfinished),
        warnings=warnings,
        then=_what_follows(matchday),
    )


def _what_follows(matchday: Matchday) -> str:
    """For the season's last matchday: what closing it leads to, and what it does not."""
    season = matchday.season
    if season.matchdays.filter(number__gt=matchday.number).exists():
        return ""
    if season.closes_at is not None:
        return (
            "This is the season's last matchday. Closing it does not close the season: the "
            f"season closes as announced, on {when(season.closes_at)}, when its standings "
            "become final and promotion and relegation are applied; until then disputes may "
            "still be reported."
        )
    return (
        "This is the season's last matchday. Closing it does not close the season: its "
        "standings become final, with promotion and relegation, only when an organiser "
        "closes the season from its own preview (or announces its close there)."
    )


def _matchday_warnings(matchday: Matchday, unfinished: list[Fixture], now: datetime) -> list[str]:
    warnings = []
    if matchday.status != Matchday.Status.OPEN:
        warnings.append(f"This matchday is {matchday.get_status_display().lower()}.")
    if matchday.deadline > now:
        warnings.append(
            f"The deadline is still {timeuntil(matchday.deadline, now)} away: closing now "
            "settles its fixtures early."
        )
    for fixture in unfinished:
        warnings += vacation_warnings(fixture)
        if fixture.deadline is not None and fixture.deadline > now:
            table = f"table {fixture.table_id}" if fixture.table_id else f"fixture {fixture.pk}"
            warnings.append(
                f"The fixture at {table} was rescheduled to {when(fixture.deadline)}: "
                "closing now settles it before its own deadline."
            )
    return warnings


def close_matchday(matchday: Matchday, by: User | None, reason: str) -> Matchday:
    """Settle every unfinished fixture of ``matchday`` and close it, in one transaction.
    Closing a closed matchday changes nothing; a scheduled one is refused."""
    if not reason.strip():
        raise LeaguesError("Say why the matchday is closed.")
    with transaction.atomic(), audited(reason.strip(), by):
        # A second close (a double click, the beat job) waits here and finds it closed.
        _, locked = lock_matchday(matchday.pk)
        if locked.status == Matchday.Status.CLOSED:
            return locked
        if locked.status != Matchday.Status.OPEN:
            raise Conflict("Only an open matchday can be closed.")
        if by is not None:
            _check_not_closing_own(locked, by)
        for fixture_id in _unfinished_ids(locked):
            _settle(fixture_id)
        locked.status = Matchday.Status.CLOSED
        locked.save(update_fields=["status"])
    return locked


CLOSED_BY_OTHERS = (
    "It is still in time: the matchday closes at its deadline, or another organiser closes it."
)


def closing_conflicts(matchday: Matchday, by: User) -> list[str]:
    """Why ``by`` may not close ``matchday`` now: closing early settles the fixtures
    still in time "as they stand" (or by their rule), and they play in one of them."""
    now = timezone.now()
    return playing_in(by, [f for f in _unfinished(matchday) if due_at(f) > now])


def _check_not_closing_own(matchday: Matchday, by: User) -> None:
    """An organiser who plays in a fixture still in time leaves it to the deadline, or
    to another organiser."""
    refuse_conflicts(closing_conflicts(matchday, by), CLOSED_BY_OTHERS)


def close_due_matchday(matchday_id: int, now: datetime) -> Matchday | None:
    """The beat job's part: settle the matchday's fixtures whose deadline has passed, and
    close it once its own deadline has passed and nothing is left unfinished. Returns
    ``None`` when another writer holds the matchday (the next run comes back to it)."""
    with transaction.atomic(), audited(DEADLINE_PASSED, None):
        season_id = (
            Matchday.objects.filter(pk=matchday_id).values_list("season_id", flat=True).first()
        )
        if season_id is None or lock_season(season_id, skip_locked=True) is None:
            return None
        matchday = (
            Matchday.objects.select_for_update(skip_locked=True)
            .filter(pk=matchday_id, status=Matchday.Status.OPEN)
            .first()
        )
        if matchday is None:
            return None
        due = [f for f in _unfinished(matchday) if due_at(f) <= now]
        for fixture in due:
            _settle(fixture.pk)
        if matchday.deadline <= now and not _unfinished(matchday):
            matchday.status = Matchday.Status.CLOSED
            matchday.save(update_fields=["status"])
    return matchday


def _unfinished(matchday: Matchday) -> list[Fixture]:
    return list(
        matchday.fixtures.filter(status__in=UNFINISHED).select_related("matchday").order_by("pk")
    )


def _unfinished_ids(matchday: Matchday) -> list[int]:
    return [f.pk for f in _unfinished(matchday)]


# --- vacations in the close preview ---------------------------------------------------


def vacation_warnings(fixture: Fixture) -> list[str]:
    """For a matchday's close preview: the players of ``fixture`` away during its
    matchday for more days than its deadline was extended (all of them, where the house
    rules do not extend fixtures for vacations)."""
    season = fixture.matchday.season
    where = f"table {fixture.table_id}" if fixture.table_id else f"fixture {fixture.pk}"
    warnings = []
    for player, days in sorted(days_away(fixture).items(), key=lambda item: str(item[0])):
        if days <= fixture.vacation_days:
            continue
        away = f"{player} was away on vacation {days} day{'s' * (days != 1)} of this matchday"
        if not season.vacations_extend:
            why = "the house rules do not extend a fixture for a vacation"
        else:
            why = (
                f"its deadline was extended by {fixture.vacation_days} day"
                f"{'s' * (fixture.vacation_days != 1)}, the most the house rules allow "
                f"(the matchday's length), to {when(fixture.due_at)}"
            )
        warnings.append(f"{away} (the fixture at {where}): {why}.")
    return warnings
