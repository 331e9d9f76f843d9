"""Sets, readings and values (RULES.md R2, R3)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ruleset import Ruleset
from engine.sets import (
    analyse_set,
    describe_problem,
    house_value,
    in_reading_order,
    is_valid_set,
    lay_in_order,
    meld_value,
    rack_value,
    readings,
)
from engine.tiles import COLOURS, JOKER, Tile, format_tiles, parse_tile, parse_tiles

WRAP = Ruleset(allow_wrap=True)
HOUSE = Ruleset(meld_values="house")
NUMBERED = [Tile(colour, n) for colour in COLOURS for n in range(1, 14)]


def _t(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text.split())


# -- an independent oracle: concrete sets checked from the definitions, jokers tried
# -- as every one of the 52 numbered tiles. Slow, so only for small sets in tests.


def _concrete_kind(tiles: list[Tile], wrap: bool) -> str | None:
    colours = [t.colour for t in tiles]
    numbers = [t.number for t in tiles]
    if len(set(numbers)) == 1 and len(set(colours)) == len(tiles) and 3 <= len(tiles) <= 4:
        return "group"
    if len(set(colours)) != 1 or len(set(numbers)) != len(tiles) or not 3 <= len(tiles) <= 13:
        return None
    present = set(numbers)
    for start in range(1, 14):
        window = {(start - 1 + i) % 13 + 1 for i in range(len(tiles))}
        if window == present and (wrap or start + len(tiles) - 1 <= 13):
            return "run"
    return None


def _oracle(tiles: tuple[Tile, ...], ruleset: Ruleset) -> set[tuple[str, int]]:
    numbered = [t for t in tiles if not t.is_joker]
    if not numbered:
        return set()
    jokers = len(tiles) - len(numbered)
    found = set()
    for stand_ins in combinations_with_replacement(NUMBERED, jokers):
        concrete = [*numbered, *stand_ins]
        kind = _concrete_kind(concrete, ruleset.allow_wrap)
        if kind is not None:
            found.add((kind, sum(meld_value(t, ruleset) for t in concrete)))
    return found


def _engine(tiles: tuple[Tile, ...], ruleset: Ruleset) -> set[tuple[str, int]]:
    return {(r.kind, r.value(ruleset)) for r in readings(tiles, ruleset)}


# A small pool of tiles around one colour and one number, so that random sets are
# often valid and often nearly so.
_near = st.sampled_from([*_t("R5 R6 R7 R8 R9 B7 K7 O7 R12 R13 R1 R2"), JOKER, JOKER, JOKER])


@settings(max_examples=300, deadline=None)
@given(st.lists(_near, min_size=0, max_size=5), st.booleans(), st.booleans())
def test_readings_agree_with_trying_every_tile_for_every_joker(
    tiles: list[Tile], wrap: bool, house: bool
) -> None:
    ruleset = Ruleset(allow_wrap=wrap, meld_values="house" if house else "face")
    if sum(t.is_joker for t in tiles) > 2:
        tiles = [t for t in tiles if not t.is_joker] + [JOKER, JOKER]
    assert _engine(tuple(tiles), ruleset) == _oracle(tuple(tiles), ruleset)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_real_run_is_valid_in_any_order_and_with_any_tiles_made_jokers(
    data: st.DataObject,
) -> None:
    colour = data.draw(st.sampled_from(COLOURS))
    size = data.draw(st.integers(3, 13))
    start = data.draw(st.integers(1, 14 - size))
    run = [Tile(colour, n) for n in range(start, start + size)]
    jokered = data.draw(st.sets(st.integers(0, size - 1), max_size=2))
    tiles = [JOKER if i in jokered else t for i, t in enumerate(run)]
    shuffled = data.draw(st.permutations(tiles))
    matching = [r for r in readings(shuffled) if r.tiles == tuple(run)]
    assert len(matching) == 1
    assert sorted(matching[0].jokers) == sorted(run[i] for i in jokered)


@given(st.lists(st.sampled_from([*NUMBERED, JOKER]), min_size=0, max_size=14), st.randoms())
def test_validity_never_depends_on_the_order_of_the_tiles(
    tiles: list[Tile], rng: random.Random
) -> None:
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    a, b = analyse_set(tiles, WRAP), analyse_set(shuffled, WRAP)
    assert (a.valid, a.values, a.set_types) == (b.valid, b.values, b.set_types)
    assert (a.problem is None) == a.valid


# -- runs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("R1 R2 R3", 6),
        ("R7 R5 R6", 18),
        ("B4 J B6", 15),
        ("R12 R13 J", 36),
        ("J R1 R2 R3", 10),
        ("R10 J J R13", 46),
        ("J J R12 R13", 46),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 J", 91),
        ("J R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 J", 91),
        ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", 91),
    ],
)
def test_it_reads_runs_with_one_value(text: str, value: int) -> None:
    analysis = analyse_set(_t(text))
    assert analysis.valid
    assert analysis.set_types == ("run",)
    assert analysis.value == value


def test_it_puts_a_joker_on_the_only_side_a_run_can_grow() -> None:
    (reading,) = readings(_t("J R1 R2 R3"))
    assert format_tiles(reading.tiles) == ["R1", "R2", "R3", "R4"]
    assert format_tiles(reading.jokers) == ["R4"]
    (reading,) = readings(_t("R12 R13 J"))
    assert format_tiles(reading.jokers) == ["R11"]


def test_it_offers_both_ends_for_a_joker_at_the_end_of_a_run() -> None:
    analysis = analyse_set(_t("R5 R6 J"))
    assert [format_tiles(r.jokers) for r in analysis.readings] == [["R4"], ["R7"]]
    assert analysis.value is None
    assert analysis.values == (15, 18)
    assert analysis.best_value == 18


def test_two_jokers_fill_a_gap_and_an_end() -> None:
    analysis = analyse_set(_t("R5 J R7 J"))
    assert [format_tiles(r.jokers) for r in analysis.readings] == [["R4", "R6"], ["R6", "R8"]]
    assert analysis.values == (22, 26)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("R13 R1 R2", "R13 R1 R2 is not a run: 13-1 wrap is not allowed"),
        ("R12 R13 J R2", "R12 R13 J R2 is not a run: 13-1 wrap is not allowed"),
        ("R3 R4 R4 R5", "R3 R4 R4 R5 is not a run: the number 4 appears twice"),
        ("R3 R5 R6", "R3 R5 R6 is not a run: 4 is missing"),
        ("R3 R6 R7", "R3 R6 R7 is not a run: 4, 5 are missing"),
        ("B2 B5 J", "B2 B5 J is not a run: 1 joker cannot fill 2 missing numbers (3, 4)"),
        (
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J",
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J is not a run: "
            "a run cannot be longer than 13 tiles",
        ),
        ("R5 B6 R7", "R5 B6 R7 is neither a run (colours differ) nor a group (numbers differ)"),
    ],
)
def test_it_names_what_is_wrong_with_a_bad_run(text: str, problem: str) -> None:
    analysis = analyse_set(_t(text))
    assert not analysis.valid
    assert analysis.problem == problem
    assert analysis.value is None and analysis.best_value is None and analysis.values == ()


def test_a_run_of_13_cannot_take_another_joker_even_with_wrap() -> None:
    assert not is_valid_set(_t("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J"), WRAP)
    assert not is_valid_set(_t("J J R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"), WRAP)


# -- 13-1 wrap ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("R13 R1 R2", (16,)),
        ("R12 R13 R1 R2", (28,)),
        ("R11 R12 R13 R1 R2 R3", (42,)),
        ("R13 J R2", (16,)),
        ("R12 R13 J", (26, 36)),
        ("R1 R2 J", (6, 16)),
        ("R11 R12 R13 R1 J", (39, 47)),
    ],
)
def test_with_wrap_runs_go_round_from_13_to_1(text: str, values: tuple[int, ...]) -> None:
    analysis = analyse_set(_t(text), WRAP)
    assert analysis.set_types == ("run",)
    assert analysis.values == values


def test_a_full_run_with_wrap_is_one_reading_whatever_its_start() -> None:
    tiles = _t("R8 R9 R10 R11 R12 R13 R1 R2 R3 R4 R5 R6 J")
    (reading,) = readings(tiles, WRAP)
    assert format_tiles(reading.jokers) == ["R7"]
    assert reading.tiles[0] == parse_tile("R1")


def test_a_wrapped_run_still_cannot_repeat_a_number() -> None:
    assert describe_problem(_t("R12 R13 R1 R1"), WRAP) == (
        "R12 R13 R1 R1 is not a run: the number 1 appears twice"
    )


def test_with_wrap_a_gap_is_measured_the_short_way_round() -> None:
    assert describe_problem(_t("R12 R2 R3"), WRAP) == "R12 R2 R3 is not a run: 13, 1 are missing"


# -- groups -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("R13 B13 K13 O13", 52), ("R7 B7 J J", 28), ("R7 B7 J", 21), ("K13 J J R13", 52)],
)
def test_it_reads_groups(text: str, value: int) -> None:
    analysis = analyse_set(_t(text))
    assert analysis.set_types == ("group",)
    assert analysis.value == value


def test_a_group_joker_can_be_either_missing_colour() -> None:
    found = readings(_t("R3 K3 J"))
    assert [format_tiles(r.jokers) for r in found] == [["B3"], ["O3"]]
    assert [format_tiles(r.tiles) for r in found] == [["R3", "B3", "K3"], ["R3", "K3", "O3"]]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("R7 B7 R7", "R7 B7 R7 is not a group: red appears twice"),
        ("R3 B3 K3 B3", "R3 B3 K3 B3 is not a group: blue appears twice"),
        (
            "R7 B7 K7 O7 J",
            "R7 B7 K7 O7 J is not a group: a group cannot have more than 4 tiles "
            "(there are only four colours)",
        ),
        ("R7 B7 K8", "R7 B7 K8 is neither a run (colours differ) nor a group (numbers differ)"),
        (
            "R7 R7 J",
            "R7 R7 J is neither a run (the number 7 appears twice) nor a group (red appears twice)",
        ),
    ],
)
def test_it_names_what_is_wrong_with_a_bad_group(text: str, problem: str) -> None:
    assert describe_problem(_t(text)) == problem


# -- two kinds, best reading ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("K3 J J", (6, 9, 12)),
        ("O9 J J", (24, 27, 30)),
        ("R1 J J", (3, 6)),
        ("R13 J J", (36, 39)),
        ("J J R7", (18, 21, 24)),
    ],
)
def test_one_tile_and_two_jokers_read_as_group_or_run(text: str, values: tuple[int, ...]) -> None:
    analysis = analyse_set(_t(text))
    assert analysis.set_types == ("group", "run")
    assert analysis.values == values
    assert analysis.value is None
    assert analysis.best_value == values[-1]


# -- sizes and odd input ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "an empty set: a set needs at least 3 tiles"),
        ("R7", "R7 has only 1 tile: a set needs at least 3 tiles"),
        ("R7 B7", "R7 B7 has only 2 tiles: a set needs at least 3 tiles"),
        ("J J", "J J has only 2 tiles: a set needs at least 3 tiles"),
        ("J J J", "J J J has no numbered tile: a set needs at least one"),
    ],
)
def test_a_set_needs_three_tiles_and_a_number(text: str, problem: str) -> None:
    assert analyse_set(_t(text)).problem == problem


def test_readings_of_a_valid_set_give_no_problem() -> None:
    assert describe_problem(_t("R7 R5 R6")) is None


# -- values --------------------------------------------------------------------------------


def test_house_values_follow_the_keadle_table() -> None:
    assert [house_value(n) for n in range(1, 14)] == [15] + [5] * 8 + [10] * 4


@pytest.mark.parametrize(
    ("text", "ruleset", "values"),
    [
        ("R10 R11 R12", HOUSE, (30,)),
        ("K1 B1 O1", HOUSE, (45,)),
        ("J R2 R3", HOUSE, (15, 25)),
        ("R9 R10 J", HOUSE, (20, 25)),
        ("R13 R1 R2", Ruleset(allow_wrap=True, meld_values="house"), (30,)),
    ],
)
def test_house_meld_values_count_a_joker_as_the_tile_it_stands_for(
    text: str, ruleset: Ruleset, values: tuple[int, ...]
) -> None:
    assert analyse_set(_t(text), ruleset).values == values


def test_a_bare_joker_has_no_table_value() -> None:
    with pytest.raises(ValueError, match="joker"):
        meld_value(JOKER)


@pytest.mark.parametrize(
    ("text", "ruleset", "value"),
    [
        ("R7", Ruleset(), 7),
        ("J", Ruleset(), 30),
        ("J", Ruleset(joker_penalty=25), 25),
        ("J", Ruleset(score_values="house"), 25),
        ("J", Ruleset(score_values="house", joker_penalty=30), 25),
        ("K1", Ruleset(score_values="house"), 15),
        ("K9", Ruleset(score_values="house"), 5),
        ("K10", Ruleset(score_values="house"), 10),
        ("K1", Ruleset(meld_values="house"), 1),
    ],
)
def test_rack_values_follow_score_values_and_the_joker_penalty(
    text: str, ruleset: Ruleset, value: int
) -> None:
    assert rack_value(parse_tile(text), ruleset) == value


def test_every_reading_uses_each_numbered_tile_once() -> None:
    tiles = _t("K3 J J")
    for reading in readings(tiles):
        assert Counter(reading.tiles) - Counter(reading.jokers) == Counter(_t("K3"))


@pytest.mark.parametrize(
    ("laid", "read"),
    [
        (["R7", "J", "R5"], ["R5", "J", "R7"]),
        (["J", "R5", "R6"], ["J", "R5", "R6"]),
        (["R6", "R5", "J"], ["R5", "R6", "J"]),
        (["O9", "K9", "B9"], ["B9", "K9", "O9"]),
        (["R5", "B6", "K7"], ["R5", "B6", "K7"]),
    ],
)
def test_valid_sets_are_shown_as_they_read(laid: list[str], read: list[str]) -> None:
    assert in_reading_order(laid, Ruleset()) == read


@pytest.mark.parametrize(
    ("run", "tiles", "expected"),
    [
        (["R5", "R6", "R7"], ["R4"], ["R4", "R5", "R6", "R7"]),
        (["R5", "R6", "R7"], ["R8"], ["R5", "R6", "R7", "R8"]),
        (["R5", "R6", "R7"], ["R8", "R4"], ["R4", "R5", "R6", "R7", "R8"]),
        (["R5", "J", "R7"], ["R4"], ["R4", "R5", "J", "R7"]),
        (["R5", "J", "R7"], ["R6"], ["R5", "R6", "J", "R7"]),
        (["R5", "R6", "R7"], ["J"], ["R5", "R6", "R7", "J"]),
        (["K9", "B9", "O9"], ["R9"], ["K9", "B9", "O9", "R9"]),
    ],
)
def test_tiles_joining_a_run_go_where_their_numbers_belong(
    run: list[str], tiles: list[str], expected: list[str]
) -> None:
    assert lay_in_order(run, tiles) == expected
