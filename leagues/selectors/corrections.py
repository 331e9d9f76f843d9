"""The corrections of a season's results, for its standings page: which fixtures' games a
ruling changed, and for whom. Not why: a moderators' ruling's note is written for the
game's parties (the ruling form says so), and the standings are read by anyone who may
see the club; the page says a ruling corrected it, without its reasons.

A correction is a *current* result row that is not the played one (a ruling's row,
``source`` neither ``played`` nor ``restored``, the played result put back when the
ruling that changed it was undone): the result rows say it all, so this reads them only and
knows nothing of moderation (which writes them through ``games.services.results``).
An organiser's adjustment of a score writes such rows too, and is shown the same way:
a correction by a ruling of the club.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.models import Result
from games.selectors.results import AS_PLAYED
from leagues.models import Fixture, FixtureSeat, Season


@dataclass(frozen=True)
class SeatCorrection:
    """One seat of a corrected game: its player, its score before and after, and
    whether it wins the game now."""

    player: str
    before: int
    after: int
    is_winner: bool


@dataclass(frozen=True)
class Correction:
    """One game of a fixture whose result a ruling corrected."""

    fixture: int
    matchday: int
    game: int
    seats: tuple[SeatCorrection, ...]
    at: datetime


@dataclass
class SeasonCorrections:
    """A season's corrections by division level, and the entries whose score or win they
    changed (each gets a mark on its standings row; a seat whose place in the game alone
    moved, its points the same, is listed under the table but not marked)."""

    by_level: dict[int, list[Correction]]
    entries: set[int]


def season_corrections(season: Season) -> SeasonCorrections:
    """Every corrected game of the season's fixtures, in matchday order, in at most four
    queries (two when nothing was corrected)."""
    fixtures = {
        row["table_id"]: row
        for row in Fixture.objects.filter(matchday__season=season, table__isnull=False)
        .order_by()
        .values("pk", "table_id", "division__level", "matchday__number")
    }
    if not fixtures:
        return SeasonCorrections({}, set())
    rows = (
        Result.objects.current()
        .filter(game__table_id__in=list(fixtures))
        .exclude(source__in=AS_PLAYED)
        .select_related("game", "member")
        .order_by("game__table_id", "game__number", "seat")
    )
    games: dict[int, list[Result]] = defaultdict(list)
    for row in rows:
        games[row.game_id].append(row)
    if not games:  # the usual case: nothing corrected, nothing more to read
        return SeasonCorrections({}, set())
    entries_of = _entries_by_seat(
        fixtures[seats[0].game.table_id]["pk"] for seats in games.values()
    )
    earlier = _earlier_rows(games)
    by_level: dict[int, list[Correction]] = defaultdict(list)
    touched: set[int] = set()
    for seats in games.values():
        fixture = fixtures[seats[0].game.table_id]
        by_level[fixture["division__level"]].append(_correction(fixture, seats, earlier))
        for row in seats:
            entry = entries_of.get((fixture["pk"], row.seat))
            if entry is not None and _changed_what_counts(row, earlier):
                touched.add(entry)
    for corrections in by_level.values():
        corrections.sort(key=lambda c: (c.matchday, c.fixture, c.game))
    return SeasonCorrections(dict(by_level), touched)


def _entries_by_seat(fixture_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    seats = FixtureSeat.objects.filter(fixture_id__in=list(fixture_ids))
    return {
        (fixture_id, number): entry_id
        for fixture_id, number, entry_id in seats.order_by().values_list(
            "fixture_id", "number", "entry_id"
        )
    }


Earlier = Mapping[int, tuple[int, str, int | None, bool]]
"""Each result row of the corrected games by id: its score, source, the row it
supersedes, and whether it won."""


def _earlier_rows(games: Mapping[int, list[Result]]) -> Earlier:
    rows = Result.objects.filter(game_id__in=list(games)).order_by()
    return {
        pk: (score, source, supersedes, won)
        for pk, score, source, supersedes, won in rows.values_list(
            "pk", "score", "source", "supersedes_id", "is_winner"
        )
    }


def _correction(fixture: Mapping[str, Any], seats: list[Result], earlier: Earlier) -> Correction:
    newest = max(seats, key=lambda row: row.created_at)
    return Correction(
        fixture=fixture["pk"],
        matchday=fixture["matchday__number"],
        game=seats[0].game.number,
        seats=tuple(
            SeatCorrection(
                player=str(row.member) if row.member else f"Seat {row.seat + 1}",
                before=_before(row, earlier)[0],
                after=row.score,
                is_winner=row.is_winner,
            )
            for row in seats
        ),
        at=newest.created_at,
    )


def _before(row: Result, earlier: Earlier) -> tuple[int, bool]:
    """The score and win the seat had before the correction ``row`` carries: the row it
    supersedes, passing over the rows that kept the score and only voided the game or
    put a correction back (an undone void): the correction's "before" is what it
    changed, not the void in between.

    >>> rows = {1: (-20, "played", None, False), 2: (-5, "ruling", 1, True),
    ...         3: (-5, "void", 2, False)}
    >>> _before(Result(score=-5, supersedes_id=3), rows)
    (-20, False)
    >>> _before(Result(score=-7, supersedes_id=2), rows)
    (-5, True)
    """
    pk = row.supersedes_id
    while pk is not None:
        score, source, supersedes, won = earlier[pk]
        if score != row.score or source == Result.Source.PLAYED or supersedes is None:
            return score, won
        pk = supersedes
    return row.score, row.is_winner


def _changed_what_counts(row: Result, earlier: Earlier) -> bool:
    """Whether the correction changed the seat's score or win (what its standings row
    adds up), not only its place in the game."""
    return _before(row, earlier) != (row.score, row.is_winner)
