"""A finished game's result as it counts now: one shape for the game page's result and
the scoreboard's rows, read from the game's current result rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.state import Termination
from games.models import Game, Result

AS_PLAYED = (Result.Source.PLAYED, Result.Source.RESTORED)
"""The sources of rows that say what was played (a correction undone restores them)."""


@dataclass(frozen=True)
class GameResult:
    """A game's current result rows by seat (``ruled`` when a ruling changed them since
    the game was played), and how it ended as played (``termination``)."""

    termination: Termination
    winner: int | None
    rack_values: tuple[int, ...]
    scores: tuple[int, ...]
    ruled: bool
    void: bool


def game_result(game: Game, rows: Sequence[Result] | None = None) -> GameResult | None:
    """``game``'s result, ``None`` while it has none. ``rows``: its current result rows
    in seat order, if already read (the scoreboard reads a round's at once)."""
    if game.outcome is None:
        return None
    if rows is None:
        rows = list(Result.objects.current().of_game(game).order_by("seat"))
    if not rows:
        return None
    return GameResult(
        termination=Termination(game.outcome["termination"]),
        winner=next((row.seat for row in rows if row.is_winner), None),
        rack_values=tuple(row.rack_value for row in rows),
        scores=tuple(row.score for row in rows),
        ruled=any(row.source not in AS_PLAYED for row in rows),
        void=any(row.source == Result.Source.VOID for row in rows),
    )
