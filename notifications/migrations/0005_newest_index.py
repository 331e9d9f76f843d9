from django.db import migrations, models


class Migration(migrations.Migration):
    """A member's notices, newest first, read from an index instead of sorting them all."""

    dependencies = [
        ("notifications", "0004_digest_hours"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                fields=["user", "-created_at", "-id"], name="games_notification_newest"
            ),
        ),
    ]
