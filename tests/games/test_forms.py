"""The new table form refuses rules that cannot be met or let racks grow without bound,
in the engine's words, and its help says the bounds."""

import pytest

from accounts.models import User
from games.forms import TableForm
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
    assert "From 0 to 150" in form.fields["initial_meld_min"].help_text
    assert "at most 91 (face values) or 95 (house values)" in (
        form.fields["initial_meld_min"].help_text
    )
    for option in ("failed_turn_penalty_draw", "overtime_penalty_draw"):
        assert form.fields[option].help_text == "At most 3 tiles."
    assert 'max="3"' in str(form["overtime_penalty_draw"])
