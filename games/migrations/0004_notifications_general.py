"""Notifications about more than games' turns.

A notification was a game's turn (a foreign key to the game and a turn number, unique
per member, game, kind and turn). It becomes a member, a kind, a line of text, a link
and an optional subject (a generic relation: a game, a table, later a league or a
dispute), with a key unique per member where a notification must be created once.

Existing rows keep what they said: their text and link are written as the service
wrote them when this ran, the game becomes their subject, and their key holds the game,
the kind and the turn, so the "once per turn" rule goes on. Backwards, the rows about
a game get their game and turn back from the subject and the key; others are deleted
(the old table cannot hold them).
"""

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

KIND_CHOICES = [
    ("your_turn", "Your turn"),
    ("time_running_out", "Time is running out"),
    ("table_invitation", "An invitation to a table"),
]


def turn_key(kind: str, game_id: int, turn_number: int) -> str:
    return f"{kind}:game-{game_id}:turn-{turn_number}"


def turn_text(kind: str, game_number: int, table_id: int) -> str:
    where = f"game {game_number} of table {table_id}"
    if kind == "time_running_out":
        return f"Time is running out for your turn in {where}."
    return f"It is your turn in {where}."


def game_type(apps: Any) -> Any:
    content_type = apps.get_model("contenttypes", "ContentType")
    return content_type.objects.get_or_create(app_label="games", model="game")[0]


def forwards(apps: Any, schema_editor: Any) -> None:
    notification = apps.get_model("games", "Notification")
    if not notification.objects.exists():
        # A new database: the content types come after the migrations, in their order.
        return
    subject_type = game_type(apps)
    rows = notification.objects.select_related("game").order_by("pk")
    for row in rows.iterator(chunk_size=500):
        game = row.game
        row.text = turn_text(row.kind, game.number, game.table_id)
        # The game page's address, as games/urls.py had it when this ran.
        row.link = f"/games/{game.pk}/"
        row.subject_type = subject_type
        row.subject_id = game.pk
        row.key = turn_key(row.kind, game.pk, row.turn_number)
        row.save(update_fields=["text", "link", "subject_type", "subject_id", "key"])


def backwards(apps: Any, schema_editor: Any) -> None:
    notification = apps.get_model("games", "Notification")
    subject_type = game_type(apps)
    about_games = notification.objects.filter(
        subject_type=subject_type, kind__in=["your_turn", "time_running_out"]
    )
    notification.objects.exclude(pk__in=about_games.values("pk")).delete()
    for row in about_games.order_by("pk").iterator(chunk_size=500):
        row.game_id = row.subject_id
        row.turn_number = int(row.key.rsplit("-", 1)[1])
        row.save(update_fields=["game", "turn_number"])


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0003_clamp_ruleset_bounds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="text",
            field=models.TextField(
                default="", help_text="One line of plain text, written when it was created."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="notification",
            name="link",
            field=models.CharField(
                default="", help_text="Where it leads: a path on this site.", max_length=200
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="notification",
            name="subject_type",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="contenttypes.contenttype",
            ),
        ),
        migrations.AddField(
            model_name="notification",
            name="subject_id",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="notification",
            name="key",
            field=models.CharField(
                blank=True,
                help_text="Unique per member when set: the notification is created once.",
                max_length=100,
            ),
        ),
        # Nullable for the way back, which re-creates them before it fills them.
        migrations.AlterField(
            model_name="notification",
            name="game",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="notifications",
                to="games.game",
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="turn_number",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.RemoveConstraint(
            model_name="notification",
            name="games_notification_once_per_turn",
        ),
        migrations.RemoveField(model_name="notification", name="game"),
        migrations.RemoveField(model_name="notification", name="turn_number"),
        migrations.AlterField(
            model_name="notification",
            name="deadline",
            field=models.DateTimeField(
                blank=True, help_text="When what it asks for is due (a turn's deadline).", null=True
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(choices=KIND_CHOICES, max_length=20),
        ),
        migrations.AlterField(
            model_name="notificationpreference",
            name="kind",
            field=models.CharField(choices=KIND_CHOICES, max_length=20),
        ),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                fields=["subject_type", "subject_id"], name="games_notification_subject"
            ),
        ),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=models.Q(("key", ""), _negated=True),
                fields=("user", "key"),
                name="games_notification_once_per_key",
            ),
        ),
    ]
