"""The replay's analysis: beside each turn, the best play the solver finds for the
mover's rack as the turn began, and how the turn played compares.

The work is bounded: each turn gets the solver's budget of search steps
(``GAMES_ANALYSIS_STEPS``, with ``GAMES_ANALYSIS_SECONDS`` as a last stop), a member
runs one analysis at a time, on a worker (:mod:`games.solver_tasks`: the page shows
"thinking" and the answer is pushed), and every answer is kept in the cache: a finished game
never changes, so a turn is analysed once whoever looks at it. An answer the last stop
cut short is shown as such and not kept: it could differ with the server's load.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from django.core.cache import cache

from engine.solver import Budget, solve
from engine.tiles import format_tiles
from games.conf import analysis_seconds, analysis_steps
from games.selectors.replay import ReplayFrame, ShownSet, TurnStart, mark_new

CACHE_SECONDS = 7 * 86400
"""How long an analysis is kept (it never goes stale: the game is over)."""


@dataclass(frozen=True)
class TurnAnalysis:
    """The best play for the mover's rack at the start of a turn, beside what they did.

    ``best`` is empty when no play was possible (drawing was right). ``exact`` is
    False when the solver ran out of budget: the play is legal and the best it found.
    ``cut_short``: the wall-time last stop, not the steps, ended the search.
    """

    mover: str
    best: tuple[str, ...]
    best_value: int
    sets: tuple[ShownSet, ...]
    played: tuple[str, ...]
    played_value: int
    exact: bool
    cut_short: bool = False

    @property
    def was_best(self) -> bool:
        """The turn laid as many tiles, worth as much, as the best play."""
        return (len(self.played), self.played_value) >= (len(self.best), self.best_value)

    @property
    def missed(self) -> int:
        """How many more tiles the best play laid."""
        return max(0, len(self.best) - len(self.played))


def cached_analysis(frame: ReplayFrame) -> TurnAnalysis | None:
    """The analysis of the turn ``frame`` shows if it was worked out before (the page
    shows it at once; else a worker works it out: :func:`turn_analysis`)."""
    start = frame.turn_start
    if start is None:
        return None
    cached = cache.get(analysis_key(frame, start))
    return cached if isinstance(cached, TurnAnalysis) else None


def turn_analysis(frame: ReplayFrame) -> TurnAnalysis | None:
    """The analysis of the turn ``frame`` shows, ``None`` when it was no play (the deal,
    a resignation). The solver runs here: a worker's job (:mod:`games.solver_tasks`)."""
    start = frame.turn_start
    if start is None:
        return None
    key = analysis_key(frame, start)
    cached = cache.get(key)
    if isinstance(cached, TurnAnalysis):
        return cached
    solution = solve(
        start.table,
        start.rack,
        start.initial_meld_done,
        start.ruleset,
        budget=Budget(steps=analysis_steps(), seconds=analysis_seconds()),
    )
    analysis = TurnAnalysis(
        mover=frame.seats[start.seat].name,
        best=tuple(format_tiles(solution.played)),
        best_value=solution.value,
        sets=mark_new(start.table, solution.table_after, Counter(solution.played), start.ruleset),
        played=tuple(format_tiles(start.played)),
        played_value=sum(tile.face_value for tile in start.played),
        exact=solution.exact,
        cut_short=solution.cut_short,
    )
    if not analysis.cut_short:
        cache.set(key, analysis, CACHE_SECONDS)
    return analysis


def analysis_key(frame: ReplayFrame, start: TurnStart) -> str:
    """The game, the turn, and a digest of the position (a reused game id can never be
    answered with another game's analysis)."""
    position = repr((start.table, sorted(start.rack), start.initial_meld_done, start.ruleset))
    digest = hashlib.sha256(position.encode()).hexdigest()[:16]
    return f"games:analysis:{frame.game_id}:{frame.step}:{digest}"


def analysis_busy_key(user_id: int) -> str:
    """A member's mark while a worker analyses a turn for them: one at a time, across
    every process (:mod:`common.answers`); it lapses by itself after
    :func:`analysis_busy_seconds`."""
    return f"games:analysis-busy:{user_id}"


def analysis_busy_seconds() -> float:
    return analysis_seconds() * 3 + 5
