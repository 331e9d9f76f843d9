"""Fixture deadlines people can trust: a fixture's deadline reaches its table (each
fixture table settles when its fixture is due, ``games.Table.settles_at``, which the
game page and "Your move" show when it comes before a turn's deadline), and a vacation
during a matchday may extend its player's fixture (``Fixture.vacation_days``, under the
house rule ``vacations_extend``)."""

from typing import Any

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


def settle_tables(apps: Any, schema_editor: Any) -> None:
    Fixture = apps.get_model("leagues", "Fixture")
    Table = apps.get_model("games", "Table")
    fixtures = Fixture.objects.filter(table__isnull=False).select_related("matchday")
    for fixture in fixtures.iterator(chunk_size=500):
        due = fixture.deadline or fixture.matchday.deadline
        Table.objects.filter(pk=fixture.table_id).update(settles_at=due)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_table_settles_at"),
        ("leagues", "0007_suspension_rule"),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name="fixture",
            name="insert_insert",
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name="fixture",
            name="update_update",
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name="season",
            name="insert_insert",
        ),
        pgtrigger.migrations.RemoveTrigger(
            model_name="season",
            name="update_update",
        ),
        migrations.AddField(
            model_name="fixture",
            name="vacation_days",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Days its deadline is extended for its players' vacations during its matchday (derived from their vacations, under the season's vacations_extend).",
            ),
        ),
        migrations.AddField(
            model_name="fixtureevent",
            name="vacation_days",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Days its deadline is extended for its players' vacations during its matchday (derived from their vacations, under the season's vacations_extend).",
            ),
        ),
        migrations.AddField(
            model_name="league",
            name="vacations_extend",
            field=models.BooleanField(
                default=True,
                help_text="A player's vacation during a matchday extends their fixture's deadline by the days it overlaps the matchday (at most the matchday's length); else the fixture keeps its deadline and the close preview names the player.",
            ),
        ),
        migrations.AddField(
            model_name="season",
            name="vacations_extend",
            field=models.BooleanField(
                default=True,
                help_text="A player's vacation during a matchday extends their fixture's deadline by the days it overlaps the matchday (at most the matchday's length); else the fixture keeps its deadline and the close preview names the player.",
            ),
        ),
        migrations.AddField(
            model_name="seasonevent",
            name="vacations_extend",
            field=models.BooleanField(
                default=True,
                help_text="A player's vacation during a matchday extends their fixture's deadline by the days it overlaps the matchday (at most the matchday's length); else the fixture keeps its deadline and the close preview names the player.",
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="fixture",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "leagues_fixtureevent" ("deadline", "division_id", "id", "matchday_id", "note", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "status", "table_id", "vacation_days") VALUES (NEW."deadline", NEW."division_id", NEW."id", NEW."matchday_id", NEW."note", _pgh_attach_context(), NOW(), \'insert\', NEW."id", NEW."status", NEW."table_id", NEW."vacation_days"); RETURN NULL;',
                    hash="8b9edf7222c953cf194ca570eb77462953b11a25",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_8d182",
                    table="leagues_fixture",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="fixture",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "leagues_fixtureevent" ("deadline", "division_id", "id", "matchday_id", "note", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "status", "table_id", "vacation_days") VALUES (NEW."deadline", NEW."division_id", NEW."id", NEW."matchday_id", NEW."note", _pgh_attach_context(), NOW(), \'update\', NEW."id", NEW."status", NEW."table_id", NEW."vacation_days"); RETURN NULL;',
                    hash="6c0e4edc584050992fbd7d9608f9856a9ab4045e",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_ab908",
                    table="leagues_fixture",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="season",
            trigger=pgtrigger.compiler.Trigger(
                name="insert_insert",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func='INSERT INTO "leagues_seasonevent" ("closes_at", "created_at", "division_size", "finished_at", "id", "league_id", "matchday_days", "number", "on_deadline", "on_withdrawal", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "placement_points", "previous_id", "promotion", "registration_approval", "registration_closes_at", "scoring", "seats", "start_failed_at", "start_failure", "started_at", "starts_at", "status", "table_settings", "tiebreaks", "vacation_days", "vacations_extend") VALUES (NEW."closes_at", NEW."created_at", NEW."division_size", NEW."finished_at", NEW."id", NEW."league_id", NEW."matchday_days", NEW."number", NEW."on_deadline", NEW."on_withdrawal", _pgh_attach_context(), NOW(), \'insert\', NEW."id", NEW."placement_points", NEW."previous_id", NEW."promotion", NEW."registration_approval", NEW."registration_closes_at", NEW."scoring", NEW."seats", NEW."start_failed_at", NEW."start_failure", NEW."started_at", NEW."starts_at", NEW."status", NEW."table_settings", NEW."tiebreaks", NEW."vacation_days", NEW."vacations_extend"); RETURN NULL;',
                    hash="35c05d09393a0c711c83e1bcbf701cc5aa40bef2",
                    operation="INSERT",
                    pgid="pgtrigger_insert_insert_bc936",
                    table="leagues_season",
                    when="AFTER",
                ),
            ),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="season",
            trigger=pgtrigger.compiler.Trigger(
                name="update_update",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition="WHEN (OLD.* IS DISTINCT FROM NEW.*)",
                    func='INSERT INTO "leagues_seasonevent" ("closes_at", "created_at", "division_size", "finished_at", "id", "league_id", "matchday_days", "number", "on_deadline", "on_withdrawal", "pgh_context_id", "pgh_created_at", "pgh_label", "pgh_obj_id", "placement_points", "previous_id", "promotion", "registration_approval", "registration_closes_at", "scoring", "seats", "start_failed_at", "start_failure", "started_at", "starts_at", "status", "table_settings", "tiebreaks", "vacation_days", "vacations_extend") VALUES (NEW."closes_at", NEW."created_at", NEW."division_size", NEW."finished_at", NEW."id", NEW."league_id", NEW."matchday_days", NEW."number", NEW."on_deadline", NEW."on_withdrawal", _pgh_attach_context(), NOW(), \'update\', NEW."id", NEW."placement_points", NEW."previous_id", NEW."promotion", NEW."registration_approval", NEW."registration_closes_at", NEW."scoring", NEW."seats", NEW."start_failed_at", NEW."start_failure", NEW."started_at", NEW."starts_at", NEW."status", NEW."table_settings", NEW."tiebreaks", NEW."vacation_days", NEW."vacations_extend"); RETURN NULL;',
                    hash="1a0c92fc8210c9305726692abdb939b1a03879da",
                    operation="UPDATE",
                    pgid="pgtrigger_update_update_65c41",
                    table="leagues_season",
                    when="AFTER",
                ),
            ),
        ),
        migrations.RunPython(settle_tables, migrations.RunPython.noop, elidable=True),
    ]
