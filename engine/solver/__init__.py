"""The exact solver: the best play from a rack, and "arrange for me".

:func:`solve` finds a legal play that lays the most rack tiles (ties: the highest face
value), or the highest face value (ties: the most tiles), and proves it is best.
:func:`arrange` lays out the table with a chosen set of rack tiles added, keeping
table sets untouched where it can.

>>> from engine.tiles import parse_tiles, format_tiles
>>> from engine.ruleset import Ruleset
>>> s = solve([parse_tiles(["R5", "R6", "R7", "R8"])], parse_tiles(["J", "R9", "B2"]),
...           True, Ruleset())
>>> format_tiles(s.played), s.n, s.value
(['R9', 'J'], 2, 9)
>>> [format_tiles(t) for t in s.table_after]
[['J', 'R5', 'R6', 'R7', 'R8', 'R9']]
>>> solve([], parse_tiles(["R9", "R10", "B3"]), False, Ruleset()).n
0

How it works: the tiles become counts per colour and number (:mod:`._model`); a
dynamic programme walks up the numbers 1..13 keeping, per colour, the runs still open
(:mod:`._lanes`; their moves at one number: :mod:`._options`; the packed search keys:
:mod:`._registry`; groups at the end of a number: :mod:`._ends`; the search itself:
:mod:`._search`), and the sets are rebuilt from its steps (:mod:`._build`). Table sets
that the joker variants hold together are fixed in place first (:mod:`._variants`).

The strategy (:mod:`._api`): rack tiles that cannot be in any set are dropped; a
depth-first search tries to lay all the rest, and if it can, that is the answer;
otherwise the programme runs breadth first with a floor under the score, lowered
until a play above it is found, which is then the best (no state of a better play was
ever cut). States are pruned when they cannot beat the floor, when their runs cannot
be served by the tiles left, or when another state can do everything they can.

Bounded work (:mod:`._budget`): ``solve`` and ``arrange`` take a :class:`Budget`:
search steps, and wall-clock seconds as a last stop only. A step is one search state
taken up, so the same position under the same budget gets the same answer, after the
same steps, on any machine and under any load. ``solve`` spends 30% of the steps on
the exact strategy above; if that does not finish, the rest goes to finding a good
legal play: the best play of new sets from the rack alone, then depth first over the
whole problem with a floor raised by every play found. The answer is marked
``exact=False`` unless that search proved it best, and every such play is checked
with the turn verdict; it says the ``steps`` it took, and ``cut_short`` when the
ceiling of seconds stopped it instead (then, only, the answer can depend on the
machine). ``arrange`` raises :class:`OutOfBudget` when it cannot tell in its budget.
A caller may refuse the solver for the code it runs (:func:`refused`: the site's web
requests) and lift that again (:func:`allowed`: a worker's task); see :mod:`._guard`.
A :class:`Meter` given instead of a budget is spent by several calls in turn (a bot's
turn).

>>> s = solve([parse_tiles(["R5", "R6", "R7"])], parse_tiles(["R8"]), True, Ruleset(),
...           budget=Budget(steps=100_000, seconds=20))
>>> format_tiles(s.played), s.exact, s.steps, s.cut_short
(['R8'], True, 73, False)
"""

from __future__ import annotations

from engine.solver._api import Objective, Solution, arrange, solve
from engine.solver._budget import Budget, Meter, OutOfBudget
from engine.solver._guard import SolverRefused, allowed, refused

__all__ = [
    "Budget",
    "Meter",
    "Objective",
    "OutOfBudget",
    "Solution",
    "SolverRefused",
    "allowed",
    "arrange",
    "refused",
    "solve",
]
