from django.db import migrations, models


class Migration(migrations.Migration):
    """The lobby reads from indexes: "games to watch", the newest turns of the games in
    play, instead of sorting every game in play; the tables waiting for players, instead
    of reading every table."""

    dependencies = [
        ("games", "0024_forced_turns"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="table",
            index=models.Index(fields=["status", "-created_at"], name="games_table_status_newest"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["status", "-turn_started_at"], name="games_game_latest_turn"
            ),
        ),
    ]
