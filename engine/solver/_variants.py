"""Table sets with jokers under the joker variants (RULES.md R7.2, R7.5, §11.3).

Under ``joker_set_rule: "locked"`` every table set with a joker, and under
``joker_group_retrieval: "both_missing"`` every 3-tile group with one joker, is
*held*: the turn verdict asks for an after-set (its successor) that contains all of
the set's numbered tiles, and puts conditions on the jokers. The solver fixes the
successor in place before the search:

* a successor read as a run becomes a :class:`~engine.solver._model.RunBlock`: one
  lane of its colour covers its numbers, holding the sets' numbered tiles, keeping
  or replacing their jokers;
* a successor read as a group becomes a :class:`~engine.solver._model.GroupSeed`: the
  group of that number that holds the sets' tiles.

Copies of a tile are interchangeable, so two held sets may share one successor (the
verdict checks each set on its own): ``O4 O5 J O7`` and ``J O5 O6`` may both live on
in ``O4 O5 O6 O7``, one O5 serving both and the other O5 going free. A set with
several readings (``R5 R6 J``: the joker is R4 or R7) gives one choice per reading;
the solver tries every combination (:func:`fixings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import product

from engine.ruleset import Ruleset
from engine.sets import readings
from engine.solver._model import GroupSeed, RunBlock
from engine.tiles import COLOURS, Tile

TileSet = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Fixing:
    """One combination of successors: blocks, seeds, the table tiles they hold, and
    the cells where a tile must come from the rack (``rack_only``)."""

    blocks: tuple[RunBlock, ...]
    seeds: tuple[GroupSeed, ...]
    reserved: Counter[Tile]
    rack_cells: tuple[tuple[int, int], ...] = field(default=())


@dataclass(frozen=True, slots=True)
class _RunRead:
    colour: int
    numbers: tuple[int, ...]
    stand_ins: frozenset[int]


@dataclass(frozen=True, slots=True)
class _GroupRead:
    number: int
    colours: frozenset[int]
    jokers: int
    both: bool


_Read = _RunRead | _GroupRead


def fixings(table: tuple[TileSet, ...], ruleset: Ruleset) -> list[Fixing]:
    """Every combination of successors for the held table sets.

    >>> from engine.tiles import parse_tiles
    >>> locked = Ruleset(joker_set_rule="locked")
    >>> [f.blocks[0].numbers for f in fixings((parse_tiles(["R5", "R6", "J"]),), locked)]
    [(4, 5, 6), (5, 6, 7)]
    >>> fixings((parse_tiles(["R5", "R6", "J"]),), Ruleset())[0].blocks
    ()
    """
    held = [(tile_set, _reads(tile_set, ruleset)) for tile_set in table]
    held = [(tile_set, reads) for tile_set, reads in held if reads]
    if not held:
        return [Fixing((), (), Counter())]
    found: list[Fixing] = []
    for parts in _partitions(list(range(len(held)))):
        options = [_successors([held[i][1] for i in part], ruleset) for part in parts]
        for combo in product(*options):
            found.append(_fixing(combo, ruleset))
    return found


def _reads(tile_set: TileSet, ruleset: Ruleset) -> list[_Read]:
    """The readings of a held set; [] when the variants leave the set free."""
    jokers = sum(1 for tile in tile_set if tile.is_joker)
    if not jokers:
        return []
    all_reads = readings(tile_set, ruleset)
    both = (
        ruleset.joker_group_retrieval == "both_missing"
        and len(tile_set) == 3
        and jokers == 1
        and any(reading.kind == "group" for reading in all_reads)
    )
    if ruleset.joker_set_rule != "locked" and not both:
        return []
    numbered = [tile for tile in tile_set if not tile.is_joker]
    reads: list[_Read] = []
    group = False
    for reading in all_reads:
        if reading.kind == "group":
            group = True
        else:
            numbers = tuple(tile.number for tile in reading.tiles)
            stand_ins = frozenset(tile.number for tile in reading.jokers)
            reads.append(_RunRead(_index(reading.tiles[0]), numbers, stand_ins))
    if group:
        colours = frozenset(_index(tile) for tile in numbered)
        reads.append(_GroupRead(numbered[0].number, colours, jokers, both))
    return reads


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every way to split ``items`` into non-empty parts (sets sharing a successor)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _successors(
    reads_per_set: Sequence[list[_Read]], ruleset: Ruleset
) -> list[RunBlock | GroupSeed]:
    """Every successor shared by the sets of one part, over their readings."""
    found: list[RunBlock | GroupSeed] = []
    for combo in product(*reads_per_set):
        if all(isinstance(read, _GroupRead) for read in combo):
            seed = _seed([read for read in combo if isinstance(read, _GroupRead)], ruleset)
            if seed is not None:
                found.append(seed)
        elif all(isinstance(read, _RunRead) for read in combo):
            runs = [read for read in combo if isinstance(read, _RunRead)]
            found.extend(_blocks(runs, ruleset.allow_wrap))
    return found


def _seed(reads: list[_GroupRead], ruleset: Ruleset) -> GroupSeed | None:
    if len({read.number for read in reads}) != 1:
        return None
    colours = frozenset().union(*(read.colours for read in reads))
    members = tuple((sum(1 << c for c in read.colours), read.jokers, read.both) for read in reads)
    return GroupSeed(
        reads[0].number,
        tuple(sorted(colours)),
        members,
        ruleset.joker_set_rule == "locked",
        ruleset.joker_replacement_source == "rack_only",
    )


def _blocks(reads: list[_RunRead], wrap: bool) -> list[RunBlock]:
    """Runs holding every read of one colour: one per shortest stretch covering them."""
    if len({read.colour for read in reads}) != 1:
        return []
    held_reals = set().union(*(set(r.numbers) - r.stand_ins for r in reads))
    covered = set().union(*(set(r.numbers) for r in reads))
    blocks = []
    for numbers in _stretches(covered, wrap):
        need: list[tuple[int, str]] = []
        slots: list[tuple[int, int]] = []
        for x in numbers:
            if x in held_reals:
                need.append((x, "block"))
            elif x in covered:
                slots.append((x, len(slots)))
                need.append((x, "joker"))
            else:
                need.append((x, "gap"))
        slot_of = dict(slots)
        members = tuple(
            (
                sum(1 << slot_of[x] for x in read.stand_ins if x in slot_of),
                any(x in held_reals for x in read.stand_ins),
            )
            for read in reads
        )
        released = tuple(sorted(held_reals & set().union(*(r.stand_ins for r in reads))))
        blocks.append(
            RunBlock(reads[0].colour, numbers, tuple(need), tuple(slots), members, released)
        )
    return blocks


def _stretches(covered: set[int], wrap: bool) -> list[tuple[int, ...]]:
    """The stretches of numbers that hold ``covered`` and leave out one whole gap
    between them (without wrap: from the lowest to the highest number)."""
    if not wrap:
        return [tuple(range(min(covered), max(covered) + 1))]
    if len(covered) == 13:
        return [tuple(range(1, 14))]
    stretches = []
    for start in sorted(covered):
        if (start - 2) % 13 + 1 in covered:
            continue
        numbers = tuple((start - 1 + i) % 13 + 1 for i in range(13))
        last = max(i for i, x in enumerate(numbers) if x in covered)
        stretches.append(numbers[: last + 1])
    return stretches


def _fixing(combo: Sequence[RunBlock | GroupSeed], ruleset: Ruleset) -> Fixing:
    blocks = tuple(item for item in combo if isinstance(item, RunBlock))
    seeds = tuple(item for item in combo if isinstance(item, GroupSeed))
    reserved: Counter[Tile] = Counter()
    rack_cells: list[tuple[int, int]] = []
    for block in blocks:
        for x, need in block.need:
            if need == "block":
                reserved[Tile(COLOURS[block.colour], x)] += 1
        if ruleset.joker_replacement_source == "rack_only":
            rack_cells.extend((block.colour, x) for x in block.released)
    for seed in seeds:
        for c in seed.colours:
            reserved[Tile(COLOURS[c], seed.number)] += 1
    return Fixing(blocks, seeds, reserved, tuple(sorted(set(rack_cells))))


def _index(tile: Tile) -> int:
    assert tile.colour is not None
    return tile.colour.index
