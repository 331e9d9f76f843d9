# Written by hand on 2026-12-07: each member's digest at their hour, keyed by their date,
# and what their quiet hours hold (issue 26). Depends on 0002_push, not on 0003 (the
# notices' facts, written alongside): the lead orders them when merging.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0003_facts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="email",
            field=models.CharField(
                choices=[
                    ("pending", "To be sent at once"),
                    ("digest", "Waiting for the daily digest"),
                    ("held", "Held until the member's quiet hours end"),
                    ("sent", "Sent"),
                    ("skipped", "Not sent (seen, watched or out of date)"),
                    ("off", "Not wanted"),
                    ("failed", "Could not be sent"),
                ],
                default="off",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="push",
            field=models.CharField(
                choices=[
                    ("pending", "To be pushed"),
                    ("held", "Held until the member's quiet hours end"),
                    ("sending", "Being pushed"),
                    ("sent", "Pushed"),
                    ("skipped", "Not pushed (seen, watched or out of date)"),
                    ("emailed", "No device took it: emailed instead"),
                    ("off", "Not wanted"),
                ],
                default="off",
                max_length=10,
            ),
        ),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("push", "held"), ("email", "held"), _connector="OR"),
                fields=["user"],
                name="notification_held",
            ),
        ),
        migrations.CreateModel(
            name="Digest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "day",
                    models.DateField(
                        help_text="The member's date (in their zone) it is the digest of."
                    ),
                ),
                ("sent_at", models.DateTimeField()),
                (
                    "listed",
                    models.PositiveIntegerField(
                        default=0,
                        help_text="How many notices it listed (0: all out of date, no email).",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="digests",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "day"), name="notifications_digest_once_a_day"
                    )
                ],
            },
        ),
    ]
