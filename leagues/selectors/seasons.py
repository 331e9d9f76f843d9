"""What the league and season pages show: a league's seasons; a season's registration,
divisions and matchdays with their fixtures and byes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from games.selectors.players import GamePlayers, round_names, tables_players
from leagues.models import (
    Division,
    Entry,
    Fixture,
    FixtureSeat,
    League,
    Matchday,
    Season,
)


def visible_league(club_slug: str, league_slug: str, user: Any) -> League:
    """The league at that address, if ``user`` may see its club; else 404 (an outsider
    learns nothing of a private club)."""
    league = get_object_or_404(
        League.objects.select_related("club"), club__slug=club_slug, slug=league_slug
    )
    if not user.has_perm("leagues.view_club", league.club):
        raise Http404("No such club.")
    return league


@dataclass(frozen=True)
class SeasonLine:
    """A season in the league's list."""

    number: int
    status: str
    status_label: str
    players: int
    started_at: datetime | None
    finished_at: datetime | None


def league_seasons(league: League) -> list[SeasonLine]:
    """The league's seasons, the latest first, with their players counted: those
    registered, and those who withdrew once the season had started (they played in a
    division), not those who left before it."""
    played = Q(entries__status=Entry.Status.WITHDRAWN, entries__division__isnull=False)
    seasons = league.seasons.annotate(
        players=Count("entries", filter=Q(entries__status=Entry.Status.REGISTERED) | played)
    )
    return [
        SeasonLine(
            s.number, s.status, s.get_status_display(), s.players, s.started_at, s.finished_at
        )
        for s in seasons.order_by("-number")
    ]


def seats_in_order() -> Prefetch[Any]:
    """Prefetch a fixture's seats in seat order with their players.

    Ordered explicitly: FixtureSeat's default ordering (by fixture, whose own default
    runs through matchday, division and season) makes Django's ordering loop."""
    seats = FixtureSeat.objects.order_by("number").select_related(
        "entry__user", "entry__substitute"
    )
    return Prefetch("seats", queryset=seats)


@dataclass(frozen=True)
class FixtureRow:
    id: int
    players: tuple[str, ...]
    status: str
    status_label: str
    table_id: int | None
    deadline: datetime | None
    """Its own deadline when rescheduled or extended for a vacation, else ``None`` (the
    matchday's)."""
    is_mine: bool


@dataclass(frozen=True)
class DivisionDay:
    """One division's part of a matchday."""

    name: str
    fixtures: tuple[FixtureRow, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class MatchdayRow:
    number: int
    opens_at: datetime
    deadline: datetime
    status: str
    status_label: str
    divisions: tuple[DivisionDay, ...]


@dataclass(frozen=True)
class DivisionPlayer:
    place: int | None
    """Their seed; once the season is closed, their final place (none: they withdrew)."""
    name: str
    is_me: bool
    withdrawn: bool


@dataclass(frozen=True)
class DivisionRow:
    level: int
    name: str
    players: tuple[DivisionPlayer, ...]
    """In seed order; once the season is closed, in its final order."""
    final: bool = False
    """The season is closed: the places are the final ones, not seeds."""


@dataclass(frozen=True)
class Registration:
    """Where registration stands, and the viewer's own."""

    is_open: bool
    registered: tuple[str, ...]
    pending: tuple[tuple[int, str], ...]
    """(user id, name) of registrations awaiting approval."""
    my_status: str
    """The viewer's entry status, or "" without one."""
    my_status_label: str


def registration(season: Season, user: Any) -> Registration:
    entries = list(season.entries.select_related("user").order_by("registered_at", "pk"))
    mine = next((e for e in entries if user.is_authenticated and e.user_id == user.pk), None)
    closes = season.registration_closes_at
    return Registration(
        is_open=season.status == Season.Status.REGISTRATION
        and (closes is None or closes > timezone.now()),
        registered=tuple(str(e.user) for e in entries if e.status == Entry.Status.REGISTERED),
        pending=tuple(
            (e.user_id, str(e.user)) for e in entries if e.status == Entry.Status.PENDING
        ),
        my_status=mine.status if mine else "",
        my_status_label=mine.get_status_display() if mine else "",
    )


def divisions(season: Season, user: Any) -> list[DivisionRow]:
    placed = Entry.objects.filter(season=season, division__isnull=False).select_related(
        "user", "substitute"
    )
    final = season.status == Season.Status.FINISHED
    by_division: dict[int, list[Entry]] = defaultdict(list)
    for entry in placed.order_by("seed", "pk"):
        assert entry.division_id is not None
        by_division[entry.division_id].append(entry)
    if final:
        # The order the close fixed, as the players were told it; who withdrew, last.
        for entries in by_division.values():
            entries.sort(key=lambda e: (e.final_rank is None, e.final_rank or 0))
    return [
        DivisionRow(
            level=division.level,
            name=division.name,
            players=tuple(
                DivisionPlayer(
                    e.final_rank if final else e.seed,
                    e.label,
                    user.is_authenticated and e.player.pk == user.pk,
                    e.status == Entry.Status.WITHDRAWN,
                )
                for e in by_division[division.pk]
            ),
            final=final,
        )
        for division in season.divisions.order_by("level")
    ]


FIXTURES_PER_PAGE = 150
"""About how many fixtures a page of the season shows: its matchdays come in pages of
whole matchdays up to this many fixtures (at least one matchday), so a season of a few
divisions shows every matchday at once and one of 1,000 players one or two."""


@dataclass(frozen=True)
class MatchdayPage:
    """The matchdays a season page shows, and where the others are."""

    rows: list[MatchdayRow]
    count: int
    """Matchdays in the whole season."""
    previous: int | None
    """The first matchday of the page before (``?matchday=N``), if any."""
    next: int | None

    @property
    def first(self) -> int:
        return self.rows[0].number if self.rows else 0

    @property
    def last(self) -> int:
        return self.rows[-1].number if self.rows else 0


def matchday_page(season: Season, user: Any, wanted: int | None = None) -> MatchdayPage:
    """The page of matchdays holding matchday ``wanted``; without it, the one holding
    the matchday being played (the first open one, else the last closed one, else the
    first). Two queries more than :func:`matchdays` of the page, whatever the season's
    length: the matchdays' numbers, statuses and fixtures counted."""
    days = list(
        Matchday.objects.filter(season=season)
        .order_by("number")
        .annotate(fixture_count=Count("fixtures"))
        .values_list("number", "status", "fixture_count")
    )
    pages = _pages([(number, size) for number, _, size in days])
    if wanted is None:
        wanted = _being_played([(number, status) for number, status, _ in days])
    at = next((i for i, page in enumerate(pages) if wanted in page), 0)
    shown = pages[at] if pages else []
    return MatchdayPage(
        rows=matchdays(season, user, shown) if shown else [],
        count=len(days),
        previous=pages[at - 1][0] if at > 0 else None,
        next=pages[at + 1][0] if at + 1 < len(pages) else None,
    )


def _pages(sizes: list[tuple[int, int]]) -> list[list[int]]:
    """Matchday numbers in pages of whole matchdays, each up to :data:`FIXTURES_PER_PAGE`
    fixtures (a bigger matchday alone)."""
    pages: list[list[int]] = []
    fixtures = 0
    for number, size in sizes:
        if not pages or fixtures + size > FIXTURES_PER_PAGE:
            pages.append([])
            fixtures = 0
        pages[-1].append(number)
        fixtures += size
    return pages


def _being_played(statuses: list[tuple[int, str]]) -> int:
    open_days = [number for number, status in statuses if status == Matchday.Status.OPEN]
    closed = [number for number, status in statuses if status == Matchday.Status.CLOSED]
    if open_days:
        return open_days[0]
    if closed:
        return closed[-1]
    return statuses[0][0] if statuses else 0


def matchdays(season: Season, user: Any, numbers: list[int] | None = None) -> list[MatchdayRow]:
    """Every matchday (or those of ``numbers``) with each division's fixtures (players
    in seat order) and byes, in a fixed number of queries."""
    division_list = list(season.divisions.order_by("level"))
    members: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(season=season, division__isnull=False).select_related(
        "user", "substitute"
    ):
        assert entry.division_id is not None
        members[entry.division_id].append(entry)
    fixtures: dict[tuple[int, int], list[Fixture]] = defaultdict(list)
    listed = Fixture.objects.filter(matchday__season=season).order_by("pk")
    days = Matchday.objects.filter(season=season).order_by("number")
    if numbers is not None:
        listed = listed.filter(matchday__number__in=numbers)
        days = days.filter(number__in=numbers)
    for fixture in listed.prefetch_related(seats_in_order()):
        fixtures[(fixture.matchday_id, fixture.division_id)].append(fixture)
    played = tables_players(f.table_id for fs in fixtures.values() for f in fs if f.table_id)
    return [
        MatchdayRow(
            number=day.number,
            opens_at=day.opens_at,
            deadline=day.deadline,
            status=day.status,
            status_label=day.get_status_display(),
            divisions=tuple(
                _division_day(
                    division, fixtures[(day.pk, division.pk)], members[division.pk], user, played
                )
                for division in division_list
            ),
        )
        for day in days
    ]


def _division_day(
    division: Division,
    fixtures: list[Fixture],
    members: list[Entry],
    user: Any,
    played: dict[int, list[GamePlayers]],
) -> DivisionDay:
    seated: set[int] = set()
    rows = []
    for fixture in fixtures:
        entries = [seat.entry for seat in fixture.seats.all()]
        seated.update(entry.pk for entry in entries)
        games = played.get(fixture.table_id or 0, [])
        rows.append(
            FixtureRow(
                id=fixture.pk,
                players=tuple(fixture_names(entries, games)),
                status=fixture.status,
                status_label=fixture.get_status_display(),
                table_id=fixture.table_id,
                deadline=fixture.due_at if fixture.deadline or fixture.vacation_days else None,
                is_mine=user.is_authenticated and plays_in(user.pk, fixture, entries, games),
            )
        )
    byes = tuple(e.label for e in sorted(members, key=lambda e: e.seed or 0) if e.pk not in seated)
    return DivisionDay(name=division.name, fixtures=tuple(rows), byes=byes)


def fixture_names(entries: list[Entry], games: list[GamePlayers]) -> list[str]:
    """A fixture's seats in order, named by who played them ("Frank, then Hank for
    Frank"); before its first game, by who will ("Hank for Frank")."""
    if games:
        return round_names(games)
    return [entry.seat_name for entry in entries]


def plays_in(
    user_id: int, fixture: Fixture, entries: list[Entry], games: list[GamePlayers]
) -> bool:
    """Whether the member played a game of the fixture, or plays it now or next (a
    finished fixture is theirs only if they played in it; one to come is not a withdrawn
    player's, whom a bot replaces or who forfeits it)."""
    if any(user_id in record.everyone for record in games):
        return True
    finished = fixture.status in (Fixture.Status.FINISHED, Fixture.Status.SETTLED)
    return not finished and any(
        entry.player.pk == user_id and entry.status != Entry.Status.WITHDRAWN for entry in entries
    )
