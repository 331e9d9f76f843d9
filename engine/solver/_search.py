"""The exact search: dynamic programming over the numbers 1..13.

A search state sits between two numbers and holds, packed into one integer, the lanes
of every colour (see :mod:`engine.solver._lanes`), the jokers laid so far and the
initial-meld progress. Within a number the colours are visited one after another;
the tiles each colour gives to groups are tallied, and when the number is done the
tally is split into groups (with jokers) or the state dies. States whose best possible
score cannot beat a floor are dropped, and a state is dropped when another one with
the same jokers and at least its score has lanes that can do everything its lanes
can (:func:`engine.solver._lanes.dominates`).
The key layout is in :mod:`engine.solver._registry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from engine.solver._budget import Meter
from engine.solver._ends import EndChoice, GroupEnds
from engine.solver._lanes import (
    DESIG,
    FREE,
    HEAD,
    MELD,
    PEND,
    RUN,
    TAIL,
    BlockCell,
    CellSpec,
    Option,
    credited_end,
    end_pairs,
    kind_of,
    layer_of,
    length_of,
    pin_of,
    token,
)
from engine.solver._model import (
    MELD_ALL,
    MELD_LAYER,
    MELD_SINGLE,
    NO_MELD,
    NUMBERS,
    Problem,
)
from engine.solver._options import colour_options
from engine.solver._registry import (
    ACC_SH,
    AMASK,
    C_SH,
    CB,
    CMASK,
    D_SH,
    DEF_SH,
    J_SH,
    JM_SH,
    M_SH,
    Registry,
    colour_ids,
)


@dataclass(frozen=True, slots=True)
class Step:
    """What happened at one number: each colour's option and the group layout."""

    number: int
    options: tuple[Option, Option, Option, Option]
    end: EndChoice


class GaveUp(Exception):
    """A depth-first search ran out of its budget."""


@dataclass(frozen=True, slots=True)
class Found:
    """A legal end: its score, the state before number 1 and the steps taken."""

    score: int
    start: int
    steps: list[Step]
    registry: Registry


Trans = tuple[tuple[int, int, bool, bool], ...]
# An option whose lanes cannot be served: its gain is far below any floor.
_DEAD = (0, -(1 << 40), False, False)


class Search:
    """All the searches over one :class:`Problem`."""

    def __init__(self, problem: Problem, meter: Meter | None = None) -> None:
        self.p = problem
        self.meter = meter if meter is not None else Meter(None)
        self.reg = Registry()
        self.total_jokers = problem.jokers
        self.single = problem.meld_mode == MELD_SINGLE
        # 13-1 wrap: free and meld runs coming round use credits (see match_ends);
        # with locked blocks every head is paired with its tail exactly instead.
        self.credits = problem.wrap and not problem.run_blocks
        self.melding = problem.meld_mode != NO_MELD
        self.bound = problem.rack_bound()
        self.joker_bonus = problem.rack_jokers * problem.joker_score
        self._specs: dict[tuple[int, int, int], CellSpec] = {}
        self._trans: list[list[dict[int, Trans]]] = [[{}, {}, {}, {}] for _ in range(14)]
        self.group_ends = GroupEnds(problem)
        self.ends = self.group_ends.ends
        self._final: dict[int, tuple[bool, bool]] = {}
        self._deficits: dict[tuple[int, int, int], int] = {}
        # Tiles a colour can have at each number: free ones, and those held by blocks.
        self._have = [
            [problem.table[c][x] + problem.rack[c][x] for x in range(14)] for c in range(4)
        ]
        for block in problem.run_blocks:
            for x, _ in block.need:
                self._have[block.colour][x] += 1

    # -- cells -------------------------------------------------------------------

    def spec(self, x: int, c: int, jokers: int) -> CellSpec:
        key = (x, c, jokers)
        found = self._specs.get(key)
        if found is None:
            found = self._specs[key] = self._make_spec(x, c, jokers)
        return found

    def _make_spec(self, x: int, c: int, jokers: int) -> CellSpec:
        p = self.p
        layers: tuple[int, ...] = (FREE,)
        if p.meld_mode == MELD_LAYER:
            layers = (FREE, MELD)
        elif p.meld_mode == MELD_SINGLE:
            layers = (FREE, DESIG)
        seeded = x in self.group_ends.seeds_at
        blocks = []
        for k, block in enumerate(p.run_blocks):
            need = block.need_at(x)
            if block.colour != c or need is None:
                continue
            end = x == (13 if block.wrapped else block.numbers[-1])
            blocks.append(
                BlockCell(
                    k,
                    need,
                    x == block.numbers[0],
                    end,
                    block.wrapped,
                    block.slot_at(x),
                    block.members,
                )
            )
        return CellSpec(
            table=p.table[c][x],
            rack=p.rack[c][x],
            rack_min=p.rack_min[c][x],
            jokers=jokers,
            layers=layers,
            group_layers=layers,
            colour_code=6**c if seeded else 0,
            rack_flag=seeded and p.rack_only,
            blocks=tuple(blocks),
            rack_only_replacement=p.rack_only,
            meld_counts_all=p.meld_mode == MELD_ALL,
            meld_base=6**4 if seeded else 25,
            desig_base=6**4 * 25 if seeded else 625,
            joker_flags=any(block.colour == c for block in p.run_blocks),
            credits=self.credits,
        )

    def trans(self, x: int, c: int, cid: int, jokers: int) -> Trans:
        """The options of colour state ``cid`` at cell (x, c) as key deltas and gains."""
        found = self._trans[x][c].get(cid << 2 | jokers)
        if found is not None:
            return found
        spec = self.spec(x, c, jokers)
        shift = C_SH + CB * c
        score = self.p.tile_score[x]
        value = self.p.meld_value[x]
        entries = []
        for option in colour_options(self.reg.states[cid], spec):
            new_cid = self.reg.id(option.state)
            deficit = self.deficit(new_cid, c, x)
            if deficit > jokers - option.jokers:
                entries.append(_DEAD)  # keeps entries in step with colour_options
                continue
            delta = (
                ((new_cid - cid) << shift)
                + (deficit << DEF_SH)
                + (option.tally << ACC_SH)
                + (option.jokers << J_SH)
                + (option.meld_jokers << JM_SH)
                + ((option.meld_tiles * value) << M_SH)
            )
            entries.append((delta, option.rack * score, option.starts, option.closes))
        found = self._trans[x][c][cid << 2 | jokers] = tuple(entries)
        return found

    # -- the end of the search ---------------------------------------------------

    def final_state(self, cid: int) -> tuple[bool, bool]:
        """(may the colour state end after 13, does it close the designated set)."""
        found = self._final.get(cid)
        if found is None:
            ok, closes = True, False
            ends = end_pairs(self.reg.states[cid]) if self.credits else {}
            for tok in self.reg.states[cid]:
                if self.credits and credited_end(tok):
                    continue
                if kind_of(tok) in (HEAD, PEND) or length_of(tok) < 3:
                    ok = False
                if layer_of(tok) == DESIG:
                    closes = True
            if any(pairs is None for pairs in ends.values()):
                ok = False
            found = self._final[cid] = (ok, closes)
        return found

    def final_score(self, key: int, score: int) -> int | None:
        """The score of a state after 13, or None when it is not a legal end."""
        p = self.p
        closes = False
        for cid in colour_ids(key):
            ok, closing = self.final_state(cid)
            if not ok:
                return None
            closes = closes or closing
        jokers = key & 3
        if jokers < p.jokers_min:
            return None
        if p.meld_mode == MELD_LAYER and (key >> JM_SH & 3) > jokers - p.table_jokers:
            return None
        if p.meld_mode == MELD_SINGLE:
            if (key >> JM_SH & 3) > jokers - p.table_jokers:
                return None
            status = key >> D_SH & 3
            if closes:
                status = 2 if key >> M_SH >= p.meld_min else 0
            if status != 2:
                return None
        elif self.melding and key >> M_SH < p.meld_min:
            return None
        return score + (jokers - p.table_jokers) * p.joker_score

    # -- starting states -----------------------------------------------------------

    def starts(self) -> list[int]:
        """The states before number 1: without wrap only the empty one; with wrap every
        choice of runs coming round from 13 (heads), with their layers."""
        p = self.p
        if not p.wrap:
            return [0]
        per_colour: list[list[tuple[int, ...]]] = []
        firsts: list[int] = []
        lasts: list[int] = []
        for c in range(4):
            pinned = tuple(
                token(0, HEAD, FREE, k + 1)
                for k, block in enumerate(p.run_blocks)
                if block.colour == c and block.wrapped
            )
            # A head takes a tile of its colour at number 1, and its tail one at 13.
            firsts.append(p.table[c][1] + p.rack[c][1] + len(pinned))
            lasts.append(p.table[c][13] + p.rack[c][13] + len(pinned))
            cap = min(firsts[-1] + p.jokers, lasts[-1] + p.jokers, 4)
            layers = [FREE]
            if p.meld_mode == MELD_LAYER:
                layers.append(MELD)
            elif p.meld_mode == MELD_SINGLE:
                layers.append(DESIG)
            kinds = tuple(token(0, HEAD, layer) for layer in layers)
            choices = []
            for count in range(cap - len(pinned) + 1):
                for heads in _multisets(kinds, count):
                    choices.append(tuple(sorted(pinned + heads)))
            per_colour.append(choices)
        keys = []
        for combo in product(*per_colour):
            designated = sum(1 for state in combo for tok in state if layer_of(tok) == DESIG)
            if designated > 1:
                continue
            counts = [len(state) for state in combo]
            if sum(max(0, h - n) for h, n in zip(counts, firsts, strict=True)) > p.jokers:
                continue
            if sum(max(0, h - n) for h, n in zip(counts, lasts, strict=True)) > p.jokers:
                continue
            key = sum(self.reg.id(state) << (C_SH + CB * c) for c, state in enumerate(combo))
            if designated:
                key += 1 << D_SH
            keys.append(key)
        return keys

    # -- expanding one number ---------------------------------------------------------

    def expand(
        self,
        x: int,
        states: dict[int, int],
        floor: int,
        origin: dict[int, int] | None,
    ) -> tuple[dict[int, int], dict[int, int]]:
        """All states after number ``x`` from ``states`` (before it), with the boundary
        state each came from. States that cannot beat ``floor`` are dropped."""
        cur = states
        org = origin if origin is not None else {key: key for key in states}
        total = self.total_jokers
        plain = not self.single and self.p.meld_mode != MELD_LAYER
        for c in range(4):
            new: dict[int, int] = {}
            new_org: dict[int, int] = {}
            shift = C_SH + CB * c
            limit = floor - self.bound[4 * x + c + 1] - self.joker_bonus
            trans = self.trans
            cache = self._trans[x][c]
            if plain:
                # The common case, kept lean: no designated set, no meld layer.
                for key, score in self._metered(cur):
                    cid = key >> shift & CMASK
                    jokers = total - (key & 3)
                    entries = cache.get(cid << 2 | jokers)
                    if entries is None:
                        entries = trans(x, c, cid, jokers)
                    for delta, gain, _, _ in entries:
                        value = score + gain
                        if value > limit:
                            nk = key + delta
                            if value > new.get(nk, -1):
                                new[nk] = value
                                new_org[nk] = org[key]
                cur, org = new, new_org
                continue
            for key, score in self._metered(cur):
                cid = key >> shift & CMASK
                for delta, gain, starts, closes in trans(x, c, cid, total - (key & 3)):
                    value = score + gain
                    if value <= limit:
                        continue
                    moved = self._step(key, delta, starts, closes)
                    if moved is not None and value > new.get(moved, -1):
                        new[moved] = value
                        new_org[moved] = org[key]
            cur, org = new, new_org
        return self._finish_number(x, cur, org)

    def _metered(self, cur: dict[int, int]) -> Iterable[tuple[int, int]]:
        """The states of ``cur``, one step each, paid for before they are taken."""
        return self.meter.metered(cur.items(), len(cur))

    def _step(self, key: int, delta: int, starts: bool, closes: bool) -> int | None:
        """``key`` moved by one colour's option, or None when the meld rules forbid it."""
        moved = key + delta
        meld = key >> M_SH
        if self.single and (starts or closes):
            if starts:
                if key >> D_SH & 3:
                    return None  # there is only one designated set
                moved += 1 << D_SH
            if closes:
                if meld < self.p.meld_min:
                    return None  # the designated run stops short of the minimum
                moved += 1 << D_SH
        elif starts and self.p.meld_mode == MELD_LAYER and meld >= self.p.meld_min:
            return None  # the meld is made: a free set does the same
        return moved

    def _finish_number(
        self, x: int, cur: dict[int, int], org: dict[int, int]
    ) -> tuple[dict[int, int], dict[int, int]]:
        total = self.total_jokers
        new: dict[int, int] = {}
        parent: dict[int, int] = {}
        ends_at = self.group_ends.at(x)
        for key, score in self._metered(cur):
            acc = key >> ACC_SH & AMASK
            left = total - (key & 3)
            ends = ends_at.get(acc << 2 | left)
            if ends is None:
                ends = self.ends(x, acc, left)
            for delta, desig, _ in ends:
                done = self._end_step(key, delta, desig)
                if done is not None and score > new.get(done, -1):
                    new[done] = score
                    parent[done] = org[key]
        if len(new) > 1:
            new = self.reg.prune(new, self.meter)
        return new, parent

    def _end_step(self, key: int, delta: int, desig: bool) -> int | None:
        """``key`` after its number's groups are laid (``delta``), or None when that is
        not allowed or leaves too few jokers for the lanes."""
        moved = key + delta
        deficit = key >> DEF_SH & 15
        if deficit:
            if deficit > self.total_jokers - (moved & 3):
                return None  # the lanes need more jokers than are left
            moved -= deficit << DEF_SH
        if desig:
            if moved >> D_SH & 3:
                return None
            moved += 2 << D_SH
        if self.melding and moved >> M_SH > self.p.meld_min:
            moved = (moved & ((1 << M_SH) - 1)) | (self.p.meld_min << M_SH)
        return moved

    def deficit(self, cid: int, c: int, x: int) -> int:
        """How many jokers the lanes of colour state ``cid`` (colour ``c``, after number
        ``x``) need at least: runs that must go on, tails that must reach 13 and heads
        waiting for a tail need tiles of their colour; what the table and rack lack
        must be jokers (at most 15: more than there are)."""
        key = (cid, c, x)
        found = self._deficits.get(key)
        if found is None:
            found = self._deficits[key] = min(self._deficit(cid, c, x), 15)
        return found

    def _deficit(self, cid: int, c: int, x: int) -> int:
        must = [0] * 15
        # Credited heads wait for any run that reaches 13; such a run may already be
        # counted among the lanes, so they raise the need there only to their number.
        waiting = [0] * 15
        for tok in self.reg.states[cid]:
            if pin_of(tok):
                continue
            kind, length = kind_of(tok), length_of(tok)
            if kind == RUN:
                for p in range(x + 1, min(x + 3 - length, 13) + 1):
                    must[p] += 1
                if x + 3 - length > 13 and not (self.credits and credited_end(tok)):
                    return 99  # too short to end at 13, and no tail of a wrapped run
            elif kind == TAIL:
                if length + 13 - x < 3:
                    return 99
                for p in range(x + 1, 14):
                    must[p] += 1
            elif kind == PEND:
                counts = waiting if self.credits and credited_end(tok) else must
                for p in range(max(x + 1, 11 + length), 14):
                    counts[p] += 1
        have = self._have[c]
        return sum(max(0, max(must[p], waiting[p]) - have[p]) for p in range(x + 1, 14))

    # -- the searches ------------------------------------------------------------------

    def best(self, floor: int) -> Found | None:
        """The best legal end scoring more than ``floor``, with its steps; None if none."""
        states = {key: 0 for key in self.starts()}
        parents: list[dict[int, int]] = [{}]
        for x in NUMBERS:
            states, parent = self.expand(x, states, floor, None)
            parents.append(parent)
            if not states:
                return None
        best_key, best_score = -1, floor
        for key, score in states.items():
            final = self.final_score(key, score)
            if final is not None and final > best_score:
                best_key, best_score = key, final
        if best_key < 0:
            return None
        chain = [best_key]
        for x in range(13, 0, -1):
            chain.append(parents[x][chain[-1]])
        chain.reverse()
        return Found(best_score, chain[0], self.steps(chain), self.reg)

    def feasible(self, floor: int = -1, budget: int | None = None) -> Found | None:
        """Depth first: the first legal end found scoring more than ``floor``.

        With a ``budget`` (numbers expanded), :class:`GaveUp` is raised when it runs out:
        depth first finds a play fast when one exists, but proving there is none is the
        breadth-first search's job (:meth:`best`), which merges and prunes states.
        """
        failed: list[dict[int, int]] = [{} for _ in range(15)]
        path: list[int] = []
        left = budget

        def descend(x: int, key: int, score: int) -> int | None:
            nonlocal left
            if x == 14:
                return self.final_score(key, score)
            if self.reg.dominated(key, score, failed[x]):
                return None
            if left is not None:
                if left <= 0:
                    raise GaveUp
                left -= 1
            after, _ = self.expand(x, {key: score}, floor, None)
            for nk, ns in sorted(
                after.items(), key=lambda item: (item[1], self.reg.rank(item[0])), reverse=True
            ):
                path.append(nk)
                found = descend(x + 1, nk, ns)
                if found is not None and found > floor:
                    return found
                path.pop()
            failed[x][key] = score
            return None

        for start in self.starts():
            path[:] = [start]
            result = descend(1, start, 0)
            if result is not None:
                return Found(result, start, self.steps(path), self.reg)
        return None

    def steps(self, chain: list[int]) -> list[Step]:
        """Recover what happened at each number along a chain of boundary states."""
        steps = []
        score = 0
        for x in NUMBERS:
            step, score = self._recover(x, chain[x - 1], chain[x], score)
            steps.append(step)
        return steps

    def _recover(self, x: int, before: int, after: int, score: int) -> tuple[Step, int]:
        total = self.total_jokers
        best: tuple[int, Step] | None = None

        def walk(c: int, key: int, gained: int, chosen: list[Option]) -> None:
            nonlocal best
            if c == 4:
                acc = key >> ACC_SH & AMASK
                for delta, desig, choice in self.ends(x, acc, total - (key & 3)):
                    done = self._end_step(key, delta, desig)
                    if done == after and (best is None or gained > best[0]):
                        opts = (chosen[0], chosen[1], chosen[2], chosen[3])
                        best = (gained, Step(x, opts, choice))
                return
            shift = C_SH + CB * c
            cid = key >> shift & CMASK
            spec = self.spec(x, c, total - (key & 3))
            options = colour_options(self.reg.states[cid], spec)
            for option, (delta, gain, starts, closes) in zip(
                options, self.trans(x, c, cid, total - (key & 3)), strict=True
            ):
                if (delta, gain) == _DEAD[:2]:
                    continue
                moved = self._step(key, delta, starts, closes)
                if moved is not None:
                    walk(c + 1, moved, gained + gain, [*chosen, option])

        walk(0, before, 0, [])
        if best is None:
            raise AssertionError("search chain cannot be retraced")
        return best[1], score + best[0]


def _multisets(items: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    if count == 0:
        return [()]
    if not items:
        return []
    head, rest = items[0], items[1:]
    return [(head, *tail) for tail in _multisets(items, count - 1)] + _multisets(rest, count)
