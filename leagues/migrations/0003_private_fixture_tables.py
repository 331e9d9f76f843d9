"""The tables of private clubs' fixtures, set up before tables had a ``private`` flag,
are marked private, as opening a matchday now marks them."""

from typing import Any

from django.db import migrations


def mark_private(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    tables = Table.objects.filter(fixture__matchday__season__league__club__is_private=True)
    tables.update(private=True)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0002_season_start_failure"),
        ("games", "0013_table_private"),
    ]

    operations = [migrations.RunPython(mark_private, migrations.RunPython.noop)]
