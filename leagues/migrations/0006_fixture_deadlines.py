"""Fixture deadlines reach their tables: each fixture table settles when its fixture is
due (``games.Table.settles_at``), which the game page and "Your move" show when it comes
before a turn's deadline."""

from typing import Any

from django.db import migrations


def settle_tables(apps: Any, schema_editor: Any) -> None:
    Fixture = apps.get_model("leagues", "Fixture")
    Table = apps.get_model("games", "Table")
    fixtures = Fixture.objects.filter(table__isnull=False).select_related("matchday")
    for fixture in fixtures.iterator(chunk_size=500):
        due = fixture.deadline or fixture.matchday.deadline
        Table.objects.filter(pk=fixture.table_id).update(settles_at=due)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_table_settles_at"),
        ("leagues", "0005_final_close"),
    ]

    operations = [
        migrations.RunPython(settle_tables, migrations.RunPython.noop, elidable=True),
    ]
