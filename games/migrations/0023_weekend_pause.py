"""A correspondence table may pause on weekends (``Table.weekend_pause``, issue 26): a
turn's clock stands still from Saturday 00:00 to Monday 00:00 in the mover's zone, which
the game keeps as it was when the turn started (``Game.turn_zone``). Every table so far
keeps its clock as it was: no pause, and no zone on its turns."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_seat_forfeits_each_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="turn_zone",
            field=models.CharField(
                blank=True,
                help_text="The zone whose weekends stop this turn's clock (the mover's at the turn's start); empty when the table does not pause on weekends.",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="weekend_pause",
            field=models.BooleanField(
                default=False,
                help_text="Correspondence only: a turn's clock stands still from Saturday 00:00 to Monday 00:00 in the zone of the player whose turn it is.",
            ),
        ),
    ]
