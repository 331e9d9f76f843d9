"""The database role the app runs as, apart from the role that owns the tables.

The owner runs the migrations; the app's role may read and write the app's tables but
owns none of them, so it can neither TRUNCATE, ALTER (turn a trigger off) nor set
``session_replication_role`` (a superuser's). On the moderation log it may only SELECT
and INSERT: the seal that chains a new entry (``LogEntry``'s deferred trigger) runs
with its owner's rights (SECURITY DEFINER), and the owner's triggers let it do nothing
but the seal.

:func:`grants` is what ``manage.py grant_app_role ROLE`` runs as the owner, after the
migrations (it makes the seal's function SECURITY DEFINER again: a migration that
rewrites the function resets it).
"""

from __future__ import annotations

import re

from django.db import connection

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
LOG_TABLE = "moderation_logentry"


def grants(role: str) -> list[str]:
    """The statements that give ``role`` what the app needs, and no more on the log."""
    if not ROLE_NAME.match(role):
        raise ValueError(f"{role!r} is not a plain role name (lower case, digits, _).")
    who = f'"{role}"'
    return [
        f"GRANT USAGE ON SCHEMA public TO {who}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {who}",
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {who}",
        # Tables and sequences the owner creates later (the next migrations).
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {who}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {who}",
        # The log: read and append, nothing else.
        f"REVOKE UPDATE, DELETE, TRUNCATE ON {LOG_TABLE} FROM {who}",
        *(
            f"ALTER FUNCTION {function} SECURITY DEFINER SET search_path = pg_catalog, public"
            for function in _seal_functions()
        ),
    ]


def _seal_functions() -> list[str]:
    """The seal's trigger function(s) on the log (its name carries pgtrigger's hash)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT t.tgfoid::regprocedure::text FROM pg_trigger t "
            "WHERE t.tgrelid = %s::regclass AND t.tgname LIKE %s",
            [LOG_TABLE, "pgtrigger_moderation_log_seal_%"],
        )
        return [row[0] for row in cursor.fetchall()]
