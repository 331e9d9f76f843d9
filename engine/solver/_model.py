"""The problem the search solves, in counts rather than tiles.

A :class:`Problem` says, for every colour ``c`` and number ``x``, how many copies come
from the table (all must be laid), how many from the rack (any number up to the
count, at least ``rack_min``), what a rack tile is worth to the objective, how many
jokers there are, which initial-meld rule applies and which locked joker sets pin
tiles in place. :mod:`engine.solver._search` finds the best way to lay it all out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

NUMBERS = range(1, 14)
COLOURS = range(4)

NO_MELD, MELD_ALL, MELD_LAYER, MELD_SINGLE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class RunBlock:
    """The run that ends up holding one or more held table sets (see
    :mod:`engine.solver._variants`): a stretch of one colour a single lane must cover.

    ``numbers`` are the stretch in run order (a wrapped block, with 13-1 wrap, goes
    round: 12, 13, 1); ``need`` gives for each number ``"block"`` (a held numbered
    tile stands there), ``"joker"`` (only held jokers stand there: keep one, or lay the
    real tile) or ``"gap"`` (nothing held: the lane takes any tile). Joker numbers
    have a ``slot`` (0 or 1). ``members`` describe each held set as (bitmask of the
    slots of its jokers, whether one of its jokers' numbers holds a real tile anyway);
    ``released`` are such numbers (a held real tile stands where a joker stood).
    """

    colour: int
    numbers: tuple[int, ...]
    need: tuple[tuple[int, str], ...]
    slots: tuple[tuple[int, int], ...]
    members: tuple[tuple[int, bool], ...]
    released: tuple[int, ...] = ()

    @property
    def wrapped(self) -> bool:
        return self.numbers[0] > self.numbers[-1]

    def need_at(self, number: int) -> str | None:
        for x, need in self.need:
            if x == number:
                return need
        return None

    def slot_at(self, number: int) -> int:
        for x, slot in self.slots:
            if x == number:
                return slot
        return -1


@dataclass(frozen=True, slots=True)
class GroupSeed:
    """The group of one number that ends up holding one or more held table sets.

    ``colours`` are the held numbered tiles' colours (reserved); ``members`` describe
    each held set as (bitmask of its colours, its jokers, whether it is a 3-tile group
    with one joker under ``both_missing``); ``locked`` and ``rack_only`` are the rules.
    """

    number: int
    colours: tuple[int, ...]
    members: tuple[tuple[int, int, bool], ...]
    locked: bool
    rack_only: bool


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
    order: tuple[int, ...] = tuple(range(14))

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


def rotated(problem: Problem) -> Problem:
    """With 13-1 wrap the numbers form a circle: walk it from the cut where the fewest
    runs can cross (fewest tiles on both sides), so fewest runs come round from the
    end. Position ``p`` of the result is number ``order[p]`` of ``problem``."""
    if not problem.wrap:
        return problem

    def crossing(start: int) -> int:
        before = (start - 2) % 13 + 1
        return sum(
            min(
                problem.table[c][before] + problem.rack[c][before],
                problem.table[c][start] + problem.rack[c][start],
            )
            for c in COLOURS
        )

    start = min(NUMBERS, key=lambda s: (crossing(s), s))
    if start == 1:
        return problem
    order = (0, *((start - 1 + i) % 13 + 1 for i in range(13)))
    position = {x: p for p, x in enumerate(order)}

    def remap(row: list[int]) -> list[int]:
        return [row[x] for x in order]

    blocks = tuple(
        replace(
            block,
            numbers=tuple(position[x] for x in block.numbers),
            need=tuple((position[x], need) for x, need in block.need),
            slots=tuple((position[x], slot) for x, slot in block.slots),
            released=tuple(position[x] for x in block.released),
        )
        for block in problem.run_blocks
    )
    seeds = tuple(replace(seed, number=position[seed.number]) for seed in problem.seeds)
    return replace(
        problem,
        table=[remap(row) for row in problem.table],
        rack=[remap(row) for row in problem.rack],
        rack_min=[remap(row) for row in problem.rack_min],
        tile_score=remap(problem.tile_score),
        meld_value=remap(problem.meld_value),
        run_blocks=blocks,
        seeds=seeds,
        order=order,
    )
