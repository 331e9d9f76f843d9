"""A page connection is evidence of a disputed timeout (``games.page_connections``): the
app's role may only move an open one forward (its heartbeat, its close) and delete one
once it is old enough to be pruned, or beyond a player's newest ``KEPT_PER_GAME`` of a
game (security review wave 3, S12). The owner, who could drop the trigger anyway, is not
held by it.

A plain trigger, not pgtrigger's: a pgtrigger trigger steps aside for any session that
sets ``pgtrigger.ignore``, which the app's role may. The horizon is the owner's function
``games_pageconnection_kept_days()``, which ``manage.py grant_app_role`` writes again
with GAMES_CONNECTION_DAYS (90 until it runs), where the app's role cannot change it."""

from django.db import migrations

GUARD = r"""
CREATE OR REPLACE FUNCTION public.games_pageconnection_kept_days() RETURNS double precision
LANGUAGE sql STABLE AS $$ SELECT 90::double precision $$;

CREATE OR REPLACE FUNCTION public.games_pageconnection_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    kept_per_game CONSTANT integer := 100;  -- games.page_connections.KEPT_PER_GAME
    owner oid;
BEGIN
    SELECT relowner INTO owner FROM pg_catalog.pg_class WHERE oid = TG_RELID;
    IF pg_catalog.pg_has_role(current_user, owner, 'MEMBER') THEN
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        IF OLD.disconnected_at IS NULL
            AND NEW.seen_at >= OLD.seen_at
            AND (NEW.disconnected_at IS NULL OR NEW.disconnected_at >= OLD.connected_at)
        THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'a page connection only moves forward: a closed one never changes'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD.connected_at < now() - interval '1 day' * public.games_pageconnection_kept_days()
        OR (SELECT count(*) FROM public.games_pageconnection newer
            WHERE newer.game_id = OLD.game_id AND newer.user_id = OLD.user_id
            AND (newer.connected_at, newer.id) > (OLD.connected_at, OLD.id)) >= kept_per_game
    THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'a page connection is kept until it is pruned'
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER games_pageconnection_forward
    BEFORE UPDATE OR DELETE ON public.games_pageconnection
    FOR EACH ROW EXECUTE FUNCTION public.games_pageconnection_guard();
"""

UNGUARD = """
DROP TRIGGER games_pageconnection_forward ON public.games_pageconnection;
DROP FUNCTION public.games_pageconnection_guard();
DROP FUNCTION public.games_pageconnection_kept_days();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_seat_plays_for"),
    ]

    operations = [migrations.RunSQL(GUARD, UNGUARD)]
