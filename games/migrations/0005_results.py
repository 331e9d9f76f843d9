"""Results have one owner: a Result row per finished game and seat.

A game's result used to be kept in six places (the engine state's outcome, the game's
outcome and winner, the round JSON on the table with every game's outcome, the table's
standings and winner). From here on it is the games' Result rows; the round's totals,
standings and winner are derived from them. This migration:

1. creates the Result table and, on PostgreSQL, the constraints Django cannot declare:
   a row supersedes only an older row of its own game and seat;
2. drops the copies: ``Game.winner_seat``, ``Table.standings``, ``Table.winner_seat``;
3. writes a played row per seat of every finished game, from the game's outcome (its
   state's when the column is empty), and leaves the table's round JSON its schedule.

The data step runs last, so no table is altered after rows were written in the same
transaction. The place rule is written out here as it was when this ran.
"""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

CHAIN_CONSTRAINTS = [
    # Each row names its game and seat: a foreign key over the three columns keeps a
    # superseding row on the same game and seat as the row it replaces.
    "ALTER TABLE games_result ADD CONSTRAINT games_result_chain_key UNIQUE (id, game_id, seat)",
    "ALTER TABLE games_result ADD CONSTRAINT games_result_supersedes_same_seat "
    "FOREIGN KEY (supersedes_id, game_id, seat) REFERENCES games_result (id, game_id, seat)",
    # Rows are inserted in order: a chain cannot loop.
    "ALTER TABLE games_result ADD CONSTRAINT games_result_supersedes_older "
    "CHECK (supersedes_id < id)",
]


def add_chain_constraints(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for statement in CHAIN_CONSTRAINTS:
            schema_editor.execute(statement)


def places(score_mode: str, scores: list[int], winner: Any) -> list[int]:
    """The winner first, then by score (lowest first under penalty_only); ties share."""
    sign = 1 if score_mode == "penalty_only" else -1
    keys = [(0 if seat == winner else 1, sign * score) for seat, score in enumerate(scores)]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def write_results(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Table = apps.get_model("games", "Table")
    Result = apps.get_model("games", "Result")
    finished = Game.objects.filter(status="finished").exclude(results__isnull=False)
    for game in finished.order_by("pk").iterator():
        outcome = game.outcome or (game.state or {}).get("outcome")
        if not outcome:
            continue
        members = dict(
            Seat.objects.filter(table_id=game.table_id, kind="player").values_list(
                "number", "user_id"
            )
        )
        scores, winner = list(outcome["scores"]), outcome["winner"]
        mode = (game.ruleset or {}).get("score_mode", "zero_sum")
        ranked = places(mode, scores, winner)
        Result.objects.bulk_create(
            Result(
                game=game,
                seat=seat,
                member_id=members.get(seat),
                score=score,
                rack_value=outcome["rack_values"][seat],
                place=ranked[seat],
                is_winner=seat == winner,
                source="played",
                created_at=game.finished_at or game.created_at,
            )
            for seat, score in enumerate(scores)
        )
    for table in Table.objects.filter(round__has_key="results").iterator():
        table.round = {key: value for key, value in table.round.items() if key != "results"}
        table.save(update_fields=["round"])


def restore_copies(apps: Any, schema_editor: Any) -> None:
    """Back to the copies: the games' winners, the round JSON's results and the finished
    tables' standings, from the games' played outcomes (rulings are not carried back)."""
    Game = apps.get_model("games", "Game")
    Table = apps.get_model("games", "Table")
    for game in Game.objects.exclude(outcome=None).iterator():
        game.winner_seat = game.outcome["winner"]
        game.save(update_fields=["winner_seat"])
    for table in Table.objects.exclude(round=None).iterator():
        games = list(Game.objects.filter(table=table).exclude(outcome=None).order_by("number"))
        table.round = {
            **table.round,
            "results": [{"starting_player": g.starting_seat, "outcome": g.outcome} for g in games],
        }
        if table.status == "finished":
            table.standings, table.winner_seat = _standings(table, games)
        table.save(update_fields=["round", "standings", "winner_seat"])


def _standings(table: Any, games: list[Any]) -> tuple[list[dict[str, int]], Any]:
    players = table.ruleset["players"]
    totals, wins = [0] * players, [0] * players
    for game in games:
        for seat, score in enumerate(game.outcome["scores"]):
            totals[seat] += score
        if game.outcome["winner"] is not None:
            wins[game.outcome["winner"]] += 1

    def key(seat: int) -> tuple[int, int]:
        if table.ruleset.get("score_mode") == "penalty_only":
            return (totals[seat], -wins[seat])
        return (-wins[seat], -totals[seat])

    order = sorted(range(players), key=key)
    standings = [{"seat": s, "total": totals[s], "wins": wins[s]} for s in order]
    leaders = [s for s in order if key(s) == key(order[0])]
    return standings, leaders[0] if len(leaders) == 1 else None


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_notifications_general"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Result",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                (
                    "score",
                    models.IntegerField(help_text="What the game adds to the seat's round total."),
                ),
                (
                    "rack_value",
                    models.PositiveIntegerField(help_text="The value left on the seat's rack."),
                ),
                (
                    "place",
                    models.PositiveSmallIntegerField(
                        help_text="The seat's place in the game, from 1."
                    ),
                ),
                ("is_winner", models.BooleanField(default=False)),
                (
                    "source",
                    models.CharField(
                        choices=[("played", "Played"), ("ruling", "Ruling")], max_length=16
                    ),
                ),
                (
                    "reason",
                    models.TextField(blank=True, help_text="Why a ruling changed the result."),
                ),
                ("created_at", models.DateTimeField()),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        help_text="Who made the ruling (empty for a played result or an automatic one).",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="results",
                        to="games.game",
                    ),
                ),
                (
                    "member",
                    models.ForeignKey(
                        blank=True,
                        help_text="The member who played the seat; empty for a bot.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="results",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "supersedes",
                    models.OneToOneField(
                        blank=True,
                        help_text="The row of the same game and seat that this one replaces.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="superseded_by",
                        to="games.result",
                    ),
                ),
            ],
            options={
                "ordering": ["game", "seat", "pk"],
                "indexes": [models.Index(fields=["member", "game"], name="games_result_member")],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("supersedes__isnull", True)),
                        fields=("game", "seat"),
                        name="games_result_one_original_per_seat",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("reason", ""), ("source", "played"), ("supersedes__isnull", True)
                            ),
                            models.Q(
                                models.Q(("source", "played"), _negated=True),
                                ("supersedes__isnull", False),
                                models.Q(("reason", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="games_result_rulings_supersede_with_a_reason",
                    ),
                ],
            },
        ),
        migrations.RunPython(add_chain_constraints, migrations.RunPython.noop),
        # Undone after the dropped columns are back (operations are undone in reverse).
        migrations.RunPython(migrations.RunPython.noop, restore_copies),
        migrations.RemoveField(
            model_name="game",
            name="winner_seat",
        ),
        migrations.RemoveField(
            model_name="table",
            name="standings",
        ),
        migrations.RemoveField(
            model_name="table",
            name="winner_seat",
        ),
        migrations.AlterField(
            model_name="table",
            name="round",
            field=models.JSONField(
                blank=True,
                help_text="engine.round.Round.to_dict(), the schedule; holds the secret seed.",
                null=True,
            ),
        ),
        migrations.RunPython(write_results, migrations.RunPython.noop),
    ]
