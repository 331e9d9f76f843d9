"""Whether a turn has any legal play at all: the proof behind a forced turn.

A member may ask for their forced turns to play themselves (the draw made for them).
That must never cost them a play, so the answer here is one of three, and only
``"none"`` lets a draw be made: the exact solver searched the whole turn within its
budget and found nothing legal. A budget that ran out (or a wall-time ceiling that cut
the search short) is ``"unknown"``, never "none".

Before the initial meld a turn has a play exactly when the rack alone holds a meld
that reaches the minimum (RULES.md R5: the meld is made of sets from the rack, and
with same-turn manipulation the sets made only of rack tiles are what must reach it),
so the table is left out of that search; after it, the table and the rack are solved
together under every option of the table's ruleset.

>>> from engine.game import new_game
>>> from engine.ruleset import Ruleset
>>> from engine.views import view_for
>>> state = new_game(Ruleset(players=2), seed=3, starting_player=0)
>>> check = check_for_play(view_for(state, 0), Budget(steps=200_000))
>>> check.answer, check.forced
('none', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.ruleset import Ruleset
from engine.solver import Budget, Solution, solve
from engine.tiles import Tile
from engine.views import PlayerView

Answer = Literal["play", "none", "unknown", "not_judged"]


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """What the solver could tell of a turn.

    ``answer``: ``"play"`` (a legal play was found; the verdict accepts it),
    ``"none"`` (proven: no legal play), ``"unknown"`` (the budget ran out first) or
    ``"not_judged"`` (a turn this check does not decide: not the viewer's, the River's,
    or one where drawing is not allowed). ``steps``: the solver's work.
    """

    answer: Answer
    steps: int = 0
    why: str = ""

    @property
    def forced(self) -> bool:
        """Whether the only thing the player can do is draw, proven."""
        return self.answer == "none"


def check_for_play(view: PlayerView, budget: Budget) -> PlayCheck:
    """Whether the viewer of ``view``, whose turn it is, has any legal play.

    Only a single-draw turn where drawing is allowed is judged: the River's turns
    have more to them than a draw (a take, a discard), and with the pool empty the
    turn is a pass, not a draw.
    """
    if view.player is None or view.rack is None or view.current_player != view.player:
        return PlayCheck("not_judged", why="not the viewer's turn")
    if view.ruleset.draw_mode != "single":
        return PlayCheck("not_judged", why="the River's turns are not only draws")
    if "draw" not in view.actions:
        return PlayCheck("not_judged", why="drawing is not allowed now")
    return has_play(
        view.table, view.rack, view.initial_meld_done[view.player], view.ruleset, budget
    )


def has_play(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    meld_done: bool,
    rules: Ruleset,
    budget: Budget,
) -> PlayCheck:
    """Whether a player holding ``rack`` (``meld_done``: their initial meld is down) has
    any legal play on ``table`` under ``rules``: ``"play"``, ``"none"`` (proven) or
    ``"unknown"`` (the budget ran out first).

    >>> from engine.tiles import parse_tiles
    >>> has_play((parse_tiles(["R1", "R2", "R3"]),), parse_tiles(["R4"]), True, Ruleset(),
    ...          Budget(steps=1000)).answer
    'play'
    >>> has_play((), parse_tiles(["R1", "R2", "R3"]), False, Ruleset(), Budget(steps=1000)).answer
    'none'
    """
    if meld_done:
        solution = solve(table, rack, True, rules, budget=budget)
    else:
        # The meld is judged on rack tiles only, whatever the table holds (see the module).
        rack_only = replace(rules, initial_meld_same_turn_manipulation=False)
        solution = solve((), rack, False, rack_only, budget=budget)
    return _answer(solution)


def _answer(solution: Solution) -> PlayCheck:
    if solution.n:
        return PlayCheck("play", solution.steps)
    if solution.exact and not solution.cut_short:
        return PlayCheck("none", solution.steps)
    return PlayCheck("unknown", solution.steps, why="the budget ran out before a proof")
