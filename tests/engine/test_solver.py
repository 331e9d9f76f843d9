"""The exact solver: reference optima, edge positions, legality of every answer, arrange."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ruleset import Ruleset
from engine.sets import is_valid_set
from engine.solver import Solution, arrange, solve
from engine.tiles import COLOURS, JOKER, Tile, full_set, parse_tiles
from engine.verdict import judge_turn

TilesFromText = Callable[[str], tuple[Tile, ...]]
TableFromText = Callable[[str], list[tuple[Tile, ...]]]

POSITIONS = json.loads((Path(__file__).parent / "data" / "sample-positions.json").read_text())[
    "positions"
]
FREE_POSITIONS = [p for p in POSITIONS if p["mode"] == "free"]
INITIAL_POSITIONS = [p for p in POSITIONS if p["mode"] == "initial"]
STANDARD = Ruleset()


def _position(p: dict[str, Any]) -> tuple[list[tuple[Tile, ...]], tuple[Tile, ...]]:
    return [parse_tiles(s) for s in p["table"]], parse_tiles(p["rack"])


def _assert_legal(
    table: list[tuple[Tile, ...]],
    rack: tuple[Tile, ...],
    done: bool,
    ruleset: Ruleset,
    solution: Solution,
) -> None:
    """A solution is a legal turn that plays exactly ``played``, or nothing at all."""
    if not solution.played:
        assert solution.n == 0 and solution.value == 0
        assert solution.table_after == tuple(tuple(s) for s in table)
        return
    verdict = judge_turn(table, rack, solution.table_after, done, ruleset)
    assert verdict.valid, verdict.detail
    assert Counter(solution.played) == Counter(verdict.played)
    assert list(solution.played) == sorted(solution.played)
    assert solution.n == len(solution.played)
    assert solution.value == sum(t.number for t in solution.played)


# -- reference optima ---------------------------------------------------------------


@pytest.mark.parametrize("p", FREE_POSITIONS, ids=[p["id"] for p in FREE_POSITIONS])
def test_it_finds_the_reference_optimum_for_most_tiles(p: dict[str, Any]) -> None:
    table, rack = _position(p)
    solution = solve(table, rack, True, STANDARD)
    ref = p["reference"]
    assert (solution.n, solution.value) == (ref["max_tiles"], ref["max_value_among_max_tiles"])
    _assert_legal(table, rack, True, STANDARD, solution)


@pytest.mark.parametrize("p", FREE_POSITIONS, ids=[p["id"] for p in FREE_POSITIONS])
def test_it_finds_the_reference_optimum_for_most_value(p: dict[str, Any]) -> None:
    table, rack = _position(p)
    solution = solve(table, rack, True, STANDARD, objective="value")
    assert solution.value == p["reference"]["max_value"]
    _assert_legal(table, rack, True, STANDARD, solution)


@pytest.mark.parametrize("p", INITIAL_POSITIONS, ids=[p["id"] for p in INITIAL_POSITIONS])
def test_it_finds_the_reference_initial_meld(p: dict[str, Any]) -> None:
    table, rack = _position(p)
    solution = solve(table, rack, False, STANDARD)
    assert solution.n == p["reference"]["max_tiles_initial"]
    _assert_legal(table, rack, False, STANDARD, solution)


# -- edge positions -------------------------------------------------------------------


def test_it_lays_a_joker_on_the_end_of_a_run(table: TableFromText, tiles: TilesFromText) -> None:
    before = table("R5 R6 R7")
    solution = solve(before, tiles("J"), True, STANDARD)
    assert solution.played == (JOKER,)
    _assert_legal(before, tiles("J"), True, STANDARD, solution)


def test_it_reads_a_joker_before_twelve_thirteen(tiles: TilesFromText) -> None:
    solution = solve([], tiles("R12 R13 J"), True, STANDARD)
    assert solution.n == 3 and solution.value == 25
    assert solution.table_after == (tiles("J R12 R13"),)


def test_it_does_not_wrap_thirteen_to_one_unless_allowed(tiles: TilesFromText) -> None:
    rack = tiles("R12 R13 R1")
    assert solve([], rack, True, STANDARD).n == 0
    wrapped = solve([], rack, True, Ruleset(allow_wrap=True))
    assert wrapped.n == 3
    assert wrapped.table_after == (tiles("R12 R13 R1"),)


def test_it_keeps_a_wrapped_run_to_thirteen_tiles(tiles: TilesFromText) -> None:
    suit = " ".join(f"R{n}" for n in range(1, 14))
    rack = tiles(f"{suit} {suit} J")
    rules = Ruleset(allow_wrap=True)
    solution = solve([], rack, True, rules)
    assert solution.n == 27
    assert max(len(s) for s in solution.table_after) <= 13
    _assert_legal([], rack, True, rules, solution)


def test_it_puts_table_jokers_back_on_the_table(table: TableFromText, tiles: TilesFromText) -> None:
    before = table("R5 J R7 | K1 K2 K3")
    rack = tiles("R6 B9")
    solution = solve(before, rack, True, STANDARD)
    assert solution.played == tiles("R6")
    laid = Counter(t for s in solution.table_after for t in s)
    assert laid[JOKER] == 1
    _assert_legal(before, rack, True, STANDARD, solution)


def test_it_frees_a_joker_and_uses_it_for_rack_tiles(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R5 J R7")
    rack = tiles("R6 B9 K9")
    solution = solve(before, rack, True, STANDARD)
    assert solution.n == 3
    _assert_legal(before, rack, True, STANDARD, solution)


def test_it_plays_nothing_from_an_empty_rack(table: TableFromText) -> None:
    before = table("R5 R6 R7")
    solution = solve(before, (), True, STANDARD)
    assert solution == Solution((), tuple(before), 0, 0)


def test_it_plays_nothing_when_no_tile_fits(table: TableFromText, tiles: TilesFromText) -> None:
    before = table("R5 R6 R7")
    solution = solve(before, tiles("B1 K9 O13"), True, STANDARD)
    assert solution.played == () and solution.table_after == tuple(before)


def test_it_uses_two_jokers_in_one_set(tiles: TilesFromText) -> None:
    solution = solve([], tiles("J J O9"), True, STANDARD)
    assert solution.n == 3


def test_it_makes_three_groups_of_one_number_with_two_jokers(tiles: TilesFromText) -> None:
    rack = tiles("R8 B8 K8 O8 R8 B8 K8 O8 J J")
    solution = solve([], rack, True, STANDARD)
    assert solution.n == 10


def test_it_needs_thirty_for_the_initial_meld(tiles: TilesFromText) -> None:
    assert solve([], tiles("R9 R10 R11"), False, STANDARD).n == 3
    assert solve([], tiles("R8 R9 R10"), False, STANDARD).n == 0
    assert solve([], tiles("R9 R10 J"), False, STANDARD).n == 3  # joker read as R11
    assert solve([], tiles("R8 R9 J"), False, STANDARD).n == 0  # 27 at best


def test_it_counts_the_best_reading_of_a_joker_for_the_meld(tiles: TilesFromText) -> None:
    # O9 J J is worth 27 as a group but 30 as the run 9-10-11.
    assert solve([], tiles("O9 J J"), False, STANDARD).n == 3


def test_it_leaves_the_table_alone_for_the_initial_meld(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R1 R2 R3")
    rack = tiles("R4 K10 B10 O10")
    solution = solve(before, rack, False, STANDARD)
    assert solution.played == tiles("B10 K10 O10")
    assert solution.table_after[0] == before[0]


def test_it_plays_on_the_table_in_the_meld_turn_when_the_rules_allow(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R1 R2 R3")
    rack = tiles("R4 K10 B10 O10")
    rules = Ruleset(initial_meld_same_turn_manipulation=True)
    solution = solve(before, rack, False, rules)
    assert solution.n == 4
    _assert_legal(before, rack, False, rules, solution)


def test_it_lets_a_meld_group_finish_when_its_first_tiles_reach_the_minimum(
    tiles: TilesFromText,
) -> None:
    # B4 K4 O4 bring 12; R10 B10 K10 reach 30 before K10 joins: K10 must still join.
    rules = Ruleset(initial_meld_same_turn_manipulation=True)
    to_play = tiles("R10 B10 K10 B4 K4 O4")
    assert arrange([], to_play, False, rules) is not None
    assert solve([], to_play, False, rules).n == 6


def test_it_needs_one_set_worth_thirty_when_the_rules_say_so(tiles: TilesFromText) -> None:
    rack = tiles("R5 R6 R7 K5 K6 K7")  # 18 + 18: two sets, none worth 30
    assert solve([], rack, False, STANDARD).n == 6
    assert solve([], rack, False, Ruleset(initial_meld_single_set=True)).n == 0


def test_it_uses_house_values_for_the_meld(tiles: TilesFromText) -> None:
    rack = tiles("R1 B1 K1")  # 3 at face value, 45 at house values
    assert solve([], rack, False, STANDARD).n == 0
    assert solve([], rack, False, Ruleset(meld_values="house")).n == 3


def test_it_only_extends_a_locked_joker_set(table: TableFromText, tiles: TilesFromText) -> None:
    before = table("K1 K2 J | R1 B1 O1 | R2 B2 O2")
    rack = tiles("R12 R13")
    locked = Ruleset(joker_set_rule="locked")
    assert solve(before, rack, True, STANDARD).n == 2
    assert solve(before, rack, True, locked).n == 0


def test_it_replaces_a_locked_joker_only_from_the_rack_when_told(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R4 J R6 | R5 B5 K5 O5")
    rack = tiles("B3 K3")
    # The joker can be replaced by the table's R5 and used with B3 K3.
    locked = Ruleset(joker_set_rule="locked")
    assert solve(before, rack, True, locked).n == 2
    rack_only = Ruleset.preset("classic_locked")
    assert solve(before, rack, True, rack_only).n == 0


def test_it_frees_a_group_joker_only_with_both_missing_colours(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R7 B7 J")
    rules = Ruleset(joker_group_retrieval="both_missing")
    assert solve(before, tiles("K7 O3 O4"), True, STANDARD).n == 3
    assert solve(before, tiles("K7 O3 O4"), True, rules).n == 1
    assert solve(before, tiles("K7 O7 O3 O4"), True, rules).n == 4


# -- every answer is a legal turn ------------------------------------------------------

RULE_CHOICES = [
    {},
    {"allow_wrap": True},
    {"joker_set_rule": "locked"},
    {"joker_set_rule": "locked", "joker_replacement_source": "rack_only"},
    {"joker_group_retrieval": "both_missing"},
    {"initial_meld_single_set": True},
    {"initial_meld_same_turn_manipulation": True},
    {"meld_values": "house", "allow_wrap": True},
]


def random_table(rng: random.Random, deck: list[Tile], sets: int) -> list[tuple[Tile, ...]]:
    """Random valid table sets drawn from ``deck`` (which loses their tiles)."""
    table = []
    for _ in range(sets * 5):
        if len(table) == sets:
            break
        if rng.random() < 0.5:
            colour = rng.choice(COLOURS)
            start = rng.randint(1, 11)
            tiles = [Tile(colour, n) for n in range(start, min(14, start + rng.randint(3, 5)))]
        else:
            number = rng.randint(1, 13)
            tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.choice((3, 4)))]
        if JOKER in deck and rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = JOKER
        if Counter(tiles) <= Counter(deck) and is_valid_set(tiles):
            table.append(tuple(tiles))
            for tile in tiles:
                deck.remove(tile)
    return table


def random_position(
    seed: int, sets: int, rack_size: int
) -> tuple[list[tuple[Tile, ...]], tuple[Tile, ...]]:
    """A random valid table of up to ``sets`` sets and a rack of ``rack_size`` tiles."""
    rng = random.Random(seed)
    deck = list(full_set())
    rng.shuffle(deck)
    table = random_table(rng, deck, sets)
    return table, tuple(deck[:rack_size])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 6),
    rack_size=st.integers(0, 14),
    rules=st.sampled_from(RULE_CHOICES),
    done=st.booleans(),
    objective=st.sampled_from(["tiles", "value"]),
)
def test_every_answer_is_a_legal_turn(
    seed: int, sets: int, rack_size: int, rules: dict[str, Any], done: bool, objective: str
) -> None:
    table, rack = random_position(seed, sets, rack_size)
    ruleset = Ruleset.from_dict(rules)
    solution = solve(table, rack, done, ruleset, objective)  # type: ignore[arg-type]
    _assert_legal(table, rack, done, ruleset, solution)
    if solution.played:
        after = arrange(table, solution.played, done, ruleset)
        assert after is not None
        verdict = judge_turn(table, rack, after, done, ruleset)
        assert verdict.valid, verdict.detail
        assert Counter(verdict.played) == Counter(solution.played)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 6),
    rules=st.sampled_from(RULE_CHOICES),
    done=st.booleans(),
)
def test_arrange_lays_exactly_the_given_tiles_or_refuses(
    seed: int, sets: int, rules: dict[str, Any], done: bool
) -> None:
    rng = random.Random(seed)
    deck = list(full_set())
    rng.shuffle(deck)
    table = random_table(rng, deck, sets)
    to_play = tuple(deck[: rng.randint(1, 5)])
    ruleset = Ruleset.from_dict(rules)
    after = arrange(table, to_play, done, ruleset)
    if after is None:
        # Refused: then no play lays all of them.
        best = solve(table, to_play, done, ruleset)
        assert best.n < len(to_play)
        return
    verdict = judge_turn(table, to_play, after, done, ruleset)
    assert verdict.valid, verdict.detail
    assert Counter(verdict.played) == Counter(to_play)


# -- arrange -------------------------------------------------------------------------


@pytest.mark.parametrize("p", FREE_POSITIONS[::4], ids=[p["id"] for p in FREE_POSITIONS[::4]])
def test_arrange_lays_out_the_tiles_of_an_optimal_solution(p: dict[str, Any]) -> None:
    table, rack = _position(p)
    solution = solve(table, rack, True, STANDARD)
    if not solution.played:
        return
    after = arrange(table, solution.played, True, STANDARD)
    assert after is not None
    verdict = judge_turn(table, rack, after, True, STANDARD)
    assert verdict.valid, verdict.detail
    assert Counter(verdict.played) == Counter(solution.played)


def test_arrange_returns_none_when_the_tiles_cannot_all_be_laid(
    table: TableFromText, tiles: TilesFromText
) -> None:
    assert arrange([], tiles("R4 B9"), True, STANDARD) is None
    assert arrange(table("R1 R2 R3"), tiles("R4 K9"), True, STANDARD) is None
    assert arrange([], (), True, STANDARD) is None


def test_arrange_keeps_untouched_sets_as_they_were(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("K9 K10 K11 | R1 R2 R3 | B5 K5 O5 | O11 O12 O13")
    after = arrange(before, tiles("R4 R5"), True, STANDARD)
    assert after is not None
    for kept in ("K9 K10 K11", "B5 K5 O5", "O11 O12 O13"):
        assert tiles(kept) in after
    assert tiles("R1 R2 R3 R4 R5") in after


def test_arrange_respects_the_initial_meld(table: TableFromText, tiles: TilesFromText) -> None:
    before = table("R1 R2 R3")
    assert arrange(before, tiles("R4 R5 R6"), False, STANDARD) is None
    after = arrange(before, tiles("R10 R11 R12"), False, STANDARD)
    assert after == (tiles("R1 R2 R3"), tiles("R10 R11 R12"))


def test_arrange_agrees_with_solve_on_what_can_be_played(
    table: TableFromText, tiles: TilesFromText
) -> None:
    before = table("R5 J R7 | B1 B2 B3")
    rack = tiles("R6 B4 K4 O4")
    solution = solve(before, rack, True, STANDARD)
    assert solution.n == 4
    after = arrange(before, solution.played, True, STANDARD)
    assert after is not None and judge_turn(before, rack, after, True, STANDARD).valid
