"""Rulesets: defaults, presets and the refusal of unknown options and bad values."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from engine.ruleset import (
    LARGEST_SET_VALUE,
    MAX_INITIAL_MELD,
    MAX_PENALTY_DRAW,
    PRESETS,
    Ruleset,
    RulesetError,
)
from engine.sets import analyse_set
from engine.tiles import COLOURS, Tile

DEFAULTS = json.loads((Path(__file__).parent / "data/sample-cases.json").read_text())["defaults"]


def test_the_defaults_are_those_of_the_spec() -> None:
    options = Ruleset().to_dict()
    assert {key: options[key] for key in DEFAULTS} == DEFAULTS


def test_presets() -> None:
    assert Ruleset.preset("standard") == Ruleset()
    keadle = Ruleset.preset("keadle_house")
    assert (keadle.meld_values, keadle.score_values, keadle.allow_wrap, keadle.score_mode) == (
        "house",
        "house",
        True,
        "penalty_only",
    )
    assert Ruleset.preset("classic_locked").differences() == {
        "joker_set_rule": "locked",
        "joker_replacement_source": "rack_only",
    }
    assert set(PRESETS) == {"standard", "keadle_house", "classic_locked"}


def test_options_lay_over_a_preset() -> None:
    ruleset = Ruleset.from_dict({"joker_penalty": 25}, preset="keadle_house")
    assert ruleset.joker_penalty == 25 and ruleset.allow_wrap


def test_a_ruleset_round_trips_through_a_dict() -> None:
    ruleset = Ruleset.from_dict({"allow_wrap": True, "initial_meld_min": 50})
    assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
    assert ruleset.differences() == {"allow_wrap": True, "initial_meld_min": 50}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"wrap": True}, "unknown option 'wrap'"),
        ({"allow_wrap": "yes"}, "allow_wrap must be one of false, true"),
        ({"allow_wrap": 1}, "allow_wrap must be one of false, true"),
        ({"joker_penalty": 40}, "joker_penalty must be one of 25, 30; got 40"),
        ({"joker_penalty": True}, "joker_penalty must be one of 25, 30"),
        ({"initial_meld_min": -1}, "initial_meld_min must be a whole number"),
        ({"initial_meld_min": 30.0}, "initial_meld_min must be a whole number"),
        ({"initial_meld_min": True}, "initial_meld_min must be a whole number"),
        ({"meld_values": "House"}, 'meld_values must be one of "face", "house"'),
        ({"pool_empty_scoring": "sum"}, "pool_empty_scoring must be one of"),
        ({"players": 5}, "players must be a whole number from 2 to 4"),
    ],
)
def test_unknown_options_and_bad_values_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_dict(options)


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesetError, match="unknown preset 'house'"):
        Ruleset.preset("house")


def test_options_must_come_as_a_mapping() -> None:
    with pytest.raises(RulesetError, match="must be an object"):
        Ruleset.from_dict([("allow_wrap", True)])  # type: ignore[arg-type]


def test_a_ruleset_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Ruleset().allow_wrap = True  # type: ignore[misc]


def test_the_constructor_checks_values_too() -> None:
    with pytest.raises(RulesetError):
        Ruleset(joker_set_rule="loose")  # type: ignore[arg-type]
    assert Ruleset().with_options(players=2).players == 2


# -- options that can be met and keep racks bounded (issue 8) --------------------------


def test_the_largest_set_values_are_those_of_the_run_one_to_thirteen() -> None:
    for values in ("face", "house"):
        rules = Ruleset(meld_values=values)
        run = [Tile(COLOURS[0], n) for n in range(1, 14)]
        groups = [[Tile(c, n) for c in COLOURS] for n in range(1, 14)]
        best = max(max(analyse_set(s, rules).values) for s in [run, *groups])
        assert LARGEST_SET_VALUE[values] == best


@pytest.mark.parametrize(("values", "largest"), [("face", 91), ("house", 95)])
def test_a_single_set_meld_above_the_largest_set_is_refused(values: str, largest: int) -> None:
    options = {"initial_meld_single_set": True, "meld_values": values}
    assert Ruleset.from_dict({**options, "initial_meld_min": largest}).initial_meld_min == largest
    with pytest.raises(RulesetError, match=f"at most {largest} with a single-set") as error:
        Ruleset.from_dict({**options, "initial_meld_min": largest + 1})
    assert error.value.option == "initial_meld_min"


def test_a_single_set_meld_with_wrap_has_the_same_bound() -> None:
    with pytest.raises(RulesetError, match="at most 91"):
        Ruleset.from_dict(
            {"initial_meld_single_set": True, "allow_wrap": True, "initial_meld_min": 92}
        )


@pytest.mark.parametrize(
    ("option", "cap"),
    [
        ("initial_meld_min", MAX_INITIAL_MELD),
        ("failed_turn_penalty_draw", MAX_PENALTY_DRAW),
        ("overtime_penalty_draw", MAX_PENALTY_DRAW),
    ],
)
def test_options_that_grow_racks_are_capped(option: str, cap: int) -> None:
    assert Ruleset.from_dict({option: cap}).to_dict()[option] == cap
    with pytest.raises(RulesetError, match=f"{option} must be a whole number from 0 to {cap}"):
        Ruleset.from_dict({option: cap + 1})
