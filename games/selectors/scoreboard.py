"""The scoreboard of a round: each game's scores, the totals and the standings, all read
from the games' current result rows (:class:`~games.models.ResultQuerySet`), ranked by
the engine's :class:`~engine.round.Tally`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max

from engine.round import Tally
from games.models import Move, Result, Table
from games.selectors.players import table_seat_names
from games.selectors.results import GameResult, game_result


@dataclass(frozen=True)
class ScoreRow:
    """One game of the round: its result once it is over (``None`` before), and when
    its last move was made (``None`` before its first)."""

    game_id: int
    number: int
    is_over: bool
    result: GameResult | None
    last_move_at: datetime | None = None


@dataclass(frozen=True)
class StandingRow:
    """One seat's line in the round's standings, best first."""

    seat: int
    name: str
    total: int
    wins: int
    place: int


@dataclass(frozen=True)
class Scoreboard:
    names: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    standings: tuple[StandingRow, ...]
    games_in_round: int
    is_over: bool
    winner_name: str | None
    penalty_only: bool


def scoreboard(table: Table) -> Scoreboard:
    """The round so far: each game's scores, the totals and the standings."""
    names = tuple(table_seat_names(table.pk))
    results = Result.objects.current().of_table(table)
    by_game: dict[int, list[Result]] = defaultdict(list)
    for row in results.order_by("game", "seat"):
        by_game[row.game_id].append(row)
    last_moves: dict[int, datetime] = dict(
        Move.objects.filter(game__table=table)
        .values("game")
        .annotate(at=Max("created_at"))
        .values_list("game", "at")
    )
    rows = [
        ScoreRow(
            game.pk,
            game.number,
            game.is_over,
            game_result(game, by_game.get(game.pk, [])),
            last_moves.get(game.pk),
        )
        for game in table.games.order_by("number")
    ]
    # A voided game is listed with its scores but adds nothing to the totals.
    tally = Result.objects.counting().of_table(table).tally(table)
    is_over = table.status == Table.Status.FINISHED
    winner = tally.winner if is_over else None
    return Scoreboard(
        names=names,
        rows=tuple(rows),
        totals=tally.totals,
        standings=_standings(tally, names) if table.round is not None else (),
        games_in_round=table.games_in_round,
        is_over=is_over,
        winner_name=None if winner is None else names[winner],
        penalty_only=table.engine_ruleset().score_mode == "penalty_only",
    )


def _standings(tally: Tally, names: Sequence[str]) -> tuple[StandingRow, ...]:
    places = tally.places
    return tuple(
        StandingRow(seat, names[seat], tally.totals[seat], tally.wins[seat], places[seat])
        for seat in tally.standings
    )
