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
from engine.ruleset import Ruleset
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


# --- 0004: notifications about more than games ---------------------------------------

BEFORE_GENERAL = [("games", "0003_clamp_ruleset_bounds")]
GENERAL = [("games", "0004_notifications_general")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.as_owner  # migrating is the owner's
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
        # The model as of that migration: today's has columns added since.
        general = executor.loader.project_state(GENERAL).apps.get_model("games", "Notification")

        rows = general.objects.order_by("kind")
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
        # Read by the columns: the Game model of today has fields this state lacks.
        subjects = set(
            rows.values_list("subject_type__app_label", "subject_type__model", "subject_id")
        )
        assert subjects == {("games", "game", game.pk)}
        general.objects.create(
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


# --- 0005: results have one owner -------------------------------------------------------

RESULTS = ("games", "0005_results")
BEFORE_RESULTS = ("games", "0004_notifications_general")


def table_then(apps: Any, creator: Any, players: int, **fields: Any) -> Any:
    """A table as the services wrote it before 0005, with its seats."""
    rules = Ruleset(players=players).to_dict()
    table = apps.get_model("games", "Table").objects.create(
        creator=creator,
        ruleset=rules,
        turn_seconds=60,
        games_in_round=2,
        round_seed="secret",
        round={"ruleset": rules, "seed": "secret", "games": 2, "results": []},
        **fields,
    )
    return table


def game_then(apps: Any, table: Any, number: int, outcome: dict[str, Any] | None) -> Any:
    finished = outcome is not None
    return apps.get_model("games", "Game").objects.create(
        table=table,
        number=number,
        ruleset=table.ruleset,
        seed=f"secret:{number}",
        starting_seat=number - 1,
        state={"outcome": outcome},
        turn_started_at=timezone.now(),
        status="finished" if finished else "playing",
        outcome=outcome,
        winner_seat=None if outcome is None else outcome["winner"],
        finished_at=timezone.now() if finished else None,
    )


def outcome(winner: int | None, racks: list[int], scores: list[int]) -> dict[str, Any]:
    return {"termination": "went_out", "winner": winner, "rack_values": racks, "scores": scores}


@pytest.mark.as_owner  # migrating is the owner's
def test_0005_writes_a_played_row_per_seat_of_every_finished_game(migrator: Any) -> None:
    old = migrator.apply_initial_migration(BEFORE_RESULTS)
    users = old.apps.get_model("accounts", "User").objects
    alice, bob = users.create(username="alice"), users.create(username="bob")
    table = table_then(old.apps, alice, 3, status="finished", winner_seat=2, standings=[])
    seats = old.apps.get_model("games", "Seat").objects
    seats.create(table=table, number=0, kind="player", user=alice)
    seats.create(table=table, number=1, kind="bot", bot_level="easy")
    seats.create(table=table, number=2, kind="player", user=bob)
    first = game_then(old.apps, table, 1, outcome(2, [5, 7, 0], [-5, -7, 12]))
    # A game whose outcome was only in its state (the column is the copy).
    second = game_then(old.apps, table, 2, None)
    second.status = "finished"
    second.state = {"outcome": outcome(2, [1, 0, 4], [-1, 0, 1])}
    second.save()
    playing = game_then(old.apps, table_then(old.apps, bob, 2, status="playing"), 1, None)

    new = migrator.apply_tested_migration(RESULTS)

    Result = new.apps.get_model("games", "Result")
    rows = [
        (r.game_id, r.seat, r.member_id, r.score, r.rack_value, r.place, r.is_winner, r.source)
        for r in Result.objects.order_by("game_id", "seat")
    ]
    assert rows == [
        (first.pk, 0, alice.pk, -5, 5, 2, False, "played"),
        (first.pk, 1, None, -7, 7, 3, False, "played"),
        (first.pk, 2, bob.pk, 12, 0, 1, True, "played"),
        (second.pk, 0, alice.pk, -1, 1, 3, False, "played"),
        (second.pk, 1, None, 0, 0, 2, False, "played"),
        (second.pk, 2, bob.pk, 1, 4, 1, True, "played"),
    ]
    assert not Result.objects.filter(game_id=playing.pk).exists()
    Table = new.apps.get_model("games", "Table")
    assert "results" not in Table.objects.get(pk=table.pk).round
    columns = {f.name for f in Table._meta.get_fields()}
    assert not {"standings", "winner_seat"} & columns
    assert "winner_seat" not in {f.name for f in new.apps.get_model("games", "Game")._meta.fields}


@pytest.mark.as_owner  # migrating is the owner's
def test_0005_undone_brings_the_copies_back_from_the_played_results(migrator: Any) -> None:
    old = migrator.apply_initial_migration(BEFORE_RESULTS)
    alice = old.apps.get_model("accounts", "User").objects.create(username="alice")
    table = table_then(old.apps, alice, 2, status="finished", winner_seat=None, standings=[])
    game_then(old.apps, table, 1, outcome(1, [12, 0], [-12, 12]))
    game_then(old.apps, table, 2, outcome(1, [0, 3], [3, -3]))
    migrator.apply_tested_migration(RESULTS)

    undone = migrator.apply_tested_migration(BEFORE_RESULTS)

    table = undone.apps.get_model("games", "Table").objects.get(pk=table.pk)
    assert table.winner_seat == 1
    assert table.standings == [
        {"seat": 1, "total": 9, "wins": 2},
        {"seat": 0, "total": -9, "wins": 0},
    ]
    assert [r["outcome"]["scores"] for r in table.round["results"]] == [[-12, 12], [3, -3]]
    games = undone.apps.get_model("games", "Game").objects.order_by("number")
    assert [g.winner_seat for g in games] == [1, 1]
