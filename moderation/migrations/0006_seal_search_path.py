"""The seal of the log runs with the owner's rights (SECURITY DEFINER): every name in it is
now schema-qualified and its search path names pg_temp last, so that no temporary object of
the caller's can stand in for the log (security review wave 3, S1). The migration sets the
function's rights itself, as ``manage.py grant_app_role`` does after every migrate: until
then an entry appended by the app's role could not be sealed."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0005_benched_seats"),
    ]

    operations = [
        pgtrigger.migrations.RemoveTrigger(
            model_name="logentry",
            name="moderation_log_seal",
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="logentry",
            trigger=pgtrigger.compiler.Trigger(
                name="moderation_log_seal",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    constraint="CONSTRAINT",
                    declare="DECLARE last_position bigint; last_digest text;",
                    func='\n            IF NEW."content_digest" = \'\' THEN\n                RAISE EXCEPTION \'A moderation log entry is written with its content digest.\';\n            END IF;\n            PERFORM pg_catalog.pg_advisory_xact_lock(7361726601);\n            SELECT "position", "digest" INTO last_position, last_digest\n                FROM public."moderation_logentry" WHERE "position" IS NOT NULL\n                ORDER BY "position" DESC LIMIT 1;\n            UPDATE public."moderation_logentry" SET\n                "position" = COALESCE(last_position, 0) + 1,\n                "digest" = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(\n                    COALESCE(last_digest, \'\') || NEW."content_digest", \'UTF8\')), \'hex\')\n                WHERE "id" = NEW."id";\n            RETURN NULL;\n        ',
                    hash="875ab2d6006c9da282852c931d237b77fba48364",
                    operation="INSERT",
                    pgid="pgtrigger_moderation_log_seal_ec526",
                    table="moderation_logentry",
                    timing="DEFERRABLE INITIALLY DEFERRED",
                    when="AFTER",
                ),
            ),
        ),
        migrations.RunSQL(
            "ALTER FUNCTION public.pgtrigger_moderation_log_seal_ec526() "
            "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp",
            migrations.RunSQL.noop,
        ),
    ]
