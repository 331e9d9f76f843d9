"""The options' description: it covers the ruleset exactly, and the ruleset checks values
with its bounds and choices (no second copy of them)."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from engine import ruleset as ruleset_module
from engine.options import OPTIONS, PRESETS, Option, groups, house_rule_options
from engine.ruleset import Ruleset, RulesetError

INT_OPTIONS = [option for option in OPTIONS.values() if option.kind == "int"]
LISTED_OPTIONS = [option for option in OPTIONS.values() if option.kind != "int"]


def test_every_ruleset_field_is_described_and_nothing_else() -> None:
    assert set(OPTIONS) == {field.name for field in dataclasses.fields(Ruleset)}


def test_the_ruleset_defaults_are_the_described_ones() -> None:
    assert Ruleset().to_dict() == {name: option.default for name, option in OPTIONS.items()}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_presets_values_are_the_described_defaults_in_it(preset: str) -> None:
    values = Ruleset.preset(preset).to_dict()
    assert values == {name: option.default_in(preset) for name, option in OPTIONS.items()}


def test_the_type_of_each_field_allows_exactly_the_described_choices() -> None:
    hints = typing.get_type_hints(Ruleset, vars(ruleset_module))
    for option in OPTIONS.values():
        hint = hints[option.name]
        if option.kind == "bool":
            assert hint is bool
        elif typing.get_origin(hint) is typing.Literal:
            assert set(typing.get_args(hint)) == set(option.values()), option.name
        else:
            assert hint is int, option.name


@pytest.mark.parametrize("option", LISTED_OPTIONS, ids=lambda option: option.name)
def test_the_ruleset_takes_every_choice_and_nothing_else(option: Option) -> None:
    assert option.values(), "a bool or choice option lists its values"
    assert len(set(map(repr, option.values()))) == len(option.values())
    if option.kind == "bool":
        assert option.values() == (False, True)
    for value in option.values():
        assert Ruleset.from_dict({option.name: value}).to_dict()[option.name] == value
        assert option.value_label(value) and option.refusal(value) is None
    for wrong in ("nonsense", 2, None):
        with pytest.raises(RulesetError) as refused:
            Ruleset.from_dict({option.name: wrong})
        assert str(refused.value) == option.refusal(wrong)
        assert refused.value.option == option.name


@pytest.mark.parametrize("option", INT_OPTIONS, ids=lambda option: option.name)
def test_the_ruleset_takes_whole_numbers_within_the_described_bounds(option: Option) -> None:
    assert option.low <= option.default <= option.high  # type: ignore[operator]
    assert not option.choices
    for value in (option.low, option.high):
        assert Ruleset.from_dict({option.name: value}).to_dict()[option.name] == value
    for wrong in (option.low - 1, option.high + 1, float(option.low), True):
        with pytest.raises(RulesetError) as refused:
            Ruleset.from_dict({option.name: wrong})
        assert str(refused.value) == option.refusal(wrong)
        assert f"from {option.low} to {option.high}" in str(refused.value)
    assert option.bounds().startswith(f"From {option.low} to {option.high} ")


@pytest.mark.parametrize("option", list(OPTIONS.values()), ids=lambda option: option.name)
def test_every_option_has_words_for_players(option: Option) -> None:
    assert option.label and option.group
    assert option.help.endswith(".")
    assert option.value_label(option.default)


def test_presets_name_only_described_options_with_allowed_values() -> None:
    for options in PRESETS.values():
        for name, value in options.items():
            assert OPTIONS[name].refusal(value) is None


def test_house_rules_leave_out_what_the_seats_and_clock_set() -> None:
    chosen = {option.name for option in house_rule_options()}
    assert set(OPTIONS) - chosen == {"players", "turn_time_limit_s"}
    assert [option.name for _, options in groups() for option in options] == [
        name for name in OPTIONS if name in chosen
    ]
