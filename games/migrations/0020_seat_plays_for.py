"""A seat says for whom its player plays from the round's start (``Seat.plays_for``): a
substitute or a bot an authority seats for a member at a table set up after the member
was replaced, so that the game's record names them "Hank for Frank" from its first move.
Tables set up before keep naming their seats as they did."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_notifications_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="plays_for",
            field=models.ForeignKey(
                blank=True,
                help_text="The member whose place the seat's player takes from the round's start: an authority above the table seated a substitute or a bot for them (a league's entry replaced or withdrawn before its fixture's table was set up).",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
