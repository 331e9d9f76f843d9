"""What the organisers' page of a season reads: its matchdays under way with their
fixtures and players (and when the next one opens), the last ones closed, the next
matchday to open and whether it may open now, and the season's players; and, for the
organiser reading it, which tools they may not use and why (a conflict of interest:
:mod:`leagues.conflicts`), so that the page does not offer them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery

from accounts.models import User
from games.models import Game, Result
from games.selectors.players import tables_players
from leagues.conflicts import (
    ANOTHER_ORGANISER,
    PLAYERS_CLOSE,
    UNFINISHED_FIXTURES,
    extended_fixtures,
    refusal_text,
    season_fixtures,
    sentences,
)
from leagues.models import Entry, Fixture, FixtureSeat, Matchday, Season
from leagues.selectors.participation import fixtures_of
from leagues.selectors.seasons import fixture_names

CLOSED_SHOWN = 3


@dataclass(frozen=True)
class FixtureLine:
    """A fixture with its seats named by who played them (who will, before a game)."""

    fixture: Fixture
    players: str
    refusal: str = ""
    """Why the reader may not move its deadline (they play in it); empty: they may."""


@dataclass(frozen=True)
class MatchdayLines:
    matchday: Matchday
    fixtures: list[FixtureLine]
    extend_refusal: str = ""
    """Why the reader may not extend its deadline; empty: they may."""


@dataclass(frozen=True)
class EntryLine:
    entry: Entry
    refusal: str = ""
    """Why the reader may not withdraw the player or seat a substitute for them."""
    may_withdraw: bool = True
    """Whether the reader may withdraw them: no refusal, or their own entry."""


@dataclass(frozen=True)
class OrganiserPage:
    season: Season
    open_matchdays: list[MatchdayLines]
    closed_matchdays: list[MatchdayLines]
    scheduled: int
    entries: list[EntryLine]
    next_matchday: Matchday | None
    """The first matchday still to open."""
    unfinished_before_next: int
    """Fixtures before it still to be played: none, and it may open now."""
    open_refusal: str = ""
    """Why the reader may not open the next matchday early (they play in it)."""
    close_refusal: str = ""
    """Why the reader may not close the season (they play in it)."""

    @property
    def may_open_next(self) -> bool:
        return self.next_matchday is not None and not self.unfinished_before_next

    @property
    def several_divisions(self) -> bool:
        """Whether the lines name their division: a league of one has none to tell apart."""
        return len({line.entry.division_id for line in self.entries} - {None}) > 1


def _refusal(fixtures: list[Fixture], theirs: set[int], instead: str = ANOTHER_ORGANISER) -> str:
    return refusal_text(sentences(fixtures, theirs), instead)


def _lines(matchdays: list[Matchday], theirs: set[int]) -> list[MatchdayLines]:
    fixtures = [fixture for day in matchdays for fixture in day.fixtures.all()]
    played = tables_players(f.table_id for f in fixtures if f.table_id is not None)

    def line(fixture: Fixture) -> FixtureLine:
        entries = [seat.entry for seat in fixture.seats.all()]
        names = fixture_names(entries, played.get(fixture.table_id or 0, []))
        return FixtureLine(fixture, ", ".join(names), _refusal([fixture], theirs))

    return [
        MatchdayLines(
            day,
            [line(f) for f in day.fixtures.all()],
            _refusal(extended_fixtures(day.fixtures.all()), theirs),
        )
        for day in matchdays
    ]


def _entry_lines(season: Season, theirs: set[int], reader: User | None) -> list[EntryLine]:
    """The season's registered players, each with why the reader may not withdraw or
    replace them: the organiser plays in one of the entry's unfinished fixtures."""
    # Who withdrew once the season was under way stays listed, as withdrawn: they played
    # in a division, and the standings keep their row.
    entries = list(
        Entry.objects.filter(season=season)
        .filter(
            Q(status=Entry.Status.REGISTERED)
            | Q(status=Entry.Status.WITHDRAWN, division__isnull=False)
        )
        .select_related("user", "substitute", "division")
        .order_by("division__level", "seed", "pk")
    )
    touched: dict[int, list[Fixture]] = {}
    if theirs:
        seats = FixtureSeat.objects.filter(
            entry__season=season, fixture__status__in=UNFINISHED_FIXTURES, fixture_id__in=theirs
        ).select_related("fixture__matchday")
        for seat in seats.order_by("fixture__matchday__number", "fixture_id"):
            touched.setdefault(seat.entry_id, []).append(seat.fixture)
    reader_id = reader.pk if reader is not None else None
    lines = []
    for entry in entries:
        refusal = _refusal(touched.get(entry.pk, []), theirs)
        lines.append(EntryLine(entry, refusal, not refusal or entry.user_id == reader_id))
    return lines


def _with_fixtures(matchdays: QuerySet[Matchday]) -> QuerySet[Matchday]:
    seats = FixtureSeat.objects.select_related("entry__user", "entry__substitute").order_by(
        "number"
    )
    fixtures = (
        Fixture.objects.select_related("table", "division")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("division__level", "pk")
    )
    return matchdays.prefetch_related(Prefetch("fixtures", queryset=fixtures))


def next_to_open(season: Season) -> Matchday | None:
    """The season's first matchday still scheduled, if any."""
    scheduled = season.matchdays.filter(status=Matchday.Status.SCHEDULED)
    return scheduled.order_by("number").first()


def unfinished_before(matchday: Matchday) -> int:
    """How many fixtures of the matchdays before ``matchday`` are still to be played."""
    return Fixture.objects.filter(
        matchday__season_id=matchday.season_id,
        matchday__number__lt=matchday.number,
        status__in=(Fixture.Status.SCHEDULED, Fixture.Status.PLAYING),
    ).count()


def organiser_page(season: Season, reader: User | None = None) -> OrganiserPage:
    """The page of ``season``; with ``reader``, the tools they may not use are marked
    with why (one query for the fixtures of the season they play in)."""
    theirs: set[int] = set()
    if reader is not None:
        theirs = set(fixtures_of(reader, season_fixtures(season)).values_list("pk", flat=True))
    matchdays = Matchday.objects.filter(season=season)
    # When the matchday after each opens: a deadline extended past it overlaps the two.
    following = matchdays.filter(number=OuterRef("number") + 1).values("opens_at")[:1]
    open_matchdays = matchdays.filter(status=Matchday.Status.OPEN).annotate(
        next_opens_at=Subquery(following)
    )
    next_matchday = next_to_open(season)
    return OrganiserPage(
        season=season,
        open_matchdays=_lines(list(_with_fixtures(open_matchdays.order_by("number"))), theirs),
        closed_matchdays=_lines(
            list(
                _with_fixtures(matchdays.filter(status=Matchday.Status.CLOSED).order_by("-number"))[
                    :CLOSED_SHOWN
                ]
            ),
            theirs,
        ),
        scheduled=matchdays.filter(status=Matchday.Status.SCHEDULED).count(),
        entries=_entry_lines(season, theirs, reader),
        next_matchday=next_matchday,
        unfinished_before_next=0 if next_matchday is None else unfinished_before(next_matchday),
        open_refusal="" if next_matchday is None else _mine(theirs, next_matchday),
        close_refusal=_mine(theirs, instead=PLAYERS_CLOSE),
    )


def _mine(theirs: set[int], matchday: Matchday | None = None, instead: str = "") -> str:
    """The refusal naming the reader's fixtures (of ``matchday``, else of the season)."""
    if not theirs:
        return ""
    fixtures = (
        Fixture.objects.filter(pk__in=theirs)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )
    if matchday is not None:
        fixtures = fixtures.filter(matchday=matchday)
    return _refusal(list(fixtures), theirs, instead or ANOTHER_ORGANISER)


@dataclass(frozen=True)
class GameResults:
    game: Game
    rows: list[Result]


def fixture_results(fixture: Fixture) -> list[GameResults]:
    """The finished games of the fixture's table with their current result rows."""
    if fixture.table_id is None:
        return []
    games = Game.objects.filter(table_id=fixture.table_id, status=Game.Status.FINISHED)
    rows: dict[int, list[Result]] = {}
    current = Result.objects.current().filter(game__in=games).select_related("member")
    for row in current.order_by("game", "seat"):
        rows.setdefault(row.game_id, []).append(row)
    return [GameResults(game, rows.get(game.pk, [])) for game in games.order_by("number")]
