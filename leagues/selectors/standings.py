"""Reads for the standings pages and exports: a season's results, fed to
:mod:`leagues.standings`.

A season's standings take a fixed number of queries whatever its size (the season,
its divisions, its entries, its fixtures, their seats, and the current result rows of
their tables): a result row counts for the entry that the fixture's seat of that
number names (:class:`~leagues.models.FixtureSeat`), so a bot or a substitute playing
the seat plays it for the entry.

**Cache.** The computed standings of a season are cached (Django's cache), and so is
each division's rendered crosstable, so that open pages refreshing at once after a game
share one computation. :func:`forget_season` is the one way to drop them, and only
:func:`leagues.receivers.refresh_standings` calls it: a writer announces its fact
(:mod:`leagues.signals`; a game's end or a ruling is a fact of :mod:`games.signals`),
and :data:`leagues.signals.season_changed` follows once per season per transaction,
after its commit. A writer never forgets the cache itself.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404

from accounts.models import User
from engine.sets import rack_value
from engine.tiles import full_set
from games.models import Result
from games.models.table_settings import TableSettings
from games.selectors.players import GamePlayers, tables_players
from leagues.models import Club, Division, Entry, Fixture, FixtureSeat, Membership, Season
from leagues.standings import (
    FixtureResults,
    GameResult,
    Player,
    Rules,
    Standings,
    close_places,
    compute,
)

CACHE_SECONDS = 3600
DONE = (Fixture.Status.FINISHED, Fixture.Status.SETTLED)


def can_view(user: User | AnonymousUser, club: Club) -> bool:
    """A public club's pages are for anyone; a private club's for its members only."""
    if not club.is_private:
        return True
    return user.is_authenticated and Membership.objects.filter(club=club, user=user).exists()


def visible_season(
    user: User | AnonymousUser, club_slug: str, league_slug: str, number: int
) -> Season:
    """The season, if ``user`` may see it; else 404 (an outsider learns nothing of a
    private club, not even that it exists)."""
    if not 1 <= number <= 32767:  # a season number is a small integer
        raise Http404("No such season.")
    season = (
        Season.objects.select_related("league__club")
        .filter(league__club__slug=club_slug, league__slug=league_slug, number=number)
        .first()
    )
    if season is None or not can_view(user, season.league.club):
        raise Http404("No such season.")
    return season


def league_seasons(season: Season) -> list[tuple[int, str]]:
    """Every season of ``season``'s league, newest first: number and status label."""
    seasons = Season.objects.filter(league_id=season.league_id).order_by("-number")
    return [(s.number, s.get_status_display()) for s in seasons.only("number", "status")]


def season_rules(season: Season) -> Rules:
    """How ``season`` counts, from its house rules and its ruleset.

    A seat's score in one game is bounded by the value of every tile of the set (under
    the ruleset's scoring values and joker penalty): the losers' racks hold at most
    all the tiles between them, and the winner gains at most what they hold.
    """
    ruleset = TableSettings.from_dict(season.table_settings).ruleset(players=season.seats)
    everything = sum(rack_value(tile, ruleset) for tile in full_set())
    lowest = 0 if ruleset.score_mode == "penalty_only" else -everything
    return Rules(
        scoring=season.scoring,
        score_mode=ruleset.score_mode,
        placement_points=tuple(season.placement_points or ()),
        tiebreaks=tuple(dict.fromkeys(season.tiebreaks or ())),
        game_score_bounds=(lowest, everything),
        per_game=season.per_game,
    )


@dataclass
class DivisionStandings:
    """One division's table, and which computation it comes from (``computed``, a
    fresh token each time the season is computed: it names the cached crosstable)."""

    level: int
    name: str
    standings: Standings
    computed: str = ""


@dataclass
class GameLine:
    """One seat of one finished game, for the results export."""

    matchday: int
    division: str
    fixture: int
    table: int | None
    """The fixture's table, the number its pages show (``None`` before it is set up)."""
    game: int
    seat: int
    player: str
    score: int
    place: int
    is_winner: bool
    source: str


ResultLine = tuple[int, int, int, int, int, bool, str]
"""One current result row: table, game number, seat, score, place, winner?, source."""


@dataclass
class SeasonData:
    """What a season's results are made of, loaded in a fixed number of queries."""

    divisions: list[Division]
    entries: dict[int, Entry]
    fixtures: Sequence[Mapping[str, Any]]
    seats: dict[int, dict[int, int]] = field(default_factory=dict)
    results: dict[int, list[ResultLine]] = field(default_factory=dict)
    """Current rows by table, ordered by game number then seat."""


def load_season(season: Season, results: bool = True, division_id: int | None = None) -> SeasonData:
    """The season's data; ``results=False``: without the result rows (read a part at
    a time with :func:`current_results`); ``division_id``: that division's alone."""
    one = {} if division_id is None else {"pk": division_id}
    divisions = list(Division.objects.filter(season=season, **one).order_by("level"))
    placed = Entry.objects.filter(season=season, division__isnull=False)
    fixtures_of = Fixture.objects.filter(matchday__season=season)
    seats_of = FixtureSeat.objects.filter(fixture__matchday__season=season)
    if division_id is not None:
        placed = placed.filter(division_id=division_id)
        fixtures_of = fixtures_of.filter(division_id=division_id)
        seats_of = seats_of.filter(fixture__division_id=division_id)
    entries = {entry.pk: entry for entry in placed.order_by().select_related("user", "substitute")}
    fixtures = list(
        fixtures_of.order_by("matchday__number", "pk").values(
            "pk", "division_id", "status", "table_id", "table__games_in_round", "matchday__number"
        )
    )
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    # No ordering: the models' default orderings, followed through the joins, are
    # needless work here (and Django refuses the cycle they make).
    for fixture_id, number, entry_id in seats_of.order_by().values_list(
        "fixture_id", "number", "entry_id"
    ):
        seats[fixture_id][number] = entry_id
    tables = [fixture["table_id"] for fixture in fixtures if fixture["table_id"]]
    rows = current_results(tables) if results else {}
    return SeasonData(divisions, entries, fixtures, dict(seats), rows)


def current_results(tables: Sequence[int]) -> dict[int, list[ResultLine]]:
    """The current result rows of ``tables`` by table, ordered by game then seat.

    By the fixtures' table ids, read before: the planner then goes straight to the games
    of those tables instead of joining results to fixtures and matchdays (which it
    misjudges, the "current rows" anti-join hiding how many rows come)."""
    results: dict[int, list[ResultLine]] = defaultdict(list)
    rows = (
        Result.objects.current()
        .filter(game__table_id__in=tables)
        .order_by("game__table_id", "game__number", "seat")
        .values_list(
            "game__table_id", "game__number", "seat", "score", "place", "is_winner", "source"
        )
    )
    for row in rows:
        results[row[0]].append(row)
    return dict(results)


def _games(rows: list[ResultLine]) -> list[GameResult]:
    """The games of one table, from its rows (ordered by game, then seat), in one pass."""
    games = []
    # A voided game's rows (source void) count for nobody: the standings skip them, the
    # results export lists them as void.
    counting = (row for row in rows if row[6] != Result.Source.VOID)
    for _, seats in groupby(counting, key=itemgetter(1)):
        scores, places, winner = {}, {}, None
        for _, _, seat, score, place, is_winner, _ in seats:
            scores[seat] = score
            places[seat] = place
            if is_winner:
                winner = seat
        games.append(GameResult(scores, places, winner))
    return games


def _name(entry: Entry) -> str:
    return entry.label


def _played_by(record: GamePlayers | None, seat: int, entry: Entry | None) -> str:
    """Who played ``seat`` of a game, as its record names them ("Frank", "Hank for Frank")."""
    if record is not None and seat < len(record.seats):
        return record.names[seat]
    return _name(entry) if entry is not None else ""


def compute_season(season: Season, division_id: int | None = None) -> list[DivisionStandings]:
    """Each division's standings, top division first (no cache); ``division_id``: that
    division's alone (a division's standings depend on its own fixtures only)."""
    data = load_season(season, division_id=division_id)
    rules = season_rules(season)
    default_games = TableSettings.from_dict(season.table_settings).games_for(season.seats)
    by_division: dict[int, list[FixtureResults]] = defaultdict(list)
    for fixture in data.fixtures:
        rows = data.results.get(fixture["table_id"], []) if fixture["table_id"] else []
        by_division[fixture["division_id"]].append(
            FixtureResults(
                key=fixture["pk"],
                seats=data.seats.get(fixture["pk"], {}),
                games=_games(rows),
                games_to_play=fixture["table__games_in_round"] or default_games,
                complete=fixture["status"] in DONE,
                matchday=fixture["matchday__number"],
            )
        )
    players: dict[int, list[Player]] = defaultdict(list)
    for entry in data.entries.values():
        withdrawn = entry.status == Entry.Status.WITHDRAWN
        players[entry.division_id].append(Player(entry.pk, _name(entry), withdrawn))  # type: ignore[index]
    computed = uuid.uuid4().hex
    divisions = [
        DivisionStandings(
            division.level,
            division.name,
            compute(players[division.pk], by_division[division.pk], rules),
            computed,
        )
        for division in data.divisions
    ]
    if season.status == Season.Status.FINISHED:
        # The places fixed at the close, as the players were told them (a player who
        # withdrew got none), whatever a later ruling did to the points.
        final = {entry.pk: entry.final_rank for entry in data.entries.values()}
        for division in divisions:
            close_places(division.standings, final)
    return divisions


def cache_key(season_id: int) -> str:
    return f"leagues:standings:{season_id}"


def season_standings(season: Season) -> list[DivisionStandings]:
    """:func:`compute_season`, cached until :func:`forget_season`."""
    key = cache_key(season.pk)
    cached = cache.get(key)
    if cached is None:
        cached = compute_season(season)
        cache.set(key, cached, CACHE_SECONDS)
    return cached  # type: ignore[no-any-return]


def division_standings(season: Season, level: int) -> DivisionStandings:
    """One division of :func:`season_standings`; 404 if the season has no such level."""
    for division in season_standings(season):
        if division.level == level:
            return division
    raise Http404("No such division.")


def crosstable_key(season_id: int, division: DivisionStandings) -> str:
    """The cache key of a division's rendered crosstable. It names the computation the
    crosstable comes from, so forgetting the season's standings retires it too (the
    next computation has a new token; the old entry expires unread)."""
    return f"leagues:crosstable:{season_id}:{division.level}:{division.computed}"


def forget_season(season_id: int) -> None:
    """Drop everything cached of a season's standings: the one entry point, called by
    the receiver of :data:`leagues.signals.season_changed` after the fact's commit (a
    page that read the old rows before the commit and cached them loses that copy)."""
    cache.delete(cache_key(season_id))


FIXTURES_A_PART = 500
"""Fixtures whose results :func:`season_result_lines` reads at a time: the export's
memory and its first byte stay the same whatever the season's size."""


def season_results(season: Season) -> list[GameLine]:
    """Every seat of every finished game of the season, in matchday and game order."""
    return list(season_result_lines(season))


def season_result_lines(season: Season) -> Iterator[GameLine]:
    """:func:`season_results`, made as they are read: the season's fixtures, seats and
    entries first, then the results and players of :data:`FIXTURES_A_PART` fixtures at
    a time (three queries a part)."""
    data = load_season(season, results=False)
    divisions = {division.pk: division.name for division in data.divisions}
    for start in range(0, len(data.fixtures), FIXTURES_A_PART):
        part = data.fixtures[start : start + FIXTURES_A_PART]
        tables = [f["table_id"] for f in part if f["table_id"]]
        if tables:
            yield from _result_lines(data, divisions, part, current_results(tables))


def _result_lines(
    data: SeasonData,
    divisions: Mapping[int, str],
    fixtures: Sequence[Mapping[str, Any]],
    results: Mapping[int, list[ResultLine]],
) -> Iterator[GameLine]:
    rounds = tables_players(f["table_id"] for f in fixtures if f["table_id"])
    for fixture in fixtures:
        seats = data.seats.get(fixture["pk"], {})
        played = rounds.get(fixture["table_id"], [])
        for _, game, seat, score, place, is_winner, source in (
            results.get(fixture["table_id"], []) if fixture["table_id"] else []
        ):
            entry = data.entries.get(seats.get(seat, -1))
            record = played[game - 1] if game <= len(played) else None
            yield GameLine(
                matchday=fixture["matchday__number"],
                division=divisions.get(fixture["division_id"], ""),
                fixture=fixture["pk"],
                table=fixture["table_id"],
                game=game,
                seat=seat,
                player=_played_by(record, seat, entry),
                score=score,
                place=place,
                is_winner=is_winner,
                source=source,
            )


def viewer_entries(user: User | AnonymousUser, season: Season) -> set[int]:
    """The entries of ``season`` that ``user`` plays, as its player or its substitute
    now: their rows are marked on the standings page."""
    if not user.is_authenticated:
        return set()
    return set(
        Entry.objects.filter(season=season)
        .filter(Q(user_id=user.pk) | Q(substitute_id=user.pk))
        .values_list("pk", flat=True)
    )
