"""Tiles and their text notation.

A numbered tile is written as a colour letter and a number: ``R7`` (red 7),
``B13`` (blue 13), ``K1`` (black 1), ``O12`` (orange 12). A joker is ``J``.
The full set has two copies of every numbered tile and two jokers (RULES.md R1.1);
copies are interchangeable, so racks, pools and sets are multisets of :class:`Tile`.

>>> t = parse_tile("R7")
>>> t.colour, t.number, str(t)
(<Colour.RED: 'R'>, 7, 'R7')
>>> parse_tile("J").is_joker
True
>>> len(full_set())
106
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

MIN_NUMBER = 1
MAX_NUMBER = 13
COPIES = 2
JOKER_COUNT = 2


class NotationError(ValueError):
    """Raised for text that is not a tile (``X7``, ``R14``, ``R0``, ``""``)."""


class Colour(enum.Enum):
    """The four tile colours, valued by their notation letter."""

    RED = "R"
    BLUE = "B"
    BLACK = "K"
    ORANGE = "O"

    @property
    def index(self) -> int:
        """Position in the fixed colour order R, B, K, O.

        >>> Colour.BLACK.index
        2
        """
        return _COLOUR_INDEX[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}
_COLOUR_BY_LETTER = {colour.value: colour for colour in COLOURS}


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a colour and a number from 1 to 13, or the joker.

    Use :func:`parse_tile` or the constructor; the joker is :data:`JOKER`.

    >>> Tile(Colour.ORANGE, 12)
    Tile('O12')
    >>> Tile(Colour.ORANGE, 14)
    Traceback (most recent call last):
    ...
    engine.tiles.NotationError: tile number must be 1-13, got 14
    """

    colour: Colour | None
    number: int

    def __post_init__(self) -> None:
        if self.colour is None:
            if self.number != 0:
                raise NotationError("the joker has no number")
        elif not MIN_NUMBER <= self.number <= MAX_NUMBER:
            raise NotationError(f"tile number must be 1-13, got {self.number}")

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.colour is None

    @property
    def code(self) -> int:
        """A dense integer id: numbered tiles 0-51 (colour-major), the joker 52.

        >>> parse_tile("R1").code, parse_tile("O13").code, JOKER.code
        (0, 51, 52)
        """
        if self.colour is None:
            return 52
        return self.colour.index * MAX_NUMBER + self.number - 1

    @property
    def face_value(self) -> int:
        """The number printed on the tile; 0 for the joker."""
        return self.number

    def __str__(self) -> str:
        if self.colour is None:
            return "J"
        return f"{self.colour.value}{self.number}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.code < other.code


JOKER = Tile(None, 0)

_BY_CODE: tuple[Tile, ...] = (
    *(Tile(colour, number) for colour in COLOURS for number in range(MIN_NUMBER, MAX_NUMBER + 1)),
    JOKER,
)


_BY_TEXT: dict[str, Tile] = {str(tile): tile for tile in _BY_CODE}


def tile_from_code(code: int) -> Tile:
    """The tile whose :attr:`Tile.code` is ``code``.

    >>> tile_from_code(13)
    Tile('B1')
    """
    return _BY_CODE[code]


def parse_tile(text: str) -> Tile:
    """Parse one tile from its notation.

    >>> parse_tile("K13")
    Tile('K13')
    >>> parse_tile("X7")
    Traceback (most recent call last):
    ...
    engine.tiles.NotationError: 'X7' is not a tile: the colour must be one of R, B, K, O, or J...
    """
    if not isinstance(text, str):
        raise NotationError(f"a tile must be written as text, got {text!r}")
    known = _BY_TEXT.get(text)
    if known is not None:
        return known
    if not text:
        raise NotationError("'' is not a tile: empty text")
    colour = _COLOUR_BY_LETTER.get(text[0])
    if colour is None:
        raise NotationError(
            f"{text!r} is not a tile: the colour must be one of R, B, K, O, or J for a joker"
        )
    digits = text[1:]
    if not digits.isascii() or not digits.isdigit() or digits.startswith("0"):
        raise NotationError(f"{text!r} is not a tile: the number must be 1-13")
    number = int(digits)
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        raise NotationError(f"{text!r} is not a tile: the number must be 1-13")
    return Tile(colour, number)


def parse_tiles(texts: Iterable[str]) -> tuple[Tile, ...]:
    """Parse a list of tile notations.

    >>> parse_tiles(["R5", "J", "R7"])
    (Tile('R5'), Tile('J'), Tile('R7'))
    """
    if isinstance(texts, str):
        raise NotationError(f"expected a list of tiles, got the text {texts!r}")
    return tuple(parse_tile(text) for text in texts)


def format_tiles(tiles: Iterable[Tile]) -> list[str]:
    """The notation of each tile, in the given order.

    >>> format_tiles(parse_tiles(["B4", "J"]))
    ['B4', 'J']
    """
    return [str(tile) for tile in tiles]


def sort_by_colour(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles ordered colour by colour, then by number, jokers last ("789" order).

    >>> format_tiles(sort_by_colour(parse_tiles(["B2", "J", "R9", "R3"])))
    ['R3', 'R9', 'B2', 'J']
    """
    return sorted(tiles, key=lambda t: t.code)


def sort_by_number(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles ordered by number, then colour, jokers last ("777" order).

    >>> format_tiles(sort_by_number(parse_tiles(["B2", "J", "R9", "R2"])))
    ['R2', 'B2', 'R9', 'J']
    """
    return sorted(
        tiles,
        key=lambda t: (99, 0) if t.colour is None else (t.number, t.colour.index),
    )


def full_set() -> tuple[Tile, ...]:
    """All 106 tiles in a fixed order: two copies of each numbered tile, two jokers.

    >>> s = full_set()
    >>> Counter(s)[parse_tile("R7")], Counter(s)[JOKER]
    (2, 2)
    """
    return tuple(tile for tile in _BY_CODE[:-1] for _ in range(COPIES)) + (JOKER,) * JOKER_COUNT


def bag(tiles: Iterable[Tile]) -> Counter[Tile]:
    """A multiset of tiles.

    >>> bag(parse_tiles(["R7", "R7", "J"]))[parse_tile("R7")]
    2
    """
    return Counter(tiles)
