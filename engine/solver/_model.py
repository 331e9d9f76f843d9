"""The problem the search solves, in counts rather than tiles.

A :class:`Problem` says, for every colour ``c`` and number ``x``, how many copies come
from the table (all must be laid), how many from the rack (any number up to the
count, at least ``rack_min``), what a rack tile is worth to the objective, how many
jokers there are, which initial-meld rule applies and which locked joker sets pin
tiles in place. :mod:`engine.solver._search` finds the best way to lay it all out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NUMBERS = range(1, 14)
COLOURS = range(4)

NO_MELD, MELD_ALL, MELD_LAYER, MELD_SINGLE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class RunBlock:
    """A locked joker set read as a run: its tiles stay together, in place.

    ``need[x]`` is ``"block"`` (the set's own numbered tile stands at ``x``) or
    ``"joker"`` (its joker stands for number ``x``: kept, or replaced by the real
    tile). ``numbers`` are the numbers in run order; a wrapped block (13-1 wrap)
    lists the numbers from its low end round to its high end, e.g. 12, 13, 1.
    """

    colour: int
    numbers: tuple[int, ...]
    need: tuple[tuple[int, str], ...]

    @property
    def wrapped(self) -> bool:
        return self.numbers[0] > self.numbers[-1]

    def need_at(self, number: int) -> str | None:
        for x, need in self.need:
            if x == number:
                return need
        return None


@dataclass(frozen=True, slots=True)
class GroupSeed:
    """A table group whose numbered tiles must stay together (locked or both-missing).

    ``colours`` are its numbered tiles' colours (reserved), ``jokers`` its jokers.
    ``allowed`` lists the legal ends as ``(added colours bitmask, jokers in the group,
    tiles of the added colours that must come from the rack)``.
    """

    number: int
    colours: tuple[int, ...]
    jokers: int
    allowed: tuple[tuple[int, int, int], ...]


@dataclass(slots=True)
class Problem:
    """Counts per ``[colour][number]`` (index 0 unused) plus the rules that apply."""

    table: list[list[int]]
    rack: list[list[int]]
    rack_min: list[list[int]]
    jokers: int
    table_jokers: int
    jokers_min: int
    tile_score: list[int]
    joker_score: int
    meld_mode: int = NO_MELD
    meld_min: int = 0
    meld_value: list[int] = field(default_factory=lambda: [0] * 14)
    wrap: bool = False
    run_blocks: tuple[RunBlock, ...] = ()
    seeds: tuple[GroupSeed, ...] = ()
    rack_only: bool = False
    rack_jokers: int = 0

    def rack_bound(self) -> list[int]:
        """``bound[i]`` = score of every rack tile in cells ``i, i+1, ...`` (cell = 4x+c)."""
        cells = [0] * (4 * 15)
        for x in NUMBERS:
            for c in COLOURS:
                cells[4 * x + c] = self.rack[c][x] * self.tile_score[x]
        bound = [0] * (4 * 15 + 1)
        for i in range(4 * 15 - 1, -1, -1):
            bound[i] = bound[i + 1] + cells[i]
        return bound


def empty_counts() -> list[list[int]]:
    return [[0] * 14 for _ in COLOURS]
