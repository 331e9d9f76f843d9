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
    """Every corrected game of the season's fixtures, in matchday order, in at most three
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
        .select_related("game", "member", "supersedes")
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
    by_level: dict[int, list[Correction]] = defaultdict(list)
    touched: set[int] = set()
    for seats in games.values():
        fixture = fixtures[seats[0].game.table_id]
        by_level[fixture["division__level"]].append(_correction(fixture, seats))
        for row in seats:
            entry = entries_of.get((fixture["pk"], row.seat))
            if entry is not None and _changed_what_counts(row):
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


def _correction(fixture: Mapping[str, Any], seats: list[Result]) -> Correction:
    newest = max(seats, key=lambda row: row.created_at)
    return Correction(
        fixture=fixture["pk"],
        matchday=fixture["matchday__number"],
        game=seats[0].game.number,
        seats=tuple(
            SeatCorrection(
                player=str(row.member) if row.member else f"Seat {row.seat + 1}",
                before=_played_score(row),
                after=row.score,
                is_winner=row.is_winner,
            )
            for row in seats
        ),
        at=newest.created_at,
    )


def _changed_what_counts(row: Result) -> bool:
    """Whether the correction changed the seat's score or win (what its standings row
    adds up), not only its place in the game."""
    won = row.supersedes.is_winner if row.supersedes is not None else row.is_winner
    return _played_score(row) != row.score or won != row.is_winner


def _played_score(row: Result) -> int:
    """The score the seat had before this row (the row it supersedes)."""
    return row.supersedes.score if row.supersedes is not None else row.score
