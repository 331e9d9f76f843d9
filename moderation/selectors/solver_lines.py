"""The solver's answer to each turn of a case's game: what the mover could have laid,
beside what they did ("could have laid 6 tiles for 45 points; drew instead").

Bounded like the players' hint (:mod:`games.services.help`): each turn gets
``MODERATION_EVIDENCE_TURN_STEPS`` search steps (past them, the best play found, said
as "at least"), so a line is the same whatever the server's load;
``MODERATION_EVIDENCE_TURN_SECONDS`` is only a last stop, and a line it stops says it
was cut short and is not kept. One request of the evidence has
``MODERATION_EVIDENCE_SECONDS`` in all (a turn begun finishes its steps);
the page asks again for the turns left over, so a long game's lines fill in while the
moderator reads instead of holding the page back. Answers are cached by position (the
table, the mover's rack, whether they had melded, the rules), so a second opening, or
another case of the same game, asks the solver nothing; and one computation per game
runs at a time (a second opening meanwhile shows what is cached).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from engine.solver import Budget, solve
from engine.tiles import format_tiles
from moderation.selectors.turns import TurnReplay, laid_value

_CACHE_SECONDS = 7 * 24 * 3600
"""A position's answer never changes; a week keeps a case's evidence warm while open."""

_INSTEAD = {
    "draw": "drew instead",
    "discard": "drew instead",
    "pass": "passed instead",
    "timeout": "let the clock run out instead",
}


@dataclass(frozen=True)
class Answer:
    """The solver's best play for a position: tiles laid, their table value (a joker
    worth the tile it stands for), proven best or not, and whether the wall-time last
    stop cut the search short."""

    tiles: tuple[str, ...]
    value: int
    exact: bool
    cut_short: bool = False


@dataclass(frozen=True)
class SolverLine:
    """The solver's answer beside what the mover did, in a sentence."""

    answer: Answer
    sentence: str
    missed: bool
    """The mover laid fewer tiles than they could have (drew, passed or played less)."""


@dataclass(frozen=True)
class SolverLines:
    lines: dict[int, SolverLine]
    """By turn step."""
    pending: int
    """Turns not yet answered (the time of this opening ran out): the next opening goes on."""


def solver_lines(
    turns: Sequence[TurnReplay], game_id: int, seconds: float | None = None
) -> SolverLines:
    """Each turn's line, from the cache where answered before, else from the solver
    within ``seconds`` (default ``MODERATION_EVIDENCE_SECONDS``; 0: the cache only)."""
    asked = [turn for turn in turns if turn.is_choice]
    keys = {turn.step: position_key(turn) for turn in asked}
    known: dict[str, Answer] = {
        key: value
        for key, value in cache.get_many(list(keys.values())).items()
        if isinstance(value, Answer)
    }
    missing = [turn for turn in asked if keys[turn.step] not in known]
    total = float(settings.MODERATION_EVIDENCE_SECONDS) if seconds is None else seconds
    if missing and total > 0:
        known |= _answer(missing, keys, game_id, total)
    lines = {
        turn.step: line(turn, known[keys[turn.step]]) for turn in asked if keys[turn.step] in known
    }
    return SolverLines(lines, pending=len(asked) - len(lines))


def _answer(
    turns: Sequence[TurnReplay], keys: dict[int, str], game_id: int, total: float
) -> dict[str, Answer]:
    """Ask the solver about ``turns`` while ``total`` seconds last (a turn begun is
    finished); cache each answer."""
    busy = f"moderation:lines-busy:{game_id}"
    turn_seconds = float(settings.MODERATION_EVIDENCE_TURN_SECONDS)
    if not cache.add(busy, 1, timeout=int(total * 2 + turn_seconds) + 5):
        return {}
    found: dict[str, Answer] = {}
    deadline = time.monotonic() + total
    try:
        for turn in turns:
            if time.monotonic() >= deadline:
                break
            found[keys[turn.step]] = best_answer(turn)
        # A line cut short could differ on a quieter server: the next opening asks again.
        cache.set_many({k: a for k, a in found.items() if not a.cut_short}, _CACHE_SECONDS)
    finally:
        cache.delete(busy)
    return found


def best_answer(turn: TurnReplay) -> Answer:
    """The solver's best play for the mover at the start of ``turn``, its value counted
    as the mover's own play is (a joker worth the tile it stands for)."""
    state = turn.state_before
    seat = turn.mover
    solution = solve(
        state.table,
        state.racks[seat],
        state.initial_meld_done[seat],
        state.ruleset,
        budget=Budget(
            steps=int(settings.MODERATION_EVIDENCE_TURN_STEPS),
            seconds=float(settings.MODERATION_EVIDENCE_TURN_SECONDS),
        ),
    )
    value = laid_value(solution.table_after, Counter(solution.played), state.ruleset)
    played = tuple(format_tiles(solution.played))
    return Answer(played, value, solution.exact, solution.cut_short)


def line(turn: TurnReplay, answer: Answer) -> SolverLine:
    """The answer beside what the mover did, in a sentence."""
    best = len(answer.tiles)
    at_least = "" if answer.exact else "at least "
    cut = " (cut short: the server was busy)" if answer.cut_short else ""
    could = f"{at_least}{_tiles(best)} for {answer.value} points{cut}"
    if turn.kind in ("play", "river"):
        did = f"laid {_tiles(turn.played)} for {turn.played_value} points"
        if (turn.played, turn.played_value) >= (best, answer.value):
            return SolverLine(answer, f"{did}: the best play{cut}", missed=False)
        return SolverLine(answer, f"{did}; could have laid {could}", missed=True)
    if best == 0:
        none = "had no play" if answer.exact else "no play found within the solver's steps"
        if answer.cut_short:
            none = "no play found before the solver was cut short (the server was busy)"
        did = _INSTEAD.get(turn.kind, "").replace(" instead", "")
        return SolverLine(answer, f"{none}; {did}" if did else none, missed=False)
    return SolverLine(
        answer, f"could have laid {could}; {_INSTEAD.get(turn.kind, 'did not')}", missed=True
    )


def position_key(turn: TurnReplay) -> str:
    state, seat = turn.state_before, turn.mover
    position = repr(
        (state.table, sorted(state.racks[seat]), state.initial_meld_done[seat], state.ruleset)
    )
    # "line2": the values count jokers now; answers cached before did not.
    return "moderation:line2:" + hashlib.sha256(position.encode()).hexdigest()[:24]


def _tiles(count: int) -> str:
    return f"{count} tile{'s' if count != 1 else ''}"
