# Written by hand on 2026-12-07 (the digest's hour and quiet hours of issue 26).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_forced_turns"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="digest_hour",
            field=models.PositiveSmallIntegerField(
                db_default=8,
                default=8,
                help_text="The hour of your day your daily digest comes at.",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_from",
            field=models.TimeField(
                blank=True,
                help_text="From when no push and no email comes (your time).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="quiet_until",
            field=models.TimeField(
                blank=True,
                help_text="Until when; what was held then comes at once, in one push or one email.",
                null=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(("digest_hour__lte", 23)),
                name="accounts_user_digest_hour_of_a_day",
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("quiet_from__isnull", True), ("quiet_until__isnull", True)),
                    models.Q(
                        ("quiet_from__isnull", False),
                        ("quiet_until__isnull", False),
                        models.Q(("quiet_from", models.F("quiet_until")), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="accounts_user_quiet_hours_whole",
            ),
        ),
    ]
