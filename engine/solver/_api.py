"""Public entry points of the solver: :func:`solve` and :func:`arrange`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.ruleset import Ruleset
from engine.sets import house_value
from engine.solver._budget import Budget, Meter, OutOfBudget
from engine.solver._build import build
from engine.solver._designated import designated_sets
from engine.solver._guard import check_allowed
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
from engine.verdict import judge_turn

Objective = Literal["tiles", "value"]
TileSet = tuple[Tile, ...]

_TILE_WEIGHT = 1024  # > any face value total, so tiles come first
_VALUE_WEIGHT = 128  # > any tile count, so value comes first
_MAX_TRIES = 8  # near sets "arrange" tries to keep one by one
_DEPTH_FIRST_BUDGET = 200  # numbers expanded before "can all be laid?" defers to the probes
# Under a budget: the share the exact strategy may spend before the search for a good
# play takes over, the share the rack-only play may take of what is left, and the
# share each "keep this set untouched" try of arrange may take.
_EXACT_SHARE = 0.3
_RACK_ONLY_SHARE = 0.3
_KEEP_SHARE = 0.2
_MORE_SHARE = 0.5  # of what is left, for the rest of the rack after a meld
_DESIGNATED_TRIES = 3  # sets worth the single-set meld tried as the meld, one by one


@dataclass(frozen=True, slots=True)
class Solution:
    """The best play found by :func:`solve`.

    ``played`` are the rack tiles laid (sorted), ``table_after`` the whole table after
    the play, ``n`` the number of rack tiles laid (jokers included) and ``value`` the
    face value of the numbered tiles laid. Nothing legal: ``played`` is empty and
    ``table_after`` is the table as it was.

    ``exact`` is True when the play is proven best; False when the budget ran out
    first and it is only the best legal play found (an empty play then means none was
    found, not that there is none).

    ``steps`` is the work the search did (see :class:`Budget`): the same position and
    budget take the same steps, and get the same answer, on any machine. ``cut_short``
    is True when the wall-time ceiling stopped the search before its steps ran out:
    then, and only then, the answer may differ from one machine (or load) to another.
    """

    played: tuple[Tile, ...]
    table_after: tuple[TileSet, ...]
    n: int
    value: int
    exact: bool = True
    steps: int = 0
    cut_short: bool = False


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
    objective: Objective = "tiles",
    budget: Budget | Meter | None = None,
) -> Solution:
    """The best legal play, provably, or within ``budget`` the best legal play found.

    ``objective="tiles"``: most rack tiles laid, then highest face value; ``"value"``:
    highest face value, then most tiles. Before the initial meld only new sets from
    the rack count, and they must reach ``ruleset.initial_meld_min``.

    Without a budget the search runs until it has proved its answer best. With one,
    it returns a proven best play (``exact=True``) if it can within the budget's
    steps, and otherwise the best play it found that the turn verdict accepts
    (``exact=False``, possibly empty; ``cut_short`` when the wall-time ceiling, not the
    steps, stopped it); it never returns an illegal play.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> s = solve([], parse_tiles(["R10", "R11", "R12", "K1", "B1", "O1"]), False, Ruleset())
    >>> format_tiles(s.played), s.value
    (['R10', 'R11', 'R12', 'B1', 'K1', 'O1'], 36)
    >>> rack = parse_tiles(["R1", "R2", "R4", "K13", "B13", "J"])
    >>> format_tiles(solve([], rack, True, Ruleset()).played)
    ['R1', 'R2', 'R4', 'J']
    >>> format_tiles(solve([], rack, True, Ruleset(), objective="value").played)
    ['B13', 'K13', 'J']
    >>> s = solve([], rack, True, Ruleset(), budget=Budget(steps=20_000, seconds=20))
    >>> s.exact, s.steps, s.cut_short
    (True, 429, False)
    """
    check_allowed()
    table_sets = tuple(tuple(tile_set) for tile_set in table)
    if objective not in ("tiles", "value"):
        raise ValueError(f"objective must be 'tiles' or 'value', got {objective!r}")
    meter = _meter(budget)
    before = meter.spent
    job = _Job(table_sets, tuple(rack), initial_meld_done, ruleset, objective, meter)
    solution = job.solve()
    return replace(solution, steps=meter.spent - before, cut_short=meter.cut_short)


def arrange(
    table: Sequence[Sequence[Tile]],
    tiles_to_play: Sequence[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
    budget: Budget | Meter | None = None,
) -> tuple[TileSet, ...] | None:
    """A legal table holding exactly the table's tiles plus ``tiles_to_play``, or None
    when there is none.

    Table sets are kept as they were where that is easy to do (under a budget, only
    while it lasts). Raises :class:`OutOfBudget` (with the steps spent, and whether
    the wall-time ceiling cut it short) when ``budget`` runs out before the solver
    knows whether there is a layout.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> t = arrange([parse_tiles(["R1", "R2", "R3"]), parse_tiles(["K7", "B7", "O7"])],
    ...             parse_tiles(["R4"]), True, Ruleset())
    >>> [format_tiles(s) for s in t]
    [['K7', 'B7', 'O7'], ['R1', 'R2', 'R3', 'R4']]
    >>> arrange([], parse_tiles(["R4", "B9"]), True, Ruleset()) is None
    True
    """
    check_allowed()
    table_sets = tuple(tuple(tile_set) for tile_set in table)
    meter = _meter(budget)
    before = meter.spent
    job = _Job(table_sets, tuple(tiles_to_play), initial_meld_done, ruleset, "tiles", meter)
    try:
        return job.arrange()
    except OutOfBudget as out:
        # Said for the whole call: the steps it spent, and what stopped it.
        raise OutOfBudget(meter.budget, meter.spent - before, out.cut_short) from None


def _meter(budget: Budget | Meter | None) -> Meter:
    """A meter of its own for a budget; a meter given is shared with earlier calls."""
    return budget if isinstance(budget, Meter) else Meter(budget)


class _Job:
    """One call: the inputs turned into counts, and the strategy around the search."""

    def __init__(
        self,
        table: tuple[TileSet, ...],
        rack: tuple[Tile, ...],
        initial_meld_done: bool,
        ruleset: Ruleset,
        objective: Objective,
        meter: Meter,
        rack_only: bool = False,
    ) -> None:
        self.table = table
        self.rack = rack
        self.meld_done = initial_meld_done
        self.rules = ruleset
        self.objective = objective
        self.meter = meter
        # The rack-only play the exact strategy proved best, kept for the search for a
        # good play should the exact strategy run out afterwards.
        self.rack_only_best: Solution | None = None
        if initial_meld_done:
            self.meld_mode = NO_MELD
        elif ruleset.initial_meld_single_set:
            self.meld_mode = MELD_SINGLE
        elif ruleset.initial_meld_same_turn_manipulation:
            self.meld_mode = MELD_LAYER
        else:
            self.meld_mode = MELD_ALL
        # Before the initial meld, without same-turn manipulation, the table is left
        # alone: the search sees only the rack (and so it does for a rack-only play).
        self.uses_table = not rack_only and (
            initial_meld_done or ruleset.initial_meld_same_turn_manipulation
        )

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
        try:
            # Unbounded in steps, the share is too: the exact strategy then runs to its
            # end, or to the wall-time ceiling.
            return self.exact(rack, self.meter.share(_EXACT_SHARE))
        except OutOfBudget:
            pass  # the search for a good play below has the rest of the budget
        return self.best_found(rack)

    def exact(self, rack: Counter[Tile], meter: Meter) -> Solution:
        """The proven best play with the useful ``rack`` (raises :class:`OutOfBudget`
        when ``meter`` runs out)."""
        if not rack:
            return self._nothing()
        fallback, floor = self._nothing(), -1
        if self.meld_mode != NO_MELD and self.uses_table:
            # Same-turn manipulation: a meld of rack sets beside the untouched table is
            # legal too. Without one there is no meld at all; with one, it is a floor.
            rack_only = self._rack_only_job(meter)
            fallback = rack_only.exact(rack_only.useful_rack(), meter)
            self.rack_only_best = fallback
            if not fallback.played:
                return fallback
            floor = self._score(fallback)
        choices = self.fixings(self.table)
        # Can every useful rack tile be laid? Depth first answers yes quickly; a "no"
        # is left to the probes below, whose first floor admits the all-tiles play too.
        for fixing in choices:
            forced = self.problem(rack, True, self.table, fixing)
            try:
                found = Search(forced, meter).feasible(budget=_DEPTH_FIRST_BUDGET)
            except GaveUp:
                continue
            if found is not None:
                return self._solution(forced, found)
        problems = [self.problem(rack, False, self.table, fixing) for fixing in choices]
        searches = [Search(problem, meter) for problem in problems]
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

    def best_found(self, rack: Counter[Tile]) -> Solution:
        """The best legal play found with what is left of the budget, ``exact=False``
        unless the search happened to prove it best.

        First the best play of new sets from the rack alone (the table untouched),
        then depth first over the whole problem, each play found raising the floor
        the next must beat; a depth-first search that ends without a better play has
        proved the last one best.
        """
        best = self._nothing(exact=False)
        if self.meld_mode == MELD_SINGLE:
            best = self._better(best, self._designated_first(rack))
        if self.uses_table:
            rack_only = self.rack_only_best
            if rack_only is None:
                rack_only = self._rack_only_job(self.meter.share(_RACK_ONLY_SHARE)).solve()
            if rack_only.exact and not rack_only.played and self.meld_mode != NO_MELD:
                return rack_only  # no meld from the rack: no meld at all (see exact)
            best = self._better(best, rack_only)
            if self.meld_mode != NO_MELD and rack_only.played:
                best = self._better(best, self._meld_then_more(rack_only))
        problems = [self.problem(rack, False, self.table, f) for f in self.fixings(self.table)]
        try:
            while best.n < rack.total():  # laying every useful tile cannot be beaten
                found = self._deeper(problems, max(self._score(best), 0))
                if found is None:
                    return replace(best, exact=True)
                better = self._better(best, self._solution(*found))
                if better is best:
                    return best  # the search and the verdict disagree: keep what is legal
                best = better
        except OutOfBudget:
            return best
        return replace(best, exact=True)

    def _better(self, best: Solution, candidate: Solution) -> Solution:
        """``candidate`` (marked not exact) if the verdict accepts it and it scores
        higher than ``best``; otherwise ``best``."""
        if self._score(candidate) <= self._score(best) or self._checked(candidate) is None:
            return best
        return replace(candidate, exact=False)

    def _designated_first(self, rack: Counter[Tile]) -> Solution:
        """Under the single-set meld: a set worth the minimum on its own, then the best
        that the rest of the rack adds in new sets (a few such sets are tried)."""
        best = self._nothing(exact=False)
        for tile_set in designated_sets(rack, self.rules, _DESIGNATED_TRIES):
            more = self._rest_job(tile_set, 1 / (2 * _DESIGNATED_TRIES), rack_only=True).solve()
            best = self._better(best, _and_then(tile_set, (tile_set,), more))
        return best

    def _meld_then_more(self, meld: Solution) -> Solution:
        """Same-turn manipulation, as a player would do it: the meld from the rack,
        then the rest of the rack worked into the old table (the meld's sets as laid)."""
        more = self._rest_job(meld.played, _MORE_SHARE, rack_only=False).solve()
        return _and_then(meld.played, meld.table_after[len(self.table) :], more)

    def _rest_job(self, laid: Sequence[Tile], share: float, rack_only: bool) -> _Job:
        """The rest of the rack after ``laid``, once the initial meld is made, on a
        ``share`` of the budget (``rack_only``: in new sets only)."""
        rest = Counter(self.rack)
        rest.subtract(laid)
        return _Job(
            self.table,
            tuple(rest.elements()),
            True,
            self.rules,
            self.objective,
            self.meter.share(share),
            rack_only=rack_only,
        )

    def _deeper(self, problems: list[Problem], floor: int) -> tuple[Problem, Found] | None:
        """Depth first, a play scoring above ``floor`` in one of ``problems``, or None."""
        for problem in problems:
            found = Search(problem, self.meter).feasible(floor)
            if found is not None:
                return problem, found
        return None

    def _rack_only_job(self, meter: Meter) -> _Job:
        """The same call with the table left alone: new sets from the rack only."""
        rules = replace(self.rules, initial_meld_same_turn_manipulation=False)
        return _Job(
            self.table, self.rack, self.meld_done, rules, self.objective, meter, rack_only=True
        )

    def _checked(self, solution: Solution) -> Solution | None:
        """``solution`` if the turn verdict accepts it (an empty play is always kept)."""
        if not solution.played:
            return solution
        verdict = judge_turn(
            self.table, self.rack, solution.table_after, self.meld_done, self.rules
        )
        return solution if verdict.valid else None

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
            return self._lay_out(rack, (), self.table, self.meter)
        # Sets far from every tile to play are likely to stay as they are: try keeping
        # them all first, then keep near sets one by one while that still works. Each
        # try may take only a share of the budget: keeping sets is a nicety.
        near = [s for s in self.table if self._near(s, rack)]
        kept = [s for s in self.table if not self._near(s, rack)]
        layout = self._try_lay_out(rack, near, kept) if kept else None
        if layout is None:
            near, kept = list(self.table), []
        for tile_set in list(near) if len(near) <= _MAX_TRIES else []:
            rest = [s for s in near if s is not tile_set]
            tried = self._try_lay_out(rack, rest, [*kept, tile_set])
            if tried is not None:
                near, kept, layout = rest, [*kept, tile_set], tried
        if layout is not None:
            return layout
        return self._lay_out(rack, near, kept, self.meter)

    def _try_lay_out(
        self, rack: Counter[Tile], table: Sequence[TileSet], kept: Sequence[TileSet]
    ) -> tuple[TileSet, ...] | None:
        """:meth:`_lay_out` on a share of the budget; None also when that runs out."""
        try:
            return self._lay_out(rack, table, kept, self.meter.share(_KEEP_SHARE))
        except OutOfBudget:
            return None

    def _lay_out(
        self,
        rack: Counter[Tile],
        table: Sequence[TileSet],
        kept: Sequence[TileSet],
        meter: Meter,
    ) -> tuple[TileSet, ...] | None:
        """Kept sets as they are, then ``table`` and ``rack`` laid out anew (None: impossible)."""
        for fixing in self.fixings(tuple(table)):
            problem = self.problem(rack, True, table, fixing)
            search = Search(problem, meter)
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

    def _nothing(self, exact: bool = True) -> Solution:
        return Solution((), self.table, 0, 0, exact)

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


def _and_then(laid: Sequence[Tile], sets: Sequence[TileSet], more: Solution) -> Solution:
    """A play of ``laid`` in new ``sets``, followed by the play ``more``."""
    played = tuple(sorted((*laid, *more.played)))
    value = sum(tile.number for tile in played)
    return Solution(played, (*more.table_after, *sets), len(played), value, exact=False)


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
