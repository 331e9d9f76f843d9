"""A seat may forfeit every game of its round as it is dealt (``Seat.forfeits_each_game``):
a league's player who withdrew under the forfeit rule keeps their seat, whose results
count for them, but never holds a turn (the forfeit is part of the deal, not a
consequence after its commit that a lost worker could skip). The leagues' migration
0010 sets it for the seats of players who withdrew before it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_page_connections_forward"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="forfeits_each_game",
            field=models.BooleanField(
                default=False,
                help_text="The seat's member left the competition the table belongs to: the seat forfeits every game of the round as it is dealt, in the deal's own transaction, so no turn of theirs is ever awaited (a league's withdrawal under its forfeit rule).",
            ),
        ),
    ]
