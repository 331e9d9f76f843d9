"""Public entry points of the solver: :func:`solve` and :func:`arrange`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.ruleset import Ruleset
from engine.sets import house_value
from engine.solver._build import build
from engine.solver._model import (
    MELD_ALL,
    MELD_LAYER,
    MELD_SINGLE,
    NO_MELD,
    Problem,
    empty_counts,
    rotated,
)
from engine.solver._search import Found, GaveUp, Search
from engine.solver._variants import Fixing, fixings
from engine.tiles import COLOURS, JOKER, Tile

Objective = Literal["tiles", "value"]
TileSet = tuple[Tile, ...]

_TILE_WEIGHT = 1024  # > any face value total, so tiles come first
_VALUE_WEIGHT = 128  # > any tile count, so value comes first
_MAX_TRIES = 8  # near sets "arrange" tries to keep one by one
_DEPTH_FIRST_BUDGET = 200  # numbers expanded before "can all be laid?" defers to the probes


@dataclass(frozen=True, slots=True)
class Solution:
    """The best play found by :func:`solve`.

    ``played`` are the rack tiles laid (sorted), ``table_after`` the whole table after
    the play, ``n`` the number of rack tiles laid (jokers included) and ``value`` the
    face value of the numbered tiles laid. Nothing legal: ``played`` is empty and
    ``table_after`` is the table as it was.
    """

    played: tuple[Tile, ...]
    table_after: tuple[TileSet, ...]
    n: int
    value: int


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
    objective: Objective = "tiles",
) -> Solution:
    """The best legal play, provably.

    ``objective="tiles"``: most rack tiles laid, then highest face value; ``"value"``:
    highest face value, then most tiles. Before the initial meld only new sets from
    the rack count, and they must reach ``ruleset.initial_meld_min``.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> s = solve([], parse_tiles(["R10", "R11", "R12", "K1", "B1", "O1"]), False, Ruleset())
    >>> format_tiles(s.played), s.value
    (['R10', 'R11', 'R12', 'B1', 'K1', 'O1'], 36)
    >>> rack = parse_tiles(["R1", "R2", "R4", "K13", "B13", "J"])
    >>> format_tiles(solve([], rack, True, Ruleset()).played)
    ['R1', 'R2', 'R4', 'J']
    >>> format_tiles(solve([], rack, True, Ruleset(), objective="value").played)
    ['B13', 'K13', 'J']
    """
    table_sets = tuple(tuple(tile_set) for tile_set in table)
    if objective not in ("tiles", "value"):
        raise ValueError(f"objective must be 'tiles' or 'value', got {objective!r}")
    job = _Job(table_sets, tuple(rack), initial_meld_done, ruleset, objective)
    return job.solve()


def arrange(
    table: Sequence[Sequence[Tile]],
    tiles_to_play: Sequence[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
) -> tuple[TileSet, ...] | None:
    """A legal table holding exactly the table's tiles plus ``tiles_to_play``, or None.

    Table sets are kept as they were where that is easy to do.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> t = arrange([parse_tiles(["R1", "R2", "R3"]), parse_tiles(["K7", "B7", "O7"])],
    ...             parse_tiles(["R4"]), True, Ruleset())
    >>> [format_tiles(s) for s in t]
    [['K7', 'B7', 'O7'], ['R1', 'R2', 'R3', 'R4']]
    >>> arrange([], parse_tiles(["R4", "B9"]), True, Ruleset()) is None
    True
    """
    table_sets = tuple(tuple(tile_set) for tile_set in table)
    job = _Job(table_sets, tuple(tiles_to_play), initial_meld_done, ruleset, "tiles")
    return job.arrange()


class _Job:
    """One call: the inputs turned into counts, and the strategy around the search."""

    def __init__(
        self,
        table: tuple[TileSet, ...],
        rack: tuple[Tile, ...],
        initial_meld_done: bool,
        ruleset: Ruleset,
        objective: Objective,
    ) -> None:
        self.table = table
        self.rack = rack
        self.rules = ruleset
        self.objective = objective
        if initial_meld_done:
            self.meld_mode = NO_MELD
        elif ruleset.initial_meld_single_set:
            self.meld_mode = MELD_SINGLE
        elif ruleset.initial_meld_same_turn_manipulation:
            self.meld_mode = MELD_LAYER
        else:
            self.meld_mode = MELD_ALL
        # Before the initial meld, without same-turn manipulation, the table is left
        # alone: the search sees only the rack.
        self.uses_table = initial_meld_done or ruleset.initial_meld_same_turn_manipulation

    # -- problem building ----------------------------------------------------------

    def _tile_score(self) -> tuple[list[int], int]:
        if self.objective == "tiles":
            return [_TILE_WEIGHT + x for x in range(14)], _TILE_WEIGHT
        return [_VALUE_WEIGHT * x + 1 for x in range(14)], 1

    def fixings(self, table: tuple[TileSet, ...]) -> list[Fixing]:
        """The ways the joker variants hold table sets together (after the initial meld)."""
        if self.meld_mode != NO_MELD:
            return [Fixing((), (), Counter())]
        return fixings(table, self.rules)

    def problem(
        self, rack: Counter[Tile], forced: bool, table: Iterable[TileSet], fixing: Fixing
    ) -> Problem:
        """Counts for ``table`` (all laid) and ``rack`` (optional unless ``forced``), with
        the table tiles ``fixing`` holds in place taken out of the free counts."""
        table_counts = empty_counts()
        table_jokers = 0
        if self.uses_table:
            for tile_set in table:
                for tile in tile_set:
                    if tile.is_joker:
                        table_jokers += 1
                    else:
                        table_counts[_colour(tile)][tile.number] += 1
        for tile, count in fixing.reserved.items():
            table_counts[_colour(tile)][tile.number] -= count
        rack_counts = empty_counts()
        for tile, count in rack.items():
            if not tile.is_joker:
                rack_counts[_colour(tile)][tile.number] += count
        rack_min = [row[:] for row in rack_counts] if forced else empty_counts()
        for c, x in fixing.rack_cells:
            rack_min[c][x] = max(rack_min[c][x], 1)
        rack_jokers = rack[JOKER]
        scores, joker_score = self._tile_score()
        if self.rules.meld_values == "house":
            meld_value = [0, *(house_value(x) for x in range(1, 14))]
        else:
            meld_value = list(range(14))
        jokers = table_jokers + rack_jokers
        problem = Problem(
            table=table_counts,
            rack=rack_counts,
            rack_min=rack_min,
            jokers=jokers,
            table_jokers=table_jokers,
            jokers_min=jokers if forced else table_jokers,
            tile_score=scores,
            joker_score=joker_score,
            meld_mode=self.meld_mode,
            meld_min=self.rules.initial_meld_min if self.meld_mode != NO_MELD else 0,
            meld_value=meld_value if self.meld_mode != NO_MELD else [0] * 14,
            wrap=self.rules.allow_wrap,
            run_blocks=fixing.blocks,
            seeds=fixing.seeds,
            rack_only=self.rules.joker_replacement_source == "rack_only",
            rack_jokers=rack_jokers,
        )
        return rotated(problem)

    def useful_rack(self) -> Counter[Tile]:
        """The rack without tiles that cannot be in any set (repeated until stable)."""
        rack = Counter(self.rack)
        jokers = rack[JOKER]
        present: set[tuple[int, int]] = set()
        if self.uses_table:
            for tile_set in self.table:
                for tile in tile_set:
                    if tile.is_joker:
                        jokers += 1
                    else:
                        present.add((_colour(tile), tile.number))
        wrap = self.rules.allow_wrap
        while True:
            have = present | {(_colour(t), t.number) for t in rack if not t.is_joker}
            useless = [
                tile
                for tile in rack
                if not tile.is_joker and not _could_fit(tile, have, jokers, wrap)
            ]
            if not useless:
                return rack
            for tile in useless:
                del rack[tile]

    # -- strategy -------------------------------------------------------------------

    def solve(self) -> Solution:
        rack = self.useful_rack()
        if not rack:
            return self._nothing()
        fallback, floor = self._nothing(), -1
        if self.meld_mode != NO_MELD and self.uses_table:
            # Same-turn manipulation: a meld of rack sets beside the untouched table is
            # legal too. Without one there is no meld at all; with one, it is a floor.
            rules = replace(self.rules, initial_meld_same_turn_manipulation=False)
            fallback = _Job(self.table, self.rack, False, rules, self.objective).solve()
            if not fallback.played:
                return fallback
            floor = self._score(fallback)
        choices = self.fixings(self.table)
        # Can every useful rack tile be laid? Depth first answers yes quickly; a "no"
        # is left to the probes below, whose first floor admits the all-tiles play too.
        for fixing in choices:
            forced = self.problem(rack, True, self.table, fixing)
            try:
                found = Search(forced).feasible(budget=_DEPTH_FIRST_BUDGET)
            except GaveUp:
                continue
            if found is not None:
                return self._solution(forced, found)
        problems = [self.problem(rack, False, self.table, fixing) for fixing in choices]
        searches = [Search(problem) for problem in problems]
        top = problems[0].rack_bound()[0] + problems[0].rack_jokers * problems[0].joker_score
        step = _TILE_WEIGHT if self.objective == "tiles" else 8 * _VALUE_WEIGHT
        # Probe with floors ever further below the upper bound: the first probe that
        # finds a play finds the best one, since no state of a better play was cut.
        while True:
            probe = max(top - step, floor)
            best: tuple[Problem, Found] | None = None
            for problem, search in zip(problems, searches, strict=True):
                found = search.best(probe)
                if found is not None and (best is None or found.score > best[1].score):
                    best = (problem, found)
            if best is not None:
                return self._solution(*best) if best[1].score > 0 else self._nothing()
            if probe <= floor:
                return fallback
            step *= 2

    def _score(self, solution: Solution) -> int:
        """The objective score of a solution, as the search counts it."""
        if self.objective == "tiles":
            return solution.n * _TILE_WEIGHT + solution.value
        return solution.value * _VALUE_WEIGHT + solution.n

    def arrange(self) -> tuple[TileSet, ...] | None:
        rack = Counter(self.rack)
        if not rack:
            return None
        if not self.uses_table:
            return self._lay_out(rack, (), self.table)
        # Sets far from every tile to play are likely to stay as they are: try keeping
        # them all first, then keep near sets one by one while that still works.
        near = [s for s in self.table if self._near(s, rack)]
        kept = [s for s in self.table if not self._near(s, rack)]
        if kept and self._lay_out(rack, near, kept) is None:
            near, kept = list(self.table), []
        for tile_set in list(near) if len(near) <= _MAX_TRIES else []:
            rest = [s for s in near if s is not tile_set]
            if self._lay_out(rack, rest, [*kept, tile_set]) is not None:
                near, kept = rest, [*kept, tile_set]
        return self._lay_out(rack, near, [s for s in self.table if any(s is k for k in kept)])

    def _lay_out(
        self, rack: Counter[Tile], table: Sequence[TileSet], kept: Sequence[TileSet]
    ) -> tuple[TileSet, ...] | None:
        """Kept sets as they are, then ``table`` and ``rack`` laid out anew (None: impossible)."""
        for fixing in self.fixings(tuple(table)):
            problem = self.problem(rack, True, table, fixing)
            search = Search(problem)
            try:
                found = search.feasible(budget=_DEPTH_FIRST_BUDGET)
            except GaveUp:
                found = search.best(-1)
            if found is not None:
                sets = build(problem, found.registry, found.start, found.steps).sets
                return _tidy(self.table, [*kept, *sets]) if self.uses_table else (*kept, *sets)
        return None

    def _near(self, tile_set: TileSet, rack: Counter[Tile]) -> bool:
        """Could a rack tile plausibly join or break up ``tile_set``?"""
        if rack[JOKER] or JOKER in tile_set:
            return True
        for tile in tile_set:
            for other in rack:
                if other.is_joker or tile.is_joker:
                    continue
                if tile.number == other.number:
                    return True
                gap = abs(tile.number - other.number)
                if self.rules.allow_wrap:
                    gap = min(gap, 13 - gap)
                if tile.colour == other.colour and gap <= 2:
                    return True
        return False

    # -- results --------------------------------------------------------------------

    def _nothing(self) -> Solution:
        return Solution((), self.table, 0, 0)

    def _solution(self, problem: Problem, found: Found) -> Solution:
        built = build(problem, found.registry, found.start, found.steps)
        played: list[Tile] = []
        for c, colour in enumerate(COLOURS):
            for x in range(1, 14):
                played.extend([Tile(colour, x)] * built.rack_used[c][x])
        played.extend([JOKER] * (built.jokers - problem.table_jokers))
        played.sort()
        value = sum(tile.number for tile in played)
        return Solution(tuple(played), self._table_after(built.sets), len(played), value)

    def _table_after(self, sets: list[TileSet]) -> tuple[TileSet, ...]:
        if self.uses_table:
            return _tidy(self.table, sets)
        return (*self.table, *sets)


def _tidy(table: Sequence[TileSet], sets: Sequence[TileSet]) -> tuple[TileSet, ...]:
    """The sets with those that are table sets unchanged (as multisets) written as they
    were and listed first, in table order; the new and changed sets follow.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> t = _tidy([parse_tiles(["K7", "B7", "O7"]), parse_tiles(["R1", "R2", "R3"])],
    ...           [parse_tiles(["R1", "R2", "R3", "R4"]), parse_tiles(["B7", "K7", "O7"])])
    >>> [format_tiles(s) for s in t]
    [['K7', 'B7', 'O7'], ['R1', 'R2', 'R3', 'R4']]
    """
    waiting = Counter(tuple(sorted(s)) for s in sets)

    def take(tile_set: Sequence[Tile]) -> bool:
        key = tuple(sorted(tile_set))
        if not waiting[key]:
            return False
        waiting[key] -= 1
        return True

    kept = [tuple(s) for s in table if take(s)]
    return (*kept, *(tuple(s) for s in sets if take(s)))


def _colour(tile: Tile) -> int:
    assert tile.colour is not None
    return tile.colour.index


def _could_fit(tile: Tile, have: set[tuple[int, int]], jokers: int, wrap: bool) -> bool:
    """Could ``tile`` be in some group or run, given which tiles exist and the jokers?"""
    c, x = _colour(tile), tile.number
    others = sum(1 for other in range(4) if other != c and (other, x) in have)
    if others + jokers >= 2:
        return True
    for start in range(x - 2, x + 1):
        numbers = [start, start + 1, start + 2]
        if wrap:
            numbers = [(n - 1) % 13 + 1 for n in numbers]
        elif numbers[0] < 1 or numbers[-1] > 13:
            continue
        missing = sum(1 for n in numbers if n != x and (c, n) not in have)
        if missing <= jokers:
            return True
    return False
