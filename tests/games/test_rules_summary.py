"""A table's rules in words, from the engine's description: every option by group, the
house rules beside the preset's value, on the table page and the game page."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts.models import User
from engine.options import OPTIONS, Option, groups, house_rule_options
from engine.ruleset import Ruleset
from games import services
from games.models.table_settings import TableSettings
from games.selectors.rules_summary import rules_summary
from games.services import SeatPlan
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table


def test_the_summary_shows_every_house_rule_option_by_group() -> None:
    summary = rules_summary(Ruleset(), "standard")

    assert [group.title for group in summary.groups] == [title for title, _ in groups()]
    assert [rule.name for group in summary.groups for rule in group.rules] == [
        option.name for option in house_rule_options()
    ]
    assert summary.preset == "Standard"
    assert summary.house_rules == ()


def other_value(option: Option) -> object:
    if option.kind == "int":
        return option.high if option.default != option.high else option.low
    return next(value for value in option.values() if value != option.default)


@pytest.mark.parametrize("option", list(house_rule_options()), ids=lambda option: option.name)
def test_any_option_that_differs_from_the_preset_is_a_house_rule(option: Option) -> None:
    value = other_value(option)

    summary = rules_summary(Ruleset.from_dict({option.name: value}), "standard")

    (rule,) = summary.house_rules
    assert (rule.name, rule.label) == (option.name, option.label)
    assert (rule.value, rule.preset_value) == (
        option.value_label(value),  # type: ignore[arg-type]
        option.value_label(option.default),
    )


def test_house_rules_are_counted_from_the_tables_preset() -> None:
    ruleset = Ruleset.from_dict({"joker_penalty": 25}, "keadle_house")

    summary = rules_summary(ruleset, "keadle_house")

    assert summary.preset == "Keadle house rules"
    assert [(rule.label, rule.value, rule.preset_value) for rule in summary.house_rules] == [
        ("Joker left on a rack", "25 points", "30 points")
    ]
    lines = {rule.name: rule for group in summary.groups for rule in group.rules}
    assert lines["allow_wrap"].value == "Allowed" and not lines["allow_wrap"].is_house_rule


def test_the_options_a_table_sets_itself_are_not_listed() -> None:
    summary = rules_summary(Ruleset(players=2, turn_time_limit_s=86400), "standard")

    names = {rule.name for group in summary.groups for rule in group.rules}
    assert names.isdisjoint(name for name, option in OPTIONS.items() if option.set_by_table)
    assert summary.house_rules == ()


# -- the pages ---------------------------------------------------------------------------


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.django_db
def test_the_game_page_lists_the_house_rules_and_every_rule(alice: User, bob: User) -> None:
    game = current_game(
        start_table(alice, bob, preset="keadle_house", options={"draw_mode": "river"})
    )

    page = client_as(bob).get(reverse("games:game", kwargs={"pk": game.pk})).text

    shown = text_of(page)
    assert "Drawing: Two, one to the River (instead of one tile)" in shown
    assert "Every rule" in page
    for option in house_rule_options():
        assert option.label in shown, option.name
    assert page.count('class="house-mark"') == 1


@pytest.mark.django_db
def test_the_table_page_shows_the_rules_to_anyone(alice: User, bob: User, carol: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(options={"allow_wrap": True, "initial_meld_min": 50}),
        [SeatPlan.taken_by(alice), SeatPlan.open()],
    )

    page = client_as(carol).get(reverse("games:table", kwargs={"pk": table.pk})).text

    shown = text_of(page)
    assert "Initial meld: 50 points (instead of 30 points)" in shown
    assert "13-1 runs: Allowed (instead of not allowed)" in shown
    assert page.count('class="house-mark"') == 2


@pytest.mark.django_db
def test_a_table_without_house_rules_says_so(alice: User, bob: User) -> None:
    table = start_table(alice, bob)

    page = client_as(alice).get(reverse("games:table", kwargs={"pk": table.pk})).text

    assert "No house rules: the preset as it is." in page
    assert 'class="house-mark"' not in page
