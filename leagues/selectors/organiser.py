"""What the organisers' page of a season reads: its matchdays under way with their
fixtures and players (and when the next one opens), the last ones closed, the next
matchday to open and whether it may open now, and the season's players."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery

from games.models import Game, Result
from games.selectors.players import tables_players
from leagues.models import Entry, Fixture, FixtureSeat, Matchday, Season
from leagues.selectors.seasons import fixture_names

CLOSED_SHOWN = 3


@dataclass(frozen=True)
class FixtureLine:
    """A fixture with its seats named by who played them (who will, before a game)."""

    fixture: Fixture
    players: str


@dataclass(frozen=True)
class MatchdayLines:
    matchday: Matchday
    fixtures: list[FixtureLine]


@dataclass(frozen=True)
class OrganiserPage:
    season: Season
    open_matchdays: list[MatchdayLines]
    closed_matchdays: list[MatchdayLines]
    scheduled: int
    entries: list[Entry]
    next_matchday: Matchday | None
    """The first matchday still to open."""
    unfinished_before_next: int
    """Fixtures before it still to be played: none, and it may open now."""

    @property
    def may_open_next(self) -> bool:
        return self.next_matchday is not None and not self.unfinished_before_next


def _lines(matchdays: list[Matchday]) -> list[MatchdayLines]:
    fixtures = [fixture for day in matchdays for fixture in day.fixtures.all()]
    played = tables_players(f.table_id for f in fixtures if f.table_id is not None)

    def line(fixture: Fixture) -> FixtureLine:
        entries = [seat.entry for seat in fixture.seats.all()]
        names = fixture_names(entries, played.get(fixture.table_id or 0, []))
        return FixtureLine(fixture, ", ".join(names))

    return [MatchdayLines(day, [line(f) for f in day.fixtures.all()]) for day in matchdays]


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


def organiser_page(season: Season) -> OrganiserPage:
    matchdays = Matchday.objects.filter(season=season)
    # When the matchday after each opens: a deadline extended past it overlaps the two.
    following = matchdays.filter(number=OuterRef("number") + 1).values("opens_at")[:1]
    open_matchdays = matchdays.filter(status=Matchday.Status.OPEN).annotate(
        next_opens_at=Subquery(following)
    )
    next_matchday = next_to_open(season)
    return OrganiserPage(
        season=season,
        open_matchdays=_lines(list(_with_fixtures(open_matchdays.order_by("number")))),
        closed_matchdays=_lines(
            list(
                _with_fixtures(matchdays.filter(status=Matchday.Status.CLOSED).order_by("-number"))[
                    :CLOSED_SHOWN
                ]
            )
        ),
        scheduled=matchdays.filter(status=Matchday.Status.SCHEDULED).count(),
        # Who withdrew once the season was under way stays listed, as withdrawn: they
        # played in a division, and the standings keep their row.
        entries=list(
            Entry.objects.filter(season=season)
            .filter(
                Q(status=Entry.Status.REGISTERED)
                | Q(status=Entry.Status.WITHDRAWN, division__isnull=False)
            )
            .select_related("user", "substitute", "division")
            .order_by("division__level", "seed", "pk")
        ),
        next_matchday=next_matchday,
        unfinished_before_next=0 if next_matchday is None else unfinished_before(next_matchday),
    )


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
