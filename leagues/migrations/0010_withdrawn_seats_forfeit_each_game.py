"""The seats of players who withdrew under the forfeit rule, at fixture tables whose round
is still being played, forfeit each game as it is dealt (``Seat.forfeits_each_game``,
games' migration 0022): before it, a receiver after the commit of each deal made them
forfeit, and the next games of those rounds are dealt by the new way only.

Games already played are left as they are."""

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    FixtureSeat = apps.get_model("leagues", "FixtureSeat")
    running = FixtureSeat.objects.filter(
        entry__status="withdrawn",
        fixture__matchday__season__on_withdrawal="forfeit",
        fixture__status__in=["scheduled", "playing"],
        fixture__table__status__in=["open", "playing"],
    ).values_list("fixture__table_id", "number")
    for table_id, number in running:
        Seat.objects.filter(table_id=table_id, number=number, kind="player").update(
            forfeits_each_game=True
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_seat_forfeits_each_game"),
        ("leagues", "0009_season_history_triggers"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
