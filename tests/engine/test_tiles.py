"""Tiles and their notation."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import (
    JOKER,
    Colour,
    NotationError,
    Tile,
    format_tiles,
    full_set,
    parse_tile,
    parse_tiles,
    sort_by_colour,
    sort_by_number,
    tile_from_code,
)

_tile = st.sampled_from(full_set())


@given(_tile)
def test_notation_round_trips(tile: Tile) -> None:
    assert parse_tile(str(tile)) == tile
    assert tile_from_code(tile.code) == tile


@given(st.lists(_tile))
def test_lists_of_tiles_round_trip(tiles: list[Tile]) -> None:
    assert list(parse_tiles(format_tiles(tiles))) == tiles


@given(st.lists(_tile))
def test_sorting_keeps_every_tile(tiles: list[Tile]) -> None:
    assert Counter(sort_by_colour(tiles)) == Counter(tiles) == Counter(sort_by_number(tiles))


@pytest.mark.parametrize(
    "text",
    [
        "X7",
        "R14",
        "R0",
        "",
        "r7",
        "R07",
        " R7",
        "R7 ",
        "R",
        "7",
        "J1",
        "JJ",
        "R1.0",
        "R-1",
        "R+1",
        "R\u0661",  # an Arabic-Indic digit one
    ],
)
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_tile(text)


@pytest.mark.parametrize("value", [7, None, ["R7"], 7.0])
def test_non_text_is_refused(value: Any) -> None:
    with pytest.raises(NotationError):
        parse_tile(value)


def test_a_list_of_tiles_is_not_one_string() -> None:
    with pytest.raises(NotationError):
        parse_tiles("R7")


def test_the_full_set_has_two_of_each_tile_and_two_jokers() -> None:
    counts = Counter(full_set())
    assert len(full_set()) == 106
    assert len(counts) == 53
    assert set(counts.values()) == {2}
    assert counts[JOKER] == 2


def test_codes_are_dense_and_colour_major() -> None:
    assert [tile_from_code(code).code for code in range(53)] == list(range(53))
    assert str(tile_from_code(13)) == "B1"
    assert tile_from_code(52) == JOKER


def test_tiles_know_their_colour_and_number() -> None:
    tile = parse_tile("K13")
    assert (tile.colour, tile.number, tile.face_value, tile.is_joker) == (
        Colour.BLACK,
        13,
        13,
        False,
    )
    assert JOKER.is_joker and JOKER.face_value == 0 and str(JOKER) == "J"
    with pytest.raises(NotationError):
        Tile(None, 5)
