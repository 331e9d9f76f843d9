"""What moved where in one turn: which sets were broken up or extended, which tiles left
which set, which came from the rack (or the River), and which tiles the rack gained.

Pure: it compares two positions (the layouts, the mover's racks and the River before and
after the turn), so it explains a play without trusting anything but the engine's states.
When a tile could have come from two places (the two copies of a tile, one on the rack
and one in a broken set) the set that has most in common with the new set is named: the
totals are exact, the attribution of twin tiles is the likeliest one.

One numbering: the sets are those of the table after the turn, numbered from 1 as the
page lists them. A set of the table before that changed is named by the set after the
turn that holds most of it (its continuation): a tile that left it says "set N" for
that set, a tile that stayed in it says nothing. A set that only gained tiles was
extended, not broken up.

>>> from engine.tiles import parse_tiles as p
>>> moved = movement(
...     before=(p(["R4", "R5", "R6", "R7"]), p(["B9", "K9", "O9"])),
...     after=(p(["B9", "K9", "O9"]), p(["R4", "R5", "R6"]), p(["R7", "B7", "K7"])),
...     rack_before=p(["B7", "K7", "O1"]),
...     rack_after=p(["O1"]),
... )
>>> [(s.index, s.now_in) for s in moved.broken], moved.from_rack
([(2, (2, 3))], ('B7', 'K7'))
>>> [(t.tile, t.origin) for t in moved.sets[2].tiles]
[('R7', 'set 2'), ('B7', 'rack'), ('K7', 'rack')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile, format_tiles

RACK = "rack"
RIVER = "River"


@dataclass(frozen=True)
class MovedTile:
    tile: str
    origin: str
    """Where it was before the turn: ``"set N"`` (the set, numbered as after the turn,
    that continues the one it left), ``"rack"``, ``"River"``; empty for a tile that
    stayed in its set."""


@dataclass(frozen=True)
class MovedSet:
    tiles: tuple[MovedTile, ...]
    changed: bool


@dataclass(frozen=True)
class BrokenSet:
    """A set of the table before the turn whose tiles went to more than one set, or
    lost some: ``index``, the set after the turn holding most of it; ``now_in``, the
    sets after the turn holding its tiles."""

    index: int
    tiles: tuple[str, ...]
    now_in: tuple[int, ...]


@dataclass(frozen=True)
class ExtendedSet:
    """A set of the table before the turn that is whole in set ``index`` after it, with
    ``added`` tiles."""

    index: int
    added: tuple[str, ...]


@dataclass(frozen=True)
class Movement:
    sets: tuple[MovedSet, ...]
    broken: tuple[BrokenSet, ...]
    from_rack: tuple[str, ...]
    from_river: tuple[str, ...]
    to_rack: tuple[str, ...]
    """Tiles the mover's rack gained (drawn, or taken from the River and kept)."""
    extended: tuple[ExtendedSet, ...] = ()

    @property
    def table_changed(self) -> bool:
        return any(tile_set.changed for tile_set in self.sets) or bool(self.broken)


def movement(
    before: Sequence[Sequence[Tile]],
    after: Sequence[Sequence[Tile]],
    rack_before: Sequence[Tile],
    rack_after: Sequence[Tile],
    river_before: Sequence[Tile] = (),
    river_after: Sequence[Tile] = (),
) -> Movement:
    """The turn from ``before`` to ``after`` as tile movements (see the module)."""
    unmatched = {index: Counter(tile_set) for index, tile_set in enumerate(before, start=1)}
    kept: list[int | None] = []
    for tile_set in after:
        same = next((i for i, bag in unmatched.items() if bag == Counter(tile_set)), None)
        if same is not None:
            del unmatched[same]
        kept.append(same)
    changed = [j for j, same in enumerate(kept, start=1) if same is None]
    continuation = _continuations(unmatched, after, changed)
    originals = {i: Counter(bag) for i, bag in unmatched.items()}
    left_rack = Counter(rack_before) - Counter(rack_after)
    left_river = Counter(river_before) - Counter(river_after)
    from_rack, from_river = Counter(left_rack), Counter(left_river)
    sets = []
    went_to: dict[int, set[int]] = {i: set() for i in unmatched}
    for number, (tile_set, same) in enumerate(zip(after, kept, strict=True), start=1):
        if same is not None:
            sets.append(MovedSet(tuple(MovedTile(str(t), "") for t in tile_set), False))
            continue
        # The broken sets sharing most tiles with this one are its likeliest sources.
        sources = sorted(
            unmatched,
            key=lambda i: (-sum((unmatched[i] & Counter(tile_set)).values()), i),
        )
        tiles = []
        for tile in tile_set:
            source = _take(tile, sources, unmatched)
            if source is not None:
                went_to[source].add(number)
                home = continuation[source]
                tiles.append(MovedTile(str(tile), "" if home == number else f"set {home}"))
            else:
                tiles.append(MovedTile(str(tile), _from_hand(tile, left_rack, left_river)))
        sets.append(MovedSet(tuple(tiles), True))
    whole = {
        i
        for i, bag in originals.items()
        if went_to[i] == {continuation[i]} and not bag - Counter(after[continuation[i] - 1])
    }
    extended = tuple(
        ExtendedSet(
            continuation[i], tuple(t.tile for t in sets[continuation[i] - 1].tiles if t.origin)
        )
        for i in sorted(whole)
    )
    extended = tuple(e for e in extended if e.added)  # two sets joined added nothing
    broken = tuple(
        BrokenSet(continuation[i], tuple(format_tiles(before[i - 1])), tuple(sorted(went_to[i])))
        for i in sorted(originals)
        if i not in whole
    )
    gained = Counter(rack_after) - Counter(rack_before)
    return Movement(
        sets=tuple(sets),
        broken=broken,
        from_rack=tuple(format_tiles(sorted(from_rack.elements()))),
        from_river=tuple(format_tiles(sorted(from_river.elements()))),
        to_rack=tuple(format_tiles(sorted(gained.elements()))),
        extended=extended,
    )


def _continuations(
    unmatched: dict[int, Counter[Tile]], after: Sequence[Sequence[Tile]], changed: Sequence[int]
) -> dict[int, int]:
    """Each changed set of the table before: the changed set after the turn that holds
    most of its tiles (the first of equals); 0 for none (a rewind takes tiles back to
    the racks)."""
    return {
        i: max(changed, key=lambda j: (sum((bag & Counter(after[j - 1])).values()), -j), default=0)
        for i, bag in unmatched.items()
    }


def _take(tile: Tile, sources: Sequence[int], unmatched: dict[int, Counter[Tile]]) -> int | None:
    for index in sources:
        if unmatched[index][tile] > 0:
            unmatched[index][tile] -= 1
            return index
    return None


def _from_hand(tile: Tile, rack: Counter[Tile], river: Counter[Tile]) -> str:
    if rack[tile] > 0:
        rack[tile] -= 1
        return RACK
    if river[tile] > 0:
        river[tile] -= 1
        return RIVER
    return "?"
