"""The solver against a brute-force reference on hundreds of small random positions.

The reference knows nothing of lanes or dynamic programming: it lists every sub-multiset of the
tiles that :func:`engine.sets.is_valid_set` accepts, tries every partition of the
table plus a chosen part of the rack into such sets, and asks
:func:`engine.verdict.judge_turn` whether the resulting turn is legal. The parts of the
rack are tried best first, so the first legal one is the optimum. Exponential: keep
positions to about a dozen tiles.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Any

import pytest

from engine.ruleset import Ruleset
from engine.sets import is_valid_set
from engine.solver import solve
from engine.tiles import COLOURS, JOKER, Tile, format_tiles
from engine.verdict import judge_turn

TileSet = tuple[Tile, ...]


def candidate_sets(pool: Counter[Tile], ruleset: Ruleset) -> list[Counter[Tile]]:
    """Every valid set (as a multiset) that can be taken from ``pool``."""
    found: dict[TileSet, Counter[Tile]] = {}
    numbered = sorted(tile for tile in pool if not tile.is_joker)
    jokers = pool[JOKER]
    same_colour: dict[object, list[Tile]] = {}
    same_number: dict[int, list[Tile]] = {}
    for tile in numbered:
        same_colour.setdefault(tile.colour, []).append(tile)
        same_number.setdefault(tile.number, []).append(tile)
    for family in [*same_colour.values(), *same_number.values()]:
        for size in range(1, len(family) + 1):
            for chosen in combinations(family, size):
                for extra in range(min(jokers, 2) + 1):
                    tiles = (*chosen, *[JOKER] * extra)
                    if len(tiles) >= 3 and is_valid_set(tiles, ruleset):
                        found[tuple(sorted(tiles))] = Counter(tiles)
    return list(found.values())


def partitions(
    tiles: Counter[Tile], candidates: Sequence[Counter[Tile]], limit: int = 200
) -> Iterator[list[TileSet]]:
    """Partitions of ``tiles`` into candidate sets (at most ``limit`` of them)."""
    count = 0

    def walk(left: Counter[Tile], sets: list[TileSet]) -> Iterator[list[TileSet]]:
        nonlocal count
        if count >= limit:
            return
        if not +left:
            count += 1
            yield list(sets)
            return
        first = min(tile for tile in +left)
        if first.is_joker:
            first = next((t for t in sorted(+left) if not t.is_joker), first)
        for candidate in candidates:
            if candidate[first] and all(left[t] >= n for t, n in candidate.items()):
                sets.append(tuple(sorted(candidate.elements())))
                yield from walk(left - candidate, sets)
                sets.pop()

    yield from walk(Counter(tiles), [])


def sub_racks(rack: Sequence[Tile]) -> list[Counter[Tile]]:
    """Every sub-multiset of ``rack``."""
    counts = Counter(rack)
    items = sorted(counts)
    result = []
    for picks in product(*(range(counts[t] + 1) for t in items)):
        result.append(Counter({t: n for t, n in zip(items, picks, strict=True) if n}))
    return result


def score(tiles: Counter[Tile], objective: str) -> tuple[int, int]:
    n = tiles.total()
    value = sum(t.number * k for t, k in tiles.items() if not t.is_joker)
    return (n, value) if objective == "tiles" else (value, n)


def legal_table(
    table: Sequence[TileSet],
    rack: Sequence[Tile],
    played: Counter[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
) -> list[TileSet] | None:
    """A legal table after playing exactly ``played``, or None."""
    untouched = not initial_meld_done and not ruleset.initial_meld_same_turn_manipulation
    pool = Counter(played)
    if not untouched:
        for tile_set in table:
            pool.update(tile_set)
    candidates = candidate_sets(pool, ruleset)
    for sets in partitions(pool, candidates):
        after = [*table, *sets] if untouched else sets
        if judge_turn(table, rack, after, initial_meld_done, ruleset).valid:
            return after
    return None


def best_play(
    table: Sequence[TileSet],
    rack: Sequence[Tile],
    initial_meld_done: bool,
    ruleset: Ruleset,
    objective: str = "tiles",
) -> tuple[tuple[int, int], list[TileSet] | None]:
    """The best (score, table after) over every legal play; ((0, 0), None) if none."""
    options = sorted(sub_racks(rack), key=lambda c: score(c, objective), reverse=True)
    for played in options:
        if not played:
            break
        after = legal_table(table, rack, played, initial_meld_done, ruleset)
        if after is not None:
            return score(played, objective), after
    return (0, 0), None


# -- random small positions ------------------------------------------------------------


def random_position(
    rng: random.Random, wrap: bool = False, jokers: bool = False
) -> tuple[list[TileSet], list[Tile]]:
    """A small physically possible position: a few table sets and a short rack, drawn
    from two or three colours and a window of five or six numbers, so tiles interact.
    With ``jokers`` both jokers are in play and the table sets take them first."""
    colours = rng.sample(COLOURS, rng.choice((2, 3, 3)))
    size = rng.choice((5, 6))
    low = rng.randint(9, 13) if wrap else rng.randint(1, 14 - size)
    numbers = [(low - 1 + i) % 13 + 1 for i in range(size)]
    deck = [Tile(c, n) for c in colours for n in numbers for _ in range(2)]
    deck += [JOKER] * (2 if jokers else rng.choice((0, 0, 1, 2)))
    rng.shuffle(deck)
    table: list[TileSet] = []
    for _ in range(rng.choice((1, 2, 2, 3) if jokers else (0, 1, 1, 2, 2, 3))):
        found = _random_set(rng, deck, numbers, joker_chance=0.8 if jokers else 0.4)
        if found is not None:
            table.append(found)
            for tile in found:
                deck.remove(tile)
    rack = deck[: rng.randint(1, 6)]
    return table, rack


def _random_set(
    rng: random.Random, deck: list[Tile], numbers: list[int], joker_chance: float
) -> TileSet | None:
    pool = Counter(deck)
    for _ in range(20):
        if rng.random() < 0.5:
            colour = rng.choice([t.colour for t in deck if not t.is_joker])
            start = rng.randrange(len(numbers) - 2)
            size = rng.randint(3, min(5, len(numbers) - start))
            tiles = [Tile(colour, n) for n in numbers[start : start + size]]
        else:
            number = rng.choice(numbers)
            tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.choice((3, 4)))]
        if pool[JOKER] and rng.random() < joker_chance:
            tiles[rng.randrange(len(tiles))] = JOKER
        if Counter(tiles) <= pool:
            return tuple(tiles)
    return None


RULESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "wrap": {"allow_wrap": True},
    "locked": {"joker_set_rule": "locked"},
    "locked_rack_only": {"joker_set_rule": "locked", "joker_replacement_source": "rack_only"},
    "both_missing": {"joker_group_retrieval": "both_missing"},
    "locked_both_missing": {"joker_set_rule": "locked", "joker_group_retrieval": "both_missing"},
    "locked_wrap": {"joker_set_rule": "locked", "allow_wrap": True},
}

INITIAL_RULESETS: dict[str, dict[str, Any]] = {
    "initial": {"initial_meld_min": 15},
    "initial_house": {"meld_values": "house", "initial_meld_min": 20},
    "initial_single": {"initial_meld_single_set": True, "initial_meld_min": 12},
    "initial_same_turn": {"initial_meld_same_turn_manipulation": True, "initial_meld_min": 12},
    "initial_wrap": {"allow_wrap": True, "initial_meld_min": 20},
    "initial_single_same_turn": {
        "initial_meld_single_set": True,
        "initial_meld_same_turn_manipulation": True,
        "initial_meld_min": 10,
    },
    "initial_single_wrap": {
        "initial_meld_single_set": True,
        "allow_wrap": True,
        "meld_values": "house",
        "initial_meld_min": 25,
    },
}


def _cases(rulesets: dict[str, dict[str, Any]], done: bool, count: int) -> list[Any]:
    cases = []
    for name, options in rulesets.items():
        for seed in range(count):
            cases.append(pytest.param(name, options, done, seed, id=f"{name}-{seed}"))
    return cases


def _show(table: Sequence[TileSet], rack: Sequence[Tile]) -> str:
    return f"table={[format_tiles(s) for s in table]} rack={format_tiles(rack)}"


@pytest.mark.parametrize(
    ("name", "options", "done", "seed"),
    _cases(RULESETS, True, 40) + _cases(INITIAL_RULESETS, False, 30),
)
def test_it_agrees_with_brute_force_on_small_positions(
    name: str, options: dict[str, Any], done: bool, seed: int
) -> None:
    rng = random.Random(f"{name}/{seed}")
    table, rack = random_position(rng, bool(options.get("allow_wrap")), jokers=seed % 2 == 1)
    ruleset = Ruleset.from_dict(options)
    objective = "value" if seed % 3 == 0 else "tiles"
    expected, _ = best_play(table, rack, done, ruleset, objective)
    solution = solve(table, rack, done, ruleset, objective)  # type: ignore[arg-type]
    got = (solution.n, solution.value) if objective == "tiles" else (solution.value, solution.n)
    assert got == expected, _show(table, rack)
    if solution.played:
        verdict = judge_turn(table, rack, solution.table_after, done, ruleset)
        assert verdict.valid, (verdict.detail, _show(table, rack))
        assert Counter(solution.played) == Counter(verdict.played)
    else:
        assert solution.table_after == tuple(table)
