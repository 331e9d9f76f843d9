from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_lobby_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="live_version",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Counts the changes the live page shows that are no move (a clock "
                "moved, a hold, a seat handed over, a result corrected); a page says it when "
                "its socket connects.",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="chat_version",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Counts the changes of the table's chat (said, hidden, shown again); "
                "a game page says it when its socket connects.",
            ),
        ),
    ]
