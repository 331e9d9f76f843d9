"""The notifications, taken over from the games app: the tables ``games_notification``
and ``games_notificationpreference`` exist already (the games app's migrations made them,
up to 0018), so they enter this app's state only, with their names, constraints and
indexes as they are; games' 0019 then lets go of them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0018_table_settles_at"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Notification",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=20)),
                        (
                            "text",
                            models.TextField(
                                help_text="One line of plain text, written when it was created."
                            ),
                        ),
                        (
                            "link",
                            models.CharField(
                                help_text="Where it leads: a path on this site.", max_length=200
                            ),
                        ),
                        ("subject_id", models.PositiveBigIntegerField(blank=True, null=True)),
                        (
                            "key",
                            models.CharField(
                                blank=True,
                                help_text="Unique per member when set: the notification is created once.",
                                max_length=100,
                            ),
                        ),
                        (
                            "deadline",
                            models.DateTimeField(
                                blank=True,
                                help_text="When what it asks for is due (a turn's deadline).",
                                null=True,
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("read_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "email",
                            models.CharField(
                                choices=[
                                    ("pending", "To be sent at once"),
                                    ("digest", "Waiting for the daily digest"),
                                    ("sent", "Sent"),
                                    ("skipped", "Not sent (seen, watched or out of date)"),
                                    ("off", "Not wanted"),
                                    ("failed", "Could not be sent"),
                                ],
                                default="off",
                                max_length=10,
                            ),
                        ),
                        ("emailed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "email_error",
                            models.CharField(
                                blank=True,
                                help_text="Why its email could not be sent (email=failed), as the member reads it.",
                                max_length=200,
                            ),
                        ),
                        (
                            "subject_type",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="contenttypes.contenttype",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notifications",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_notification",
                        "ordering": ["-created_at", "-pk"],
                        "indexes": [
                            models.Index(
                                fields=["user", "read_at"], name="games_notification_unread"
                            ),
                            models.Index(fields=["email", "user"], name="games_notification_email"),
                            models.Index(
                                fields=["subject_type", "subject_id"],
                                name="games_notification_subject",
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("key", ""), _negated=True),
                                fields=("user", "key"),
                                name="games_notification_once_per_key",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="NotificationPreference",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=20)),
                        (
                            "delivery",
                            models.CharField(
                                choices=[
                                    ("immediate", "At once"),
                                    ("digest", "In a daily digest"),
                                    ("never", "Never"),
                                ],
                                max_length=10,
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notification_preferences",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_notificationpreference",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "kind"), name="games_preference_one_per_kind"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
