"""The notifications moved to their own app (``notifications``): games lets go of the
models in its state only. The tables stay, with their rows and names; the notifications
app's first migration takes them into its state."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_table_settles_at"),
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Notification"),
                migrations.DeleteModel(name="NotificationPreference"),
            ],
            database_operations=[],
        ),
    ]
