"""Data migrations, run on rows made by today's services (their models are the same), or by
the models of the time before the migration (0004)."""

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import User
from games.models import Game, Notification, Table
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


# --- 0004: notifications about more than games ---------------------------------------

BEFORE_GENERAL = [("games", "0003_clamp_ruleset_bounds")]
GENERAL = [("games", "0004_notifications_general")]


@pytest.mark.django_db(transaction=True)
def test_turn_notifications_keep_what_they_said_through_the_general_model() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_GENERAL)
    try:
        old = executor.loader.project_state(BEFORE_GENERAL).apps
        game, player = old_game(old)
        notification = old.get_model("games", "Notification")
        notification.objects.create(user=player, game=game, kind="your_turn", turn_number=3)
        notification.objects.create(
            user=player, game=game, kind="time_running_out", turn_number=3, email="sent"
        )

        executor = MigrationExecutor(connection)
        executor.migrate(GENERAL)

        rows = Notification.objects.order_by("kind")
        assert [(n.kind, n.text, n.link, n.key, n.email) for n in rows] == [
            (
                "time_running_out",
                f"Time is running out for your turn in game 2 of table {game.table_id}.",
                f"/games/{game.pk}/",
                f"time_running_out:game-{game.pk}:turn-3",
                "sent",
            ),
            (
                "your_turn",
                f"It is your turn in game 2 of table {game.table_id}.",
                f"/games/{game.pk}/",
                f"your_turn:game-{game.pk}:turn-3",
                "off",
            ),
        ]
        assert all(n.subject == Game.objects.get(pk=game.pk) for n in rows)
        Notification.objects.create(
            user_id=player.pk, kind="table_invitation", text="An invitation.", link="/"
        )

        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE_GENERAL)  # and back: the turns' rows as they were
        back = executor.loader.project_state(BEFORE_GENERAL).apps.get_model("games", "Notification")
        assert sorted(back.objects.values_list("kind", "game_id", "turn_number")) == [
            ("time_running_out", game.pk, 3),
            ("your_turn", game.pk, 3),
        ]
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )


def old_game(old: Any) -> tuple[Any, Any]:
    """A game (number 2 of its table) and its player, as the old models make them."""
    player = old.get_model("accounts", "User").objects.create(username="ann", email="a@x.org")
    table = old.get_model("games", "Table").objects.create(
        creator=player, ruleset={}, turn_seconds=3600, games_in_round=2
    )
    game = old.get_model("games", "Game").objects.create(
        table=table,
        number=2,
        ruleset={},
        seed="s",
        starting_seat=0,
        state={},
        turn_started_at=timezone.now(),
    )
    return game, player
