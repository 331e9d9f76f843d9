"""What moved where in one turn: which sets were broken up, which tiles left which set,
which came from the rack (or the River), and which tiles the rack gained.

Pure: it compares two positions (the layouts, the mover's racks and the River before and
after the turn), so it explains a play without trusting anything but the engine's states.
When a tile could have come from two places (the two copies of a tile, one on the rack
and one in a broken set) the set that has most in common with the new set is named: the
totals are exact, the attribution of twin tiles is the likeliest one.

>>> from engine.tiles import parse_tiles as p
>>> moved = movement(
...     before=(p(["R4", "R5", "R6", "R7"]), p(["B9", "K9", "O9"])),
...     after=(p(["B9", "K9", "O9"]), p(["R4", "R5", "R6"]), p(["R7", "B7", "K7"])),
...     rack_before=p(["B7", "K7", "O1"]),
...     rack_after=p(["O1"]),
... )
>>> [s.index for s in moved.broken], moved.from_rack
([1], ('B7', 'K7'))
>>> [(t.tile, t.origin) for t in moved.sets[2].tiles]
[('R7', 'set 1'), ('B7', 'rack'), ('K7', 'rack')]
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
    """Where it was before the turn: ``"set N"`` (1-based, the table before), ``"rack"``,
    ``"River"``; empty for a tile of a set left as it was."""


@dataclass(frozen=True)
class MovedSet:
    tiles: tuple[MovedTile, ...]
    changed: bool


@dataclass(frozen=True)
class BrokenSet:
    """A set of the table before the turn that is not on the table after it as it was."""

    index: int
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class Movement:
    sets: tuple[MovedSet, ...]
    broken: tuple[BrokenSet, ...]
    from_rack: tuple[str, ...]
    from_river: tuple[str, ...]
    to_rack: tuple[str, ...]
    """Tiles the mover's rack gained (drawn, or taken from the River and kept)."""

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
    broken = tuple(
        BrokenSet(index, tuple(format_tiles(before[index - 1]))) for index in sorted(unmatched)
    )
    left_rack = Counter(rack_before) - Counter(rack_after)
    left_river = Counter(river_before) - Counter(river_after)
    from_rack, from_river = Counter(left_rack), Counter(left_river)
    sets = []
    for tile_set, same in zip(after, kept, strict=True):
        if same is not None:
            sets.append(MovedSet(tuple(MovedTile(str(t), "") for t in tile_set), False))
            continue
        # The broken sets sharing most tiles with this one are its likeliest sources.
        sources = sorted(
            unmatched,
            key=lambda i: (-sum((unmatched[i] & Counter(tile_set)).values()), i),
        )
        sets.append(
            MovedSet(
                tuple(_origin(t, sources, unmatched, left_rack, left_river) for t in tile_set), True
            )
        )
    gained = Counter(rack_after) - Counter(rack_before)
    return Movement(
        sets=tuple(sets),
        broken=broken,
        from_rack=tuple(format_tiles(sorted(from_rack.elements()))),
        from_river=tuple(format_tiles(sorted(from_river.elements()))),
        to_rack=tuple(format_tiles(sorted(gained.elements()))),
    )


def _origin(
    tile: Tile,
    sources: Sequence[int],
    unmatched: dict[int, Counter[Tile]],
    rack: Counter[Tile],
    river: Counter[Tile],
) -> MovedTile:
    for index in sources:
        if unmatched[index][tile] > 0:
            unmatched[index][tile] -= 1
            return MovedTile(str(tile), f"set {index}")
    if rack[tile] > 0:
        rack[tile] -= 1
        return MovedTile(str(tile), RACK)
    if river[tile] > 0:
        river[tile] -= 1
        return MovedTile(str(tile), RIVER)
    return MovedTile(str(tile), "?")
