"""The turn verdict of RULES.md §11: every reason code, every option that changes it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ruleset import Ruleset
from engine.tiles import JOKER, NotationError, Tile, format_tiles, parse_tiles
from engine.verdict import Reason, TurnVerdict, judge_turn

Judge = Callable[..., TurnVerdict]
TilesFromText = Callable[[str], tuple[Tile, ...]]
TableFromText = Callable[[str], list[tuple[Tile, ...]]]

LOCKED = {"joker_set_rule": "locked"}
CLASSIC = {"joker_set_rule": "locked", "joker_replacement_source": "rack_only"}
BOTH = {"joker_group_retrieval": "both_missing"}
SAME_TURN = {"initial_meld_same_turn_manipulation": True}


@pytest.fixture
def judge(tiles: TilesFromText, table: TableFromText) -> Judge:
    """``judge("table before", "rack", "table after", done=True, **options)``."""

    def run(before: str, rack: str, after: str, done: bool = True, **options: Any) -> TurnVerdict:
        return judge_turn(table(before), tiles(rack), table(after), done, Ruleset(**options))

    return run


def test_reasons_are_the_codes_of_the_spec_in_precedence_order() -> None:
    assert [reason.value for reason in Reason] == [
        "tile_not_owned",
        "tile_removed_from_table",
        "joker_not_reused",
        "no_tile_played",
        "invalid_set",
        "initial_meld_uses_table",
        "initial_meld_below_30",
        "joker_set_locked",
        "joker_replacement_not_from_rack",
        "joker_group_needs_both",
    ]


# -- tile_not_owned --------------------------------------------------------------------


def test_it_refuses_a_tile_drawn_this_turn(judge: Judge) -> None:
    v = judge("", "R10 R11 B4", "R10 R11 R12", done=False)
    assert v.reason is Reason.TILE_NOT_OWNED
    assert v.detail == "R12 is not on your rack (a tile drawn this turn cannot be played)"


def test_it_refuses_a_joker_nobody_has(judge: Judge) -> None:
    v = judge("K1 K2 K3", "R5 R6", "K1 K2 K3 | R5 R6 J")
    assert v.reason is Reason.TILE_NOT_OWNED
    assert v.detail == "the joker is not on your rack (a tile drawn this turn cannot be played)"


def test_it_refuses_a_table_tile_counted_in_two_sets(judge: Judge) -> None:
    v = judge("R5 R6 R7", "B7 K7", "R5 R6 R7 | R7 B7 K7")
    assert v.reason is Reason.TILE_NOT_OWNED
    assert v.detail == (
        "R7 appears 2 times on the table, but there was 1 on the table and none on your rack"
    )


def test_it_refuses_a_rack_tile_played_twice(judge: Judge) -> None:
    v = judge("", "R10 R11 R12 B10 O10", "R10 R11 R12 | R10 B10 O10", done=False)
    assert v.reason is Reason.TILE_NOT_OWNED
    assert "R10 appears 2 times" in v.detail


def test_it_refuses_a_third_copy(judge: Judge) -> None:
    v = judge("R5 R6 R7", "R7 B7 K7 O7", "R5 R6 R7 | R7 B7 K7 | R7 O7 J")
    assert v.reason is Reason.TILE_NOT_OWNED


# -- tile_removed_from_table, joker_not_reused -------------------------------------------


def test_it_refuses_a_table_tile_taken_to_the_rack(judge: Judge) -> None:
    v = judge("R5 R6 R7 R8", "K1 K2 K3", "R5 R6 R7 | K1 K2 K3")
    assert v.reason is Reason.TILE_REMOVED_FROM_TABLE
    assert v.detail == (
        "R8 from R5 R6 R7 R8 is no longer on the table: tiles on the table must stay on the table"
    )


def test_it_refuses_a_joker_replaced_and_kept(judge: Judge) -> None:
    v = judge("R5 J R7", "R6 B1", "R5 R6 R7")
    assert v.reason is Reason.JOKER_NOT_REUSED
    assert v.detail.startswith("the joker from R5 J R7 was not played again")


def test_it_refuses_two_jokers_kept(judge: Judge) -> None:
    v = judge("R5 J J R8", "R6 R7", "R5 R6 R7 R8")
    assert v.reason is Reason.JOKER_NOT_REUSED
    assert v.detail.startswith("2 jokers taken from the table")


# -- no_tile_played ------------------------------------------------------------------


def test_it_refuses_a_turn_that_changes_nothing(judge: Judge) -> None:
    v = judge("B4 B5 B6", "K5", "B4 B5 B6")
    assert v.reason is Reason.NO_TILE_PLAYED
    assert v.detail.startswith("Nothing was played")


def test_it_refuses_a_pure_rearrangement(judge: Judge) -> None:
    v = judge("R1 R2 R3 R4 R5 R6", "B1", "R1 R2 R3 | R4 R5 R6")
    assert v.reason is Reason.NO_TILE_PLAYED
    assert v.detail.startswith("No tile was played from your rack")


def test_before_the_initial_meld_an_empty_play_is_no_tile_played(judge: Judge) -> None:
    v = judge("R1 R2 R3 R4 R5 R6", "K5", "R1 R2 R3 | R4 R5 R6", done=False)
    assert v.reason is Reason.NO_TILE_PLAYED


# -- invalid_set ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "rack", "after", "detail"),
    [
        (
            "K11 K12 K13",
            "R1",
            "K11 K12 K13 | R1",
            "R1 has only 1 tile: a set needs at least 3 tiles",
        ),
        (
            "R5 J R7",
            "B6 K10 K11",
            "R5 B6 R7 | K10 K11 J",
            "R5 B6 R7 is neither a run (colours differ) nor a group (numbers differ)",
        ),
        (
            "R7 B7 K7 O7",
            "J",
            "R7 B7 K7 O7 J",
            "R7 B7 K7 O7 J is not a group: a group cannot have more than 4 tiles "
            "(there are only four colours)",
        ),
        (
            "R11 R12 R13",
            "R1",
            "R11 R12 R13 R1",
            "R11 R12 R13 R1 is not a run: 13-1 wrap is not allowed",
        ),
        (
            "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12",
            "K13 J",
            "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 J",
            "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 J is not a run: "
            "a run cannot be longer than 13 tiles",
        ),
    ],
)
def test_it_refuses_an_invalid_set_and_names_it(
    judge: Judge, before: str, rack: str, after: str, detail: str
) -> None:
    v = judge(before, rack, after)
    assert (v.valid, v.reason, v.detail) == (False, Reason.INVALID_SET, detail)


# -- the initial meld ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rack", "after", "value"),
    [
        ("R9 R10 R11 B3", "R9 R10 R11", 30),
        ("O10 B10 J R3", "O10 B10 J", 30),
        ("O9 J J R3", "O9 J J", 30),
        ("R13 J J B2", "R13 J J", 39),
        ("R9 R10 J K2", "R9 R10 J", 30),
        ("R1 R2 R3 K8 B8 O8", "R1 R2 R3 | K8 B8 O8", 30),
        ("R8 B8 J J", "R8 B8 J J", 32),
    ],
)
def test_an_initial_meld_of_30_or_more_is_valid_at_its_best_reading(
    judge: Judge, rack: str, after: str, value: int
) -> None:
    v = judge("", rack, after, done=False)
    assert v.valid, v.detail
    assert v.initial_meld_value == value


@pytest.mark.parametrize(
    ("rack", "after", "value"),
    [
        ("K9 B9 O9 R1", "K9 B9 O9", 27),
        ("R7 B7 J J", "R7 B7 J J", 28),
        ("J J R1 K5", "J J R1", 6),
        ("B3 B4 B5 B6 B7", "B3 B4 B5 B6 B7", 25),
    ],
)
def test_an_initial_meld_below_30_is_refused(
    judge: Judge, rack: str, after: str, value: int
) -> None:
    v = judge("", rack, after, done=False)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == value
    assert v.detail == (
        f"Initial meld too low: your new sets are worth {value}, and the initial meld needs "
        "at least 30"
    )


def test_the_table_may_hold_an_identical_set_when_the_meld_uses_second_copies(
    judge: Judge,
) -> None:
    v = judge("K11 K12 K13", "K11 K12 K13 B1", "K11 K12 K13 | K11 K12 K13", done=False)
    assert v.valid
    assert v.initial_meld_value == 36


@pytest.mark.parametrize(
    ("before", "rack", "after"),
    [
        ("K10 K11 K12", "K13 R10 B10 O10", "K10 K11 K12 K13 | R10 B10 O10"),
        ("R1 R2 R3 R4 R5 R6", "K11 B11 O11", "R1 R2 R3 | R4 R5 R6 | K11 B11 O11"),
        ("R5 R6 R7 R8", "R9 R10 R11 K1", "R5 R6 R7 | R8 R9 R10 R11"),
        ("R5 J R7", "R6 K11 B11 O11 R11 R12", "R5 R6 R7 | K11 B11 O11 | R11 R12 J"),
        ("K10 K11 K12", "J R13 B13 O13", "K10 K11 K12 J | R13 B13 O13"),
    ],
)
def test_an_initial_meld_must_leave_the_table_alone(
    judge: Judge, before: str, rack: str, after: str
) -> None:
    v = judge(before, rack, after, done=False)
    assert v.reason is Reason.INITIAL_MELD_USES_TABLE
    assert v.detail.endswith(
        "on the table was changed: before your initial meld is down you may only lay new "
        "sets from your rack and leave the table alone"
    )


def test_single_set_option_needs_one_set_of_30(judge: Judge) -> None:
    rack, after = "R1 R2 R3 K8 B8 O8", "R1 R2 R3 | K8 B8 O8"
    assert judge("", rack, after, done=False).valid
    v = judge("", rack, after, done=False, initial_meld_single_set=True)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 24
    assert "needs one set worth at least 30" in v.detail
    v = judge(
        "",
        "R10 R11 R12 K1 B1 O1",
        "R10 R11 R12 | K1 B1 O1",
        done=False,
        initial_meld_single_set=True,
    )
    assert v.valid and v.initial_meld_value == 33


def test_house_meld_values_change_the_initial_meld(judge: Judge) -> None:
    assert judge("", "K1 B1 O1 R5", "K1 B1 O1", done=False, meld_values="house").valid
    v = judge("", "R9 R10 R11 B4", "R9 R10 R11", done=False, meld_values="house")
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 25


def test_the_initial_meld_minimum_is_an_option(judge: Judge) -> None:
    v = judge("", "R10 R11 R12 K3 B3 O3", "R10 R11 R12 | K3 B3 O3", done=False, initial_meld_min=50)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.detail.endswith("needs at least 50")


def test_same_turn_manipulation_allows_touching_the_table_after_30_from_the_rack(
    judge: Judge,
) -> None:
    v = judge(
        "K10 K11 K12", "K13 R10 B10 O10", "K10 K11 K12 K13 | R10 B10 O10", done=False, **SAME_TURN
    )
    assert v.valid
    assert v.initial_meld_value == 30


def test_same_turn_manipulation_counts_only_sets_made_of_rack_tiles(judge: Judge) -> None:
    v = judge("K10 K11 K12", "K13 R9 B9 O9", "K10 K11 K12 K13 | R9 B9 O9", done=False, **SAME_TURN)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 27
    v = judge("R5 J R7", "R6 K11 B11 O11", "R5 R6 R7 | K11 B11 O11 J", done=False, **SAME_TURN)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 0


def test_same_turn_manipulation_counts_a_rack_tile_in_one_set_only(judge: Judge) -> None:
    # R10 R11 R12 (33) and R10 B10 O10 (30) are each made of played tiles, but the
    # rack held one R10: the other came off the table run. Best meld: 33, not 63.
    before, rack = "R7 R8 R9 R10", "R10 R11 R12 B10 O10"
    after = "R7 R8 R9 | R10 R11 R12 | R10 B10 O10"
    v = judge(before, rack, after, done=False, initial_meld_min=40, **SAME_TURN)
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 33


def test_same_turn_manipulation_with_single_set_takes_the_best_rack_only_set(
    judge: Judge,
) -> None:
    v = judge(
        "R5 J R7",
        "R6 K11 B11 O11 R1 R2 R3",
        "R5 R6 R7 | K11 B11 O11 J | R1 R2 R3",
        done=False,
        initial_meld_single_set=True,
        **SAME_TURN,
    )
    assert v.reason is Reason.INITIAL_MELD_BELOW_30
    assert v.initial_meld_value == 6


# -- after the initial meld: free manipulation ----------------------------------------------


@pytest.mark.parametrize(
    ("before", "rack", "after"),
    [
        ("B11 B12 B13", "B10", "B10 B11 B12 B13"),
        ("R1 R2 R3 R4 R5 R6", "R4 K9", "R1 R2 R3 R4 | R4 R5 R6"),
        ("B3 B4 B5 B6 | R3 K3 O3", "B7", "B4 B5 B6 B7 | R3 K3 O3 B3"),
        ("R5 J R7", "R6 K12 B12", "R5 R6 R7 | K12 B12 J"),
        ("K1 K2 J | R1 B1 O1 | R2 B2 O2", "R12 R13", "R1 B1 O1 K1 | R2 B2 O2 K2 | J R12 R13"),
        (
            "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 J",
            "K13 R1 R2",
            "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 | R1 R2 J",
        ),
        ("R5 R6 R7", "R7 B7 K7", "R5 R6 R7 | R7 B7 K7"),
        ("R5 R6 R7 | R9 R10 R11", "R8", "R5 R6 R7 R8 R9 R10 R11"),
    ],
)
def test_after_the_initial_meld_the_table_may_be_rearranged(
    judge: Judge, before: str, rack: str, after: str
) -> None:
    v = judge(before, rack, after)
    assert v.valid, v.detail
    assert v.initial_meld_value is None


def test_wrap_allows_extending_13_with_1_and_2(judge: Judge) -> None:
    assert judge("R11 R12 R13", "R1 R2", "R11 R12 R13 R1 R2", allow_wrap=True).valid
    assert judge("R11 R12 R13", "R1 R2", "R11 R12 R13 R1 R2").reason is Reason.INVALID_SET


# -- joker_set_rule: locked -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "rack", "after"),
    [
        ("R5 R6 J", "R4", "R4 R5 R6 J"),
        ("R5 R6 J", "R8", "R5 R6 J R8"),
        ("K4 J K6", "K7", "K4 J K6 K7"),
        ("K4 J K6", "K3", "K3 K4 J K6"),
        ("R9 B9 J", "K9", "R9 B9 K9 J"),
        ("K4 J K6 | K5 R5 B5 O5", "R9 R10", "K4 K5 K6 | R5 B5 O5 | R9 R10 J"),
        ("R4 J R6", "R5 K9 K10", "R4 R5 R6 | K9 K10 J"),
        ("R9 B9 J", "K9 O1 O2", "R9 B9 K9 | O1 O2 J"),
        ("R5 J J R8", "R6 B9 K9", "R5 R6 J R8 | B9 K9 J"),
        ("R5 J J R8", "R7 B9 K9", "R5 J R7 R8 | B9 K9 J"),
        ("R5 J J R8", "R6 R7 B9 K9", "R5 R6 R7 R8 | B9 K9 J J"),
        ("R1 R2 J | R4 R5 R6", "R7", "R1 R2 J R4 R5 R6 R7"),
    ],
)
def test_locked_joker_sets_may_be_extended_or_have_jokers_replaced(
    judge: Judge, before: str, rack: str, after: str
) -> None:
    v = judge(before, rack, after, **LOCKED)
    assert v.valid, v.detail


@pytest.mark.parametrize(
    ("before", "rack", "after"),
    [
        ("K1 K2 J | R1 B1 O1 | R2 B2 O2", "R12 R13", "R1 B1 O1 K1 | R2 B2 O2 K2 | J R12 R13"),
        ("B1 B2 B3 J B5 B6", "B7", "B1 B2 B3 | J B5 B6 B7"),
        ("K6 K7 K8 J | R6 B6 O6", "R1 R2 R3", "K7 K8 J | R6 B6 O6 K6 | R1 R2 R3"),
        ("R4 R5 R6 J", "K8 B8", "R4 R5 R6 | K8 B8 J"),
        # Replacing the joker and hanging it back on the same set changes what the
        # joker stands for; RULES.md §11.3 (i) needs the joker's tile unchanged.
        ("R5 R6 J", "R7 R4", "R4 R5 R6 R7 J"),
        ("B12 B13 J", "B11", "B11 B12 B13 J"),
        ("R5 J J R8", "R6 R7 R9 R10", "R5 R6 R7 R8 J | R9 R10 J"),
    ],
)
def test_locked_joker_sets_may_not_be_split_or_shortened(
    judge: Judge, before: str, rack: str, after: str
) -> None:
    v = judge(before, rack, after, **LOCKED)
    assert v.reason is Reason.JOKER_SET_LOCKED
    assert v.detail.endswith(
        "was changed: under locked joker rules a set with a joker may only be extended "
        "or have its joker replaced"
    )
    assert judge(before, rack, after).valid


def test_locked_rule_names_the_set_at_fault(judge: Judge) -> None:
    v = judge("K3 K4 J K6 | R1 R2 R3", "K7 K8", "K3 K4 J | K6 K7 K8 | R1 R2 R3", **LOCKED)
    assert v.reason is Reason.JOKER_SET_LOCKED
    assert v.detail.startswith("K3 K4 J K6 was changed")


def test_locked_rules_leave_sets_without_jokers_free(judge: Judge) -> None:
    v = judge("R1 R2 R3 R4 R5 R6 | K7 J K9", "R4", "R1 R2 R3 R4 | R4 R5 R6 | K7 J K9", **LOCKED)
    assert v.valid


def test_locked_rules_do_not_apply_before_the_initial_meld(judge: Judge) -> None:
    assert judge("K4 J K6", "R10 R11 R12", "K4 J K6 | R10 R11 R12", done=False, **LOCKED).valid


# -- joker_replacement_source: rack_only ---------------------------------------------------


def test_rack_only_refuses_a_joker_replaced_from_the_table(judge: Judge) -> None:
    before, rack = "K4 J K6 | K5 R5 B5 O5", "R9 R10"
    after = "K4 K5 K6 | R5 B5 O5 | R9 R10 J"
    v = judge(before, rack, after, **CLASSIC)
    assert v.reason is Reason.JOKER_REPLACEMENT_NOT_FROM_RACK
    assert v.detail == (
        "the joker in K4 J K6 was replaced by K5 taken from the table: under these rules the "
        "tile replacing a joker must come from your rack"
    )
    assert judge(before, rack, after, joker_replacement_source="rack_only").valid


def test_rack_only_accepts_a_replacement_from_the_rack(judge: Judge) -> None:
    assert judge("R4 J R6", "R5 K9 K10", "R4 R5 R6 | K9 K10 J", **CLASSIC).valid


def test_rack_only_checks_each_replaced_joker(judge: Judge) -> None:
    before = "R5 J J R8 | R6 B6 K6 O6"
    after = "R5 R6 R7 R8 | B6 K6 O6 | B9 K9 J J"
    assert judge(before, "R7 B9 K9", after, **LOCKED).valid
    v = judge(before, "R7 B9 K9", after, **CLASSIC)
    assert v.reason is Reason.JOKER_REPLACEMENT_NOT_FROM_RACK
    assert "replaced by R6" in v.detail


def test_rack_only_cannot_tell_which_copy_replaced_the_joker(judge: Judge) -> None:
    # Copies are interchangeable (R6.2): with an R5 played from the rack, the R5 in the
    # run may as well be that one.
    before = "R4 J R6 | R5 B5 K5"
    assert judge(before, "R5 O10 O11", "R4 R5 R6 | R5 B5 K5 | O10 O11 J", **CLASSIC).valid
    v = judge(before, "O5 O10 O11", "R4 R5 R6 | B5 K5 O5 | O10 O11 J", **CLASSIC)
    assert v.reason is Reason.JOKER_REPLACEMENT_NOT_FROM_RACK


# -- joker_group_retrieval: both_missing ---------------------------------------------------


def test_both_missing_refuses_one_colour_freeing_a_group_joker(judge: Judge) -> None:
    v = judge("R3 K3 J", "O3 B11 B12", "R3 K3 O3 | B11 B12 J", **BOTH)
    assert v.reason is Reason.JOKER_GROUP_NEEDS_BOTH
    assert v.detail == (
        "the joker left the group R3 K3 J: under these rules a joker leaves a 3-tile group "
        "only when both missing tiles (B3 O3) join it"
    )
    assert judge("R3 K3 J", "O3 B11 B12", "R3 K3 O3 | B11 B12 J").valid


@pytest.mark.parametrize(
    ("before", "rack", "after"),
    [
        ("R3 K3 J", "B3 O3 B11 B12", "R3 K3 B3 O3 | B11 B12 J"),
        ("R3 K3 J", "B3", "R3 K3 B3 J"),
        ("R3 K3 B3 J", "O3 R11 R12", "R3 K3 B3 O3 | R11 R12 J"),
        ("R3 R4 J", "R5 K11 K12", "R3 R4 R5 | K11 K12 J"),
    ],
)
def test_both_missing_allows_a_full_group_and_leaves_other_sets_alone(
    judge: Judge, before: str, rack: str, after: str
) -> None:
    v = judge(before, rack, after, **BOTH)
    assert v.valid, v.detail


def test_both_missing_refuses_a_group_joker_freed_by_splitting(judge: Judge) -> None:
    v = judge("R3 K3 J | R4 R5 R6", "B3 O3", "R3 R4 R5 R6 | K3 B3 O3 | B7 B8 J", **BOTH)
    assert v.reason is Reason.TILE_NOT_OWNED
    v = judge("R3 K3 J | R4 R5 R6", "B3 O3 B7 B8", "R3 R4 R5 R6 | K3 B3 O3 | B7 B8 J", **BOTH)
    assert v.reason is Reason.JOKER_GROUP_NEEDS_BOTH


# -- precedence: the first reason of the table wins ----------------------------------------


@pytest.mark.parametrize(
    ("before", "rack", "after", "done", "options", "reason"),
    [
        ("R5 R6 R7", "B1", "R5 R6 | B1 B2", True, {}, Reason.TILE_NOT_OWNED),
        ("R5 J R7 R8", "K1 K2 K3", "R5 R7 | K1 K2 K3", True, {}, Reason.TILE_REMOVED_FROM_TABLE),
        ("R1 R2 R3 R4", "R5", "R1 R2 R3 R4 | R5", True, {}, Reason.INVALID_SET),
        ("R1 R2 R3 R4", "K5 B5", "R1 R2 R3 R4 K5 | B5", False, {}, Reason.INVALID_SET),
        (
            "K10 K11 K12",
            "K13 R1 B1 O1",
            "K10 K11 K12 K13 | R1 B1 O1",
            False,
            {},
            Reason.INITIAL_MELD_USES_TABLE,
        ),
        (
            "R3 K3 J",
            "O3 B11 B12",
            "R3 O3 | K3 B11 B12 J",
            True,
            {**LOCKED, **BOTH},
            Reason.INVALID_SET,
        ),
        (
            "R3 K3 J | R4 R5 R6",
            "O3 B1 B2",
            "R3 R4 R5 R6 | K3 O3 J | B1 B2 J",
            True,
            {},
            Reason.TILE_NOT_OWNED,
        ),
        (
            "R3 K3 J | K6 K7 K8 J",
            "O3 B10 B11",
            "R3 K3 O3 | K6 K7 K8 | B10 B11 J J",
            True,
            {**CLASSIC, **BOTH},
            Reason.JOKER_SET_LOCKED,
        ),
        (
            "R3 K3 J | K7 J K9 | K8 R8 B8 O8",
            "O3 B10 B11",
            "R3 K3 O3 | K7 K8 K9 | R8 B8 O8 | B10 B11 J J",
            True,
            {**CLASSIC, **BOTH},
            Reason.JOKER_REPLACEMENT_NOT_FROM_RACK,
        ),
        (
            "R3 K3 J | K7 J K9 | K8 R8 B8 O8",
            "O3 B10 B11",
            "R3 K3 O3 | K7 K8 K9 | R8 B8 O8 | B10 B11 J J",
            True,
            {**LOCKED, **BOTH},
            Reason.JOKER_GROUP_NEEDS_BOTH,
        ),
        ("R3 K3 J | K6 K7 K8 K9", "O3", "R3 K3 O3 | J K7 K8 K9 | K6", True, {}, Reason.INVALID_SET),
    ],
)
def test_when_several_rules_are_broken_the_first_in_the_table_is_reported(
    judge: Judge,
    before: str,
    rack: str,
    after: str,
    done: bool,
    options: dict[str, Any],
    reason: Reason,
) -> None:
    assert judge(before, rack, after, done, **options).reason is reason


# -- facts for the caller --------------------------------------------------------------------


def test_a_verdict_carries_the_tiles_played_and_the_summary(judge: Judge) -> None:
    v = judge("", "R11 R12 R13", "R11 R12 R13", done=False)
    assert format_tiles(v.played) == ["R11", "R12", "R13"]
    assert (v.valid, v.reason, v.initial_meld_value, v.goes_out) == (True, None, 36, True)
    assert v.detail == "Plays 3 tiles (initial meld worth 36) and goes out"
    v = judge("R1 R2 R3", "R4 K9", "R1 R2 R3 R4")
    assert (v.detail, v.goes_out, format_tiles(v.played)) == ("Plays 1 tile", False, ["R4"])


def test_a_refused_turn_still_reports_what_was_played(judge: Judge) -> None:
    v = judge("", "K9 B9 O9 R1", "K9 B9 O9", done=False)
    assert format_tiles(v.played) == ["B9", "K9", "O9"]
    assert not v.goes_out


def test_it_accepts_notation_and_refuses_malformed_notation() -> None:
    v = judge_turn([], ["R9", "R10", "R11"], [["R11", "R9", "R10"]], False)
    assert v.valid
    with pytest.raises(NotationError):
        judge_turn([], ["R9", "R10", "R11"], [["R11", "R9", "X10"]], False)


# -- odd input never crashes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "rack", "after", "done", "reason"),
    [
        ([], [], [], True, Reason.NO_TILE_PLAYED),
        ([], [], [], False, Reason.NO_TILE_PLAYED),
        ([[]], ["R1"], [[], []], True, Reason.NO_TILE_PLAYED),
        ([], ["R1"], [["R1"]], True, Reason.INVALID_SET),
        ([], ["J", "J", "J"], [["J", "J", "J"]], True, Reason.INVALID_SET),
        ([], ["R5", "J", "J", "J"], [["R5", "J", "J", "J"]], True, None),
        ([["R7", "R7", "R7"]], ["B7"], [["R7", "R7", "R7", "B7"]], True, Reason.INVALID_SET),
        ([], ["R7"] * 5, [["R7"] * 5], False, Reason.INVALID_SET),
        (
            [["R1", "R2", "R3"]],
            [],
            [["R1", "R2", "R3"], ["R1", "R2", "R3"]],
            True,
            Reason.TILE_NOT_OWNED,
        ),
        ([["J", "J", "R1"]], ["R2"], [["J", "J", "R1", "R2"]], True, Reason.JOKER_SET_LOCKED),
        ([["J", "J", "R1"]], ["R4"], [["J", "J", "R1", "R4"]], True, None),
    ],
)
def test_odd_input_gets_a_verdict(
    before: list[list[str]],
    rack: list[str],
    after: list[list[str]],
    done: bool,
    reason: Reason | None,
) -> None:
    options = Ruleset(joker_set_rule="locked", joker_group_retrieval="both_missing")
    v = judge_turn(before, rack, after, done, options)
    assert v.reason is reason


_pool = st.sampled_from(parse_tiles(["R3", "R4", "R5", "R6", "B5", "K5", "O5", "R5", "J"]))
_sets = st.lists(st.lists(_pool, max_size=5), max_size=3)


@settings(max_examples=300, deadline=None)
@given(_sets, st.lists(_pool, max_size=5), _sets, st.booleans(), st.booleans(), st.booleans())
def test_any_input_gets_a_consistent_verdict(
    before: list[list[Tile]],
    rack: list[Tile],
    after: list[list[Tile]],
    done: bool,
    locked: bool,
    both: bool,
) -> None:
    ruleset = Ruleset(
        joker_set_rule="locked" if locked else "free",
        joker_replacement_source="rack_only" if locked else "rack_or_table",
        joker_group_retrieval="both_missing" if both else "either_missing",
        initial_meld_same_turn_manipulation=both,
    )
    v = judge_turn(before, rack, after, done, ruleset)
    assert v.valid == (v.reason is None)
    assert v.detail
    played = Counter(t for s in after for t in s) - Counter(t for s in before for t in s)
    assert Counter(v.played) == played
    if v.valid:
        assert Counter(v.played) <= Counter(rack)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_laying_valid_new_sets_from_the_rack_is_a_valid_turn(data: st.DataObject) -> None:
    runs = [parse_tiles(s.split()) for s in ("R1 R2 R3", "K10 K11 K12 K13", "B4 J B6", "O7 O8 O9")]
    groups = [parse_tiles(s.split()) for s in ("R5 B5 K5", "R13 B13 J", "K1 B1 O1 R1")]
    table = data.draw(st.lists(st.sampled_from(runs), max_size=2, unique=True))
    laid = data.draw(st.lists(st.sampled_from(groups), min_size=1, max_size=2, unique=True))
    if sum(JOKER in s for s in [*table, *laid]) > 2:
        return
    rack = [t for s in laid for t in s]
    v = judge_turn(table, rack, [*table, *laid], True, Ruleset(joker_set_rule="locked"))
    assert v.valid, v.detail
    assert v.goes_out
