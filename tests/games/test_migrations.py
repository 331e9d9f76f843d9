"""Data migrations, run on rows made by today's services (their models are the same)."""

from importlib import import_module

import pytest
from django.apps import apps

from accounts.models import User
from games.models import Game, Table
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db

clamping = import_module("games.migrations.0003_clamp_ruleset_bounds")


def test_stored_rulesets_beyond_the_new_bounds_are_lowered_to_them(alice: User, bob: User) -> None:
    table = start_table(alice, bob)
    game = current_game(table)
    too_much = {
        "initial_meld_single_set": True,
        "initial_meld_min": 400,
        "overtime_penalty_draw": 9,
    }
    Table.objects.filter(pk=table.pk).update(
        options=too_much,
        ruleset={**table.ruleset, **too_much},
        round={**table.round, "ruleset": {**table.round["ruleset"], **too_much}},
    )
    Game.objects.filter(pk=game.pk).update(
        ruleset={**game.ruleset, **too_much},
        state={**game.state, "ruleset": {**game.state["ruleset"], **too_much}},
    )

    clamping.forwards(apps, None)

    table.refresh_from_db()
    game.refresh_from_db()
    bounded = {"initial_meld_single_set": True, "initial_meld_min": 91, "overtime_penalty_draw": 3}
    assert table.options == bounded
    for rules in (table.ruleset, table.round["ruleset"], game.ruleset, game.state["ruleset"]):
        assert {key: rules[key] for key in bounded} == bounded
    assert game.engine_state().ruleset.initial_meld_min == 91  # loads again
    table.engine_ruleset()


def test_rulesets_within_the_bounds_are_left_as_they_are() -> None:
    rules = {"initial_meld_min": 150, "failed_turn_penalty_draw": 3, "meld_values": "house"}

    assert not clamping.clamp(rules)
    assert rules == {"initial_meld_min": 150, "failed_turn_penalty_draw": 3, "meld_values": "house"}
