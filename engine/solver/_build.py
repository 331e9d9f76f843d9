"""Turn the steps of a search into sets of tiles.

The builder replays the steps number by number, keeping the open runs of every
colour in the same order as the tokens of the colour state, so that each option's
plan (what each token did) can be applied to the real runs. Runs are listed from
their low end with jokers where they stand; a run that wraps from 13 to 1 is listed
from its tail (..., 12, 13) round to its head (1, 2, ...). Groups list their colours
in the order R, B, K, O, jokers last.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.solver._groups import split_groups
from engine.solver._lanes import CREDIT, PEND, end_pairs, kind_of, length_of
from engine.solver._model import Problem
from engine.solver._registry import C_SH, CB, CMASK, Registry
from engine.solver._search import Step
from engine.tiles import COLOURS, JOKER, Tile

TileSet = tuple[Tile, ...]


@dataclass(slots=True)
class _Lane:
    token: int
    tiles: list[Tile] = field(default_factory=list)
    head: list[Tile] = field(default_factory=list)


@dataclass(slots=True)
class Built:
    """The sets laid out, and the rack tiles they use (counts per colour and number)."""

    sets: list[TileSet]
    rack_used: list[list[int]]
    jokers: int


def build(problem: Problem, registry: Registry, start: int, steps: list[Step]) -> Built:
    """Replay ``steps`` from the start state ``start`` into sets."""
    lanes: list[list[_Lane]] = []
    for c in range(4):
        state = registry.states[start >> (C_SH + CB * c) & CMASK]
        lanes.append([_Lane(tok) for tok in state])
    # Runs are kept as lists until the end: a short tail that comes round from 13 is
    # put in front of the run it joins, which may already be closed.
    sets: list[list[Tile]] = []
    rack_used = [[0] * 14 for _ in range(4)]
    jokers = 0
    for step in steps:
        position = step.number
        x = problem.order[position]
        free_counts = [0, 0, 0, 0]
        meld_counts = [0, 0, 0, 0]
        desig: list[Tile] = []
        for c, option in enumerate(step.options):
            tile = Tile(COLOURS[c], x)
            rack_used[c][x] += option.rack
            jokers += option.jokers
            lanes[c] = _apply(lanes[c], option.plan, tile, sets)
            g_free, g_meld, g_desig = option.groups
            free_counts[c] = g_free
            meld_counts[c] = g_meld
            desig.extend([tile] * g_desig)
        end = step.end
        jokers += end.free_jokers + end.meld_jokers + end.desig_jokers
        sets.extend(_seeded_groups(problem, position, free_counts, end.seed_choice))
        sets.extend(_groups(x, tuple(free_counts), end.free_jokers - _seed_jokers(end.seed_choice)))
        sets.extend(_groups(x, tuple(meld_counts), end.meld_jokers))
        if desig or end.desig_jokers:
            sets.append([*desig, *[JOKER] * end.desig_jokers])
    credits = problem.wrap and not problem.run_blocks
    for colour_lanes in lanes:
        _close(colour_lanes, credits, sets)
    return Built([piece for tiles in sets for piece in _thirteen_at_most(tiles)], rack_used, jokers)


def _close(lanes: list[_Lane], credits: bool, sets: list[list[Tile]]) -> None:
    """Close the runs still open after 13, joining tails to the heads they came round to."""
    paired: set[int] = set()
    if credits:
        for pairs in end_pairs(tuple(lane.token for lane in lanes)).values():
            for tail, head in pairs or ():
                lanes[head].head[:0] = lanes[tail].tiles
                if length_of(lanes[head].token) < 3:  # a stopped head: not laid yet
                    sets.append(lanes[head].head)
                paired |= {tail, head}
    for i, lane in enumerate(lanes):
        if i not in paired and kind_of(lane.token) != PEND:
            sets.append([*lane.tiles, *lane.head])


def _thirteen_at_most(tiles: list[Tile]) -> list[TileSet]:
    """A run that came round past its own start is two runs (each half has 7 or more)."""
    if len(tiles) <= 13:
        return [tuple(tiles)]
    half = len(tiles) // 2
    return [tuple(tiles[:half]), tuple(tiles[half:])]


def _seed_jokers(choice: tuple[tuple[int, int], ...]) -> int:
    return sum(jokers for _, jokers in choice)


def _apply(
    lanes: list[_Lane], plan: tuple[tuple[int, str, int], ...], tile: Tile, sets: list[list[Tile]]
) -> list[_Lane]:
    result: list[_Lane] = []
    moved: dict[int, _Lane] = {}
    for index, source, new_token in plan:
        base = source.split("@")[0]
        if base.startswith(CREDIT):
            # A head grown to 3 tiles: the credit points at its run.
            grown = moved[int(base.partition("#")[2])]
            result.append(_Lane(new_token, [], grown.tiles))
            continue
        if index >= 0:
            lane = lanes[index]
            if base == "stay":
                result.append(lane)
                continue
            if base == "stop":
                if new_token == -1:
                    sets.append(lane.tiles)
                else:
                    result.append(_Lane(new_token, [], lane.tiles))
                continue
            if kind_of(lane.token) == PEND:
                lane = _Lane(new_token, [], lane.head)
            moved[index] = lane
        else:
            lane = _Lane(new_token)
        lane.token = new_token
        lane.tiles.append(JOKER if base in ("joker", "keep") else tile)
        result.append(lane)
    result.sort(key=lambda lane: lane.token)
    return result


def _groups(x: int, counts: tuple[int, ...], jokers: int) -> list[list[Tile]]:
    layout = split_groups(counts, jokers)
    if layout is None:
        raise AssertionError("the search chose groups that cannot be laid out")
    return [
        [*(Tile(COLOURS[c], x) for c in colours), *[JOKER] * group_jokers]
        for colours, group_jokers in layout
    ]


def _seeded_groups(
    problem: Problem, position: int, counts: list[int], choice: tuple[tuple[int, int], ...]
) -> list[list[Tile]]:
    """The groups of locked or both-missing seeds at ``position``; takes their tiles from
    ``counts``."""
    seeds = [seed for seed in problem.seeds if seed.number == position]
    x = problem.order[position]
    sets = []
    for seed, (mask, jokers) in zip(seeds, choice, strict=True):
        colours = set(seed.colours)
        for c in range(4):
            if mask >> c & 1:
                counts[c] -= 1
                colours.add(c)
        sets.append([*(Tile(COLOURS[c], x) for c in sorted(colours)), *[JOKER] * jokers])
    return sets
