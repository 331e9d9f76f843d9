"""The context of a history event (who, why: ``pghistory_context``) is evidence like the
event (security review wave 3, S12). The app's role may not delete one (``manage.py
grant_app_role``), but pghistory's own upsert updates a context's metadata when a nested
context adds to it while its request or job runs. So for the app's role an update keeps
every key a context recorded with its value (the recorded value wins), and a context
older than an hour, whose request or job is long over, is not updated at all. The owner,
who could drop the trigger anyway, is not held by it.

A plain trigger, not pgtrigger's: a pgtrigger trigger steps aside for any session that
sets ``pgtrigger.ignore``, which the app's role may."""

from django.db import migrations

GUARD = r"""
CREATE OR REPLACE FUNCTION public.pghistory_context_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    owner oid;
BEGIN
    SELECT relowner INTO owner FROM pg_catalog.pg_class WHERE oid = TG_RELID;
    IF pg_catalog.pg_has_role(current_user, owner, 'MEMBER') THEN
        RETURN NEW;
    END IF;
    IF OLD.created_at < now() - interval '1 hour' THEN
        RAISE EXCEPTION 'the context of past history events is kept as it was'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    NEW.metadata := NEW.metadata || OLD.metadata;
    RETURN NEW;
END;
$$;

CREATE TRIGGER pghistory_context_kept
    BEFORE UPDATE ON public.pghistory_context
    FOR EACH ROW EXECUTE FUNCTION public.pghistory_context_guard();
"""

UNGUARD = """
DROP TRIGGER pghistory_context_kept ON public.pghistory_context;
DROP FUNCTION public.pghistory_context_guard();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0006_seal_search_path"),
        ("pghistory", "0007_auto_20250421_0444"),
    ]

    operations = [migrations.RunSQL(GUARD, UNGUARD)]
