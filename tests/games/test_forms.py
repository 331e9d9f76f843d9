"""The new table form: a field for every option of the engine's description, showing it
as described; it refuses rules that cannot be met or let racks grow without bound, in
the engine's words, its help says the bounds, and it makes the table's settings."""

import pytest

from accounts.models import User
from engine.options import OPTIONS, Option, house_rule_options
from games.forms import SET_BY_TABLE_FIELDS, TableForm
from games.models.table_settings import TableSettings
from tests.games.test_views_lobby import form_data

pytestmark = pytest.mark.django_db


def errors_for(alice: User, **changes: object) -> dict[str, list[str]]:
    form = TableForm(form_data(**changes), creator=alice)
    form.is_valid()
    return {key: [str(message) for message in value] for key, value in form.errors.items()}


@pytest.mark.parametrize(("values", "largest"), [("face", 91), ("house", 95)])
def test_a_single_set_meld_above_the_largest_set_is_refused(
    alice: User, values: str, largest: int
) -> None:
    single = {"initial_meld_single_set": "on", "meld_values": values}
    assert errors_for(alice, **single, initial_meld_min=largest) == {}
    errors = errors_for(alice, **single, initial_meld_min=largest + 1)
    assert errors["initial_meld_min"] == [
        f"initial_meld_min must be at most {largest} with a single-set initial meld and "
        f"{values} values: no set is worth more; got {largest + 1}"
    ]


def test_a_meld_minimum_above_150_is_refused(alice: User) -> None:
    assert errors_for(alice, initial_meld_min=150) == {}
    errors = errors_for(alice, initial_meld_min=151)
    assert errors["initial_meld_min"] == [
        "initial_meld_min must be a whole number from 0 to 150; got 151"
    ]


@pytest.mark.parametrize("option", ["failed_turn_penalty_draw", "overtime_penalty_draw"])
def test_a_penalty_draw_above_3_is_refused(alice: User, option: str) -> None:
    assert errors_for(alice, **{option: 3}) == {}
    errors = errors_for(alice, **{option: 4})
    assert errors[option] == [f"{option} must be a whole number from 0 to 3; got 4"]


def test_the_help_states_the_bounds(alice: User) -> None:
    form = TableForm(creator=alice)
    assert form.fields["initial_meld_min"].help_text.startswith("From 0 to 150 points. ")
    assert "at most 91 (face values) or 95 (house values)" in (
        form.fields["initial_meld_min"].help_text
    )
    for option in ("failed_turn_penalty_draw", "overtime_penalty_draw"):
        assert form.fields[option].help_text.startswith("From 0 to 3 tiles. ")
    assert 'max="3"' in str(form["overtime_penalty_draw"])


# -- the form is built from the engine's description of the options ----------------------


def test_every_option_of_the_engine_has_its_field(alice: User) -> None:
    form = TableForm(creator=alice)
    house_rules = [option.name for option in house_rule_options()]

    assert [field.name for field in form.option_fields()] == house_rules
    assert [f.name for _, fields in form.option_groups() for f in fields] == house_rules
    for name, option in OPTIONS.items():
        if option.set_by_table:
            assert SET_BY_TABLE_FIELDS[name] in form.fields, name
        else:
            assert name in form.fields and name not in SET_BY_TABLE_FIELDS, name
    assert set(form.preset_values()["keadle_house"]) == set(house_rules)


@pytest.mark.parametrize("option", list(house_rule_options()), ids=lambda option: option.name)
def test_each_field_shows_its_option_as_described(alice: User, option: Option) -> None:
    field = TableForm(creator=alice).fields[option.name]

    assert (field.label, field.initial) == (option.label, option.default)
    assert option.help in field.help_text
    if option.kind == "int":
        assert field.widget.attrs == {"min": option.low, "max": option.high}
        assert field.help_text.startswith(option.bounds())
    elif option.kind == "choice":
        assert [(value, label) for value, label in field.choices] == [
            (choice.value, choice.label) for choice in option.choices
        ]


def sent_values(option: Option) -> list[object]:
    if option.kind == "int":
        return [option.low, option.high]
    return list(option.values())


@pytest.mark.parametrize("option", list(house_rule_options()), ids=lambda option: option.name)
def test_every_value_of_every_option_reaches_the_table_settings(
    alice: User, option: Option
) -> None:
    for value in sent_values(option):
        sent: object = ("on" if value else "") if option.kind == "bool" else value
        form = TableForm(form_data(**{option.name: sent}), creator=alice)

        assert form.is_valid(), form.errors
        settings = form.cleaned_data["settings"]
        differs = value != option.default
        assert settings.options == ({option.name: value} if differs else {})
        assert settings.ruleset(players=2).to_dict()[option.name] == value


def test_the_form_makes_the_settings_of_the_table(alice: User) -> None:
    form = TableForm(
        form_data(
            preset="classic_locked",
            joker_set_rule="locked",
            joker_replacement_source="rack_only",
            allow_wrap="on",
            clock="correspondence",
            turn_seconds=2 * 86400,
            time_bank_seconds=86400,
            games_in_round=4,
            timeouts_to_forfeit=2,
            on_forfeit="bot",
        ),
        creator=alice,
    )

    assert form.is_valid(), form.errors
    assert form.cleaned_data["settings"] == TableSettings(
        preset="classic_locked",
        options={"allow_wrap": True},
        clock="correspondence",
        turn_seconds=2 * 86400,
        time_bank_seconds=86400,
        games_in_round=4,
        timeouts_to_forfeit=2,
        on_forfeit="bot",
    )
