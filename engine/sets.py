"""Sets on the table: groups, runs, their readings and their values (RULES.md R2, R3).

A set is a multiset of tiles (R2.6): the order in which its tiles are listed never
matters. A *reading* gives each joker a concrete tile so that the set becomes a valid
group or run; a set is valid when it has at least one reading. Readings are derived
directly from the numbered tiles (a group can only be the missing colours of its
number, a run only a window of numbers around its tiles), never by trying every
tile for every joker.

>>> from engine.tiles import parse_tiles
>>> a = analyse_set(parse_tiles(["R5", "R6", "J"]))
>>> a.valid, a.set_types, a.values, a.value, a.best_value
(True, ('run',), (15, 18), None, 18)
>>> analyse_set(parse_tiles(["R5", "B6", "R7"])).problem
'R5 B6 R7 is neither a run (colours differ) nor a group (numbers differ)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, TypeVar

from engine.ruleset import Ruleset
from engine.tiles import (
    COLOURS,
    MAX_NUMBER,
    MIN_NUMBER,
    Colour,
    Tile,
    parse_tile,
    parse_tiles,
    tile_from_code,
)

SetKind = Literal["group", "run"]

MIN_SET_SIZE = 3
MAX_GROUP_SIZE = len(COLOURS)
MAX_RUN_SIZE = MAX_NUMBER - MIN_NUMBER + 1

_STANDARD = Ruleset()
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a set: what it is and which tile each joker stands for.

    ``tiles`` are the concrete tiles in table order (a run from its low end, a group
    in colour order R, B, K, O) with every joker replaced; ``jokers`` are the tiles
    the jokers stand for, in the same order.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> r = readings(parse_tiles(["B6", "J", "B4"]))[0]
    >>> r.kind, format_tiles(r.tiles), format_tiles(r.jokers)
    ('run', ['B4', 'B5', 'B6'], ['B5'])
    """

    kind: SetKind
    tiles: tuple[Tile, ...]
    jokers: tuple[Tile, ...]

    def value(self, ruleset: Ruleset = _STANDARD) -> int:
        """The set's value in this reading, with the ruleset's ``meld_values``.

        >>> from engine.tiles import parse_tiles
        >>> readings(parse_tiles(["R13", "B13", "J"]))[0].value()
        39
        """
        return sum(meld_value(tile, ruleset) for tile in self.tiles)


@dataclass(frozen=True, slots=True)
class SetAnalysis:
    """Everything the rules say about one set.

    ``readings`` lists every reading (empty when the set is invalid); ``values`` are
    the distinct values over the readings, ascending; ``problem`` is a sentence naming
    what is wrong with an invalid set, None for a valid one.
    """

    tiles: tuple[Tile, ...]
    readings: tuple[Reading, ...]
    values: tuple[int, ...]
    problem: str | None

    @property
    def valid(self) -> bool:
        """True when the set has at least one reading."""
        return bool(self.readings)

    @property
    def set_types(self) -> tuple[SetKind, ...]:
        """The kinds that have a reading, sorted: ``()``, ``('group',)``, ``('run',)``
        or ``('group', 'run')``."""
        return tuple(sorted({reading.kind for reading in self.readings}))

    @property
    def value(self) -> int | None:
        """The set's value when every reading agrees, else None (ambiguous or invalid)."""
        return self.values[0] if len(self.values) == 1 else None

    @property
    def best_value(self) -> int | None:
        """The most favourable value (R2.6, R3.2); None for an invalid set."""
        return self.values[-1] if self.values else None


def house_value(number: int) -> int:
    """The house value of a number (R3.4): 1 is 15, 2-9 are 5, 10-13 are 10.

    >>> [house_value(n) for n in (1, 2, 9, 10, 13)]
    [15, 5, 5, 10, 10]
    """
    if number == 1:
        return 15
    return 5 if number < 10 else 10


def meld_value(tile: Tile, ruleset: Ruleset = _STANDARD) -> int:
    """The table value of a concrete tile under ``meld_values`` (R3.1, R3.4).

    A joker on the table is worth the tile it stands for, so pass that tile (from a
    :class:`Reading`), not the joker.

    >>> from engine.tiles import parse_tile
    >>> meld_value(parse_tile("R1")), meld_value(parse_tile("R1"), Ruleset(meld_values="house"))
    (1, 15)
    """
    if tile.is_joker:
        raise ValueError("a joker has no table value of its own: value the tile it stands for")
    if ruleset.meld_values == "house":
        return house_value(tile.number)
    return tile.number


def rack_value(tile: Tile, ruleset: Ruleset = _STANDARD) -> int:
    """The penalty value of a tile left on a rack (R3.3, R3.4).

    >>> from engine.tiles import JOKER, parse_tile
    >>> rack_value(JOKER), rack_value(JOKER, Ruleset(joker_penalty=25))
    (30, 25)
    >>> house = Ruleset(score_values="house")
    >>> rack_value(JOKER, house), rack_value(parse_tile("K1"), house)
    (25, 15)
    """
    if ruleset.score_values == "house":
        return 25 if tile.is_joker else house_value(tile.number)
    return ruleset.joker_penalty if tile.is_joker else tile.number


def readings(tiles: Iterable[Tile], ruleset: Ruleset = _STANDARD) -> list[Reading]:
    """Every reading of a set: groups first (by joker colours), then runs (by start).

    Jokers are interchangeable, so two jokers swapping their tiles is one reading.

    >>> from engine.tiles import parse_tiles, format_tiles
    >>> [(r.kind, format_tiles(r.jokers)) for r in readings(parse_tiles(["R5", "R6", "J"]))]
    [('run', ['R4']), ('run', ['R7'])]
    >>> [(r.kind, format_tiles(r.jokers)) for r in readings(parse_tiles(["K9", "B9", "J"]))]
    [('group', ['R9']), ('group', ['O9'])]
    >>> readings(parse_tiles(["R13", "R1", "R2"]))
    []
    >>> len(readings(parse_tiles(["R13", "R1", "R2"]), Ruleset(allow_wrap=True)))
    1
    """
    tiles = tuple(tiles)
    numbered = [tile for tile in tiles if not tile.is_joker]
    if len(tiles) < MIN_SET_SIZE or not numbered:
        return []
    jokers = len(tiles) - len(numbered)
    return [
        *_group_readings(numbered, jokers),
        *_run_readings(numbered, jokers, ruleset.allow_wrap),
    ]


def _group_readings(numbered: Sequence[Tile], jokers: int) -> list[Reading]:
    size = len(numbered) + jokers
    number = numbered[0].number
    colours = [tile.colour for tile in numbered]
    if size > MAX_GROUP_SIZE or len(set(colours)) != len(colours):
        return []
    if any(tile.number != number for tile in numbered):
        return []
    missing = [colour for colour in COLOURS if colour not in colours]
    found = []
    for chosen in combinations(missing, jokers):
        stand_ins = tuple(_tile(colour, number) for colour in chosen)
        found.append(Reading("group", _colour_order([*numbered, *stand_ins]), stand_ins))
    return found


def _tile(colour: Colour, number: int) -> Tile:
    """The tile of that colour and number, shared rather than built and checked anew."""
    return tile_from_code(colour.index * MAX_NUMBER + number - MIN_NUMBER)


def _colour_order(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=lambda tile: tile.code))


def _run_readings(numbered: Sequence[Tile], jokers: int, wrap: bool) -> list[Reading]:
    size = len(numbered) + jokers
    colour = numbered[0].colour
    numbers = {tile.number for tile in numbered}
    if size > MAX_RUN_SIZE or len(numbers) != len(numbered):
        return []
    if colour is None or any(tile.colour != colour for tile in numbered):
        return []
    return [
        Reading(
            "run",
            tuple(_tile(colour, n) for n in window),
            tuple(_tile(colour, n) for n in window if n not in numbers),
        )
        for window in _run_windows(numbers, size, wrap)
    ]


def _run_windows(numbers: set[int], size: int, wrap: bool) -> list[list[int]]:
    """The runs of ``size`` consecutive numbers that contain ``numbers``, low end first."""
    if not wrap:
        low, high = min(numbers), max(numbers)
        first = max(MIN_NUMBER, high - size + 1)
        last = min(low, MAX_NUMBER - size + 1)
        return [list(range(start, start + size)) for start in range(first, last + 1)]
    # With 13-1 wrap the numbers form a cycle; a full 13-tile run is one run
    # whichever number it is said to start from, so it starts from 1.
    starts = range(MIN_NUMBER, MIN_NUMBER + 1 if size == MAX_RUN_SIZE else MAX_NUMBER + 1)
    windows = []
    for start in starts:
        window = [(start - 1 + i) % MAX_RUN_SIZE + 1 for i in range(size)]
        if numbers.issubset(window):
            windows.append(window)
    return windows


def in_reading_order(tiles: Sequence[str], ruleset: Ruleset = _STANDARD) -> list[str]:
    """A valid set's tiles as it reads: a run from its low end, a group in colour order,
    each joker where the tile it stands for would be. An invalid set, or one already laid
    in an order it reads in, is left as it is.

    >>> in_reading_order(["R7", "J", "R5"])
    ['R5', 'J', 'R7']
    >>> in_reading_order(["R5", "R6", "J"])
    ['R5', 'R6', 'J']
    >>> in_reading_order(["R6", "R5", "J"])
    ['R5', 'R6', 'J']
    >>> in_reading_order(["O9", "K9", "B9"])
    ['B9', 'K9', 'O9']
    >>> in_reading_order(["R5", "B6"])
    ['R5', 'B6']
    """
    found = readings(parse_tiles(tiles), ruleset)
    orders = [_laid_as(reading) for reading in found]
    if not orders or list(tiles) in orders:
        return list(tiles)
    # Of several readings (where does the joker go?), the one closest to how it was laid.
    return max(orders, key=lambda order: _agreement(tiles, order))


def lay_in_order(tile_set: Sequence[str], tiles: Sequence[str]) -> list[str]:
    """``tile_set`` with ``tiles`` added: in number order if all of them, with the set,
    are one colour (a run being built), else at the end. A joker stays just before the
    tile it stands below, so it keeps filling its gap.

    >>> lay_in_order(["R5", "J", "R7"], ["R4", "R6"])
    ['R4', 'R5', 'R6', 'J', 'R7']
    >>> lay_in_order(["K9", "B9"], ["R9"])
    ['K9', 'B9', 'R9']
    """
    laid = list(tile_set)
    numbered = [parse_tile(t) for t in (*tile_set, *tiles) if t != "J"]
    one_colour = len({t.colour for t in numbered}) == 1 and any(t != "J" for t in tile_set)
    if not one_colour:
        return [*laid, *tiles]
    for tile in sorted(tiles, key=lambda t: (t == "J", parse_tile(t).number or 0)):
        number = parse_tile(tile).number or 0
        at = len(laid)
        if tile != "J":
            higher = [
                i for i, t in enumerate(laid) if t != "J" and (parse_tile(t).number or 0) > number
            ]
            if higher:
                at = higher[0]
                while at > 0 and laid[at - 1] == "J":
                    at -= 1
        laid.insert(at, tile)
    return laid


def _agreement(laid: Sequence[str], order: Sequence[str]) -> int:
    """How many pairs of tiles ``order`` keeps in the order they were laid."""
    seen: Counter[str] = Counter()
    where = {}
    for index, tile in enumerate(laid):
        where[tile, seen[tile]] = index
        seen[tile] += 1
    seen.clear()
    positions = []
    for tile in order:
        positions.append(where[tile, seen[tile]])
        seen[tile] += 1
    return sum(1 for i, a in enumerate(positions) for b in positions[i + 1 :] if a < b)


def _laid_as(reading: Reading) -> list[str]:
    stand_ins = Counter(reading.jokers)
    laid = []
    for tile in reading.tiles:
        if stand_ins[tile]:
            stand_ins[tile] -= 1
            laid.append("J")
        else:
            laid.append(str(tile))
    return laid


def analyse_set(tiles: Iterable[Tile], ruleset: Ruleset = _STANDARD) -> SetAnalysis:
    """Validity, kinds and values of a set, with the problem of an invalid one.

    >>> from engine.tiles import parse_tiles
    >>> a = analyse_set(parse_tiles(["K3", "J", "J"]))
    >>> a.set_types, a.values, a.value
    (('group', 'run'), (6, 9, 12), None)
    >>> analyse_set(parse_tiles(["R12", "R13", "R1"])).problem
    'R12 R13 R1 is not a run: 13-1 wrap is not allowed'
    >>> analyse_set(parse_tiles(["R7", "B7"])).problem
    'R7 B7 has only 2 tiles: a set needs at least 3 tiles'
    """
    tiles = tuple(tiles)
    found = tuple(readings(tiles, ruleset))
    values = tuple(sorted({reading.value(ruleset) for reading in found}))
    problem = None if found else describe_problem(tiles, ruleset)
    return SetAnalysis(tiles, found, values, problem)


def is_valid_set(tiles: Iterable[Tile], ruleset: Ruleset = _STANDARD) -> bool:
    """True when the tiles form a valid group or run.

    >>> from engine.tiles import parse_tiles
    >>> is_valid_set(parse_tiles(["R7", "R5", "R6"])), is_valid_set(parse_tiles(["R7", "R5"]))
    (True, False)
    """
    return bool(readings(tiles, ruleset))


def show(tiles: Iterable[Tile]) -> str:
    """Tiles as the player sees them, separated by spaces.

    >>> from engine.tiles import parse_tiles
    >>> show(parse_tiles(["K4", "J", "K6"]))
    'K4 J K6'
    """
    return " ".join(str(tile) for tile in tiles)


def describe_problem(tiles: Sequence[Tile], ruleset: Ruleset = _STANDARD) -> str | None:
    """A sentence naming what keeps ``tiles`` from being a set; None if they are one.

    >>> from engine.tiles import parse_tiles
    >>> describe_problem(parse_tiles(["R3", "R5", "R6"]))
    'R3 R5 R6 is not a run: 4 is missing'
    >>> describe_problem(parse_tiles(["R7", "B7", "R7"]))
    'R7 B7 R7 is not a group: red appears twice'
    """
    if readings(tiles, ruleset):
        return None
    name = show(tiles)
    if len(tiles) < MIN_SET_SIZE:
        if not tiles:
            return "an empty set: a set needs at least 3 tiles"
        return f"{name} has only {_count(len(tiles), 'tile')}: a set needs at least 3 tiles"
    numbered = [tile for tile in tiles if not tile.is_joker]
    if not numbered:
        return f"{name} has no numbered tile: a set needs at least one"
    jokers = len(tiles) - len(numbered)
    run = _run_problem(numbered, jokers, ruleset.allow_wrap)
    group = _group_problem(numbered, jokers)
    same_colour = len({tile.colour for tile in numbered}) == 1
    same_number = len({tile.number for tile in numbered}) == 1
    if run and same_colour and not same_number:
        return f"{name} is not a run: {run}"
    if group and same_number and not same_colour:
        return f"{name} is not a group: {group}"
    if run and group:
        return f"{name} is neither a run ({run}) nor a group ({group})"
    return f"{name} is not a valid group or run"


def _run_problem(numbered: Sequence[Tile], jokers: int, wrap: bool) -> str | None:
    size = len(numbered) + jokers
    if len({tile.colour for tile in numbered}) > 1:
        return "colours differ"
    if size > MAX_RUN_SIZE:
        return "a run cannot be longer than 13 tiles"
    repeated = _first_repeat(tile.number for tile in numbered)
    if repeated is not None:
        return f"the number {repeated} appears twice"
    numbers = sorted({tile.number for tile in numbered})
    straight_gap = [n for n in range(numbers[0], numbers[-1] + 1) if n not in numbers]
    if len(straight_gap) <= jokers:
        return None
    cyclic_gap = _cyclic_gap(numbers)
    if len(cyclic_gap) <= jokers:
        return None if wrap else "13-1 wrap is not allowed"
    missing = cyclic_gap if wrap else straight_gap
    listed = ", ".join(str(n) for n in missing)
    if jokers == 0:
        verb = "is" if len(missing) == 1 else "are"
        return f"{listed} {verb} missing"
    return f"{_count(jokers, 'joker')} cannot fill {len(missing)} missing numbers ({listed})"


def _cyclic_gap(numbers: Sequence[int]) -> list[int]:
    """The numbers missing from the shortest stretch round the 13-1 cycle holding ``numbers``."""
    best: list[int] | None = None
    for i, start in enumerate(numbers):
        # Start the stretch at ``start`` and go round to the number before it.
        end = numbers[i - 1]
        length = (end - start) % MAX_RUN_SIZE + 1
        stretch = [(start - 1 + k) % MAX_RUN_SIZE + 1 for k in range(length)]
        gap = [n for n in stretch if n not in numbers]
        if best is None or len(gap) < len(best):
            best = gap
    return best or []


def _group_problem(numbered: Sequence[Tile], jokers: int) -> str | None:
    if len({tile.number for tile in numbered}) > 1:
        return "numbers differ"
    if len(numbered) + jokers > MAX_GROUP_SIZE:
        return "a group cannot have more than 4 tiles (there are only four colours)"
    repeated = _first_repeat(tile.colour for tile in numbered)
    if isinstance(repeated, Colour):
        return f"{repeated.name.lower()} appears twice"
    return None


def _first_repeat(items: Iterable[_T]) -> _T | None:
    counts: Counter[_T] = Counter()
    for item in items:
        counts[item] += 1
        if counts[item] == 2:
            return item
    return None


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
