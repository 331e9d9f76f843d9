"""Single sets from a rack that reach the initial-meld minimum on their own.

Under ``initial_meld_single_set`` one set must be worth the minimum. When the budget
runs out before the exact search has found the best play, a good play is still easy
to find by hand: pick such a set first, then lay what the rest of the rack can make.
These are the candidate sets, most promising first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine.ruleset import Ruleset
from engine.sets import analyse_set
from engine.tiles import COLOURS, JOKER, Tile

TileSet = tuple[Tile, ...]


def designated_sets(rack: Counter[Tile], rules: Ruleset, limit: int) -> list[TileSet]:
    """Up to ``limit`` sets from ``rack`` worth at least ``rules.initial_meld_min``:
    those needing the fewest jokers first, then the shortest (the rest of the rack
    keeps the most tiles to lay).

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> rack = Counter(parse_tiles(["R9", "R10", "R11", "R12", "B13", "K13", "O13", "J"]))
    >>> [format_tiles(s) for s in designated_sets(rack, Ruleset(initial_meld_min=36), 3)]
    [['B13', 'K13', 'O13'], ['R9', 'R10', 'R11', 'R12'], ['R11', 'R12', 'J']]
    """
    found = []
    for tile_set in _runs(rack, rules.allow_wrap) | _groups(rack):
        analysis = analyse_set(tile_set, rules)
        if analysis.problem is None and max(analysis.values) >= rules.initial_meld_min:
            found.append(tile_set)
    found.sort(key=lambda s: (s.count(JOKER), len(s), s))
    return found[:limit]


def _runs(rack: Counter[Tile], wrap: bool) -> set[TileSet]:
    """Every run the rack can make, a missing tile stood for by a joker."""
    runs = set()
    for colour in COLOURS:
        for start in range(1, 14):
            for numbers in _stretches(start, wrap):
                tiles = [Tile(colour, n) if rack[Tile(colour, n)] else JOKER for n in numbers]
                if tiles.count(JOKER) <= rack[JOKER]:
                    runs.add(tuple(tiles))
    return runs


def _stretches(start: int, wrap: bool) -> Iterator[list[int]]:
    """The numbers of runs of 3 or more starting at ``start`` (round 13-1 with wrap)."""
    for length in range(3, 14):
        numbers = [(start + k - 1) % 13 + 1 for k in range(length)]
        if not wrap and start + length - 1 > 13:
            return
        yield numbers


def _groups(rack: Counter[Tile]) -> set[TileSet]:
    """Every group of 3 or 4 the rack can make with its real tiles, jokers filling up."""
    groups = set()
    for number in range(1, 14):
        real = tuple(Tile(c, number) for c in COLOURS if rack[Tile(c, number)])
        for size in (3, 4):
            jokers = size - len(real)
            if 0 <= jokers <= rack[JOKER]:
                groups.add((*real, *[JOKER] * jokers))
            elif jokers < 0:
                groups.add(real[:size])
    return groups
