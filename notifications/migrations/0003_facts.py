from django.db import migrations, models


class Migration(migrations.Migration):
    """A notice's line kept as words and moments (notifications.lines), written out in
    the reader's zone. Existing notices keep their text, which they read as before."""

    dependencies = [
        ("notifications", "0002_push"),
    ]

    operations = [
        migrations.AddField(
            model_name="notification",
            name="facts",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='Its line as words and moments ({"moment": ISO 8601}), written out in '
                "the reader's zone; empty: its text is its line.",
            ),
        ),
        migrations.AlterField(
            model_name="notification",
            name="text",
            field=models.TextField(
                help_text="One line of plain text, written when it was created (in the member's zone)."
            ),
        ),
    ]
