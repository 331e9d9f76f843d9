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
(:mod:`._lanes`, :mod:`._search`), and the sets are rebuilt from its steps
(:mod:`._build`). Rack tiles that cannot be in any set are dropped first; if the rest
can all be laid, that is the answer; otherwise the programme runs with a floor that is
lowered until a play above it is found, which is then the best.
"""

from __future__ import annotations

from engine.ruleset import Ruleset
from engine.solver._api import Objective, Solution, arrange, solve

__all__ = ["Objective", "Solution", "arrange", "solve"]

_ = Ruleset
