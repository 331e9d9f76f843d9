"""The database role the app runs as, apart from the role that owns the tables.

The owner runs the migrations; the app's role may read and write the app's tables but
owns none of them, so it can neither TRUNCATE, ALTER (turn a trigger off) nor set
``session_replication_role`` (a superuser's). On the moderation log it may only SELECT
and INSERT: the seal that chains a new entry (``LogEntry``'s deferred trigger) runs
with its owner's rights (SECURITY DEFINER), and the owner's triggers let it do nothing
but the seal. What moderation reads as evidence and history (the move log, result rows,
who sat in a seat, every pghistory event and its context, the case notes) it may read and
append to, never rewrite; page connections only move forward and go only when pruned.

A function that runs with the owner's rights is a door from the app's role to the
owner's: its ``search_path`` names ``pg_temp`` last (PostgreSQL searches an unlisted
pg_temp *first*, so a temporary view named like the log would take the log's place), the
names in its body are schema-qualified, and the app's role may create no temporary object
at all.

:func:`grants` is what ``manage.py grant_app_role ROLE`` runs as the owner, after the
migrations (it makes the seal's function SECURITY DEFINER again: a migration that
rewrites the function resets it).

Settings name the two roles: DATABASE_URL the app's, DATABASE_OWNER_URL the owner's
credentials (user, password, host, port) for the same database. The commands that must
be the owner (``migrate``, ``flush``, ``grant_app_role``) run on
:func:`owner_connection`; without DATABASE_OWNER_URL there is one role, and they run as
it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pghistory.models
from django.apps import apps
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from games.selectors.connections import kept_days

ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
LOG_TABLE = "moderation_logentry"
DEFINER_SEARCH_PATH = "pg_catalog, public, pg_temp"
"""The search path of every function that runs with the owner's rights: pg_temp last."""

# Rows that are history: read and appended, never changed or deleted (the models refuse
# it too; this is the database's refusal, which raw SQL of the app's role meets).
APPEND_ONLY = (
    ("games", "Move"),
    ("games", "Result"),
    ("games", "SeatOccupancy"),
    ("moderation", "CaseNote"),
)
# pghistory's upsert of a context (``_pgh_attach_context``) updates its metadata when a
# nested context adds to it; the trigger of moderation's migration 0007 keeps what a
# context recorded and refuses a context older than the request or job writing to it.
CONTEXT_TABLE = "pghistory_context"
CONTEXT_COLUMNS = "metadata, updated_at"
# A page's heartbeat and its close (games.page_connections); the trigger of games'
# migration 0020 lets a connection only move forward.
CONNECTION_COLUMNS = "seen_at, disconnected_at"
CONNECTION_KEPT_DAYS = "public.games_pageconnection_kept_days()"


def grants(role: str) -> list[str]:
    """The statements that give ``role`` what the app needs, and no more on the log and
    the rest of the evidence."""
    if not ROLE_NAME.match(role):
        raise ValueError(f"{role!r} is not a plain role name (lower case, digits, _).")
    who = f'"{role}"'
    connections_table = _table("games", "PageConnection")
    return [
        f"GRANT USAGE ON SCHEMA public TO {who}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {who}",
        f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {who}",
        # Tables and sequences the owner creates later (the next migrations).
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {who}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {who}",
        # No temporary object, the one thing the role could put in front of a name the
        # owner's functions use (from PUBLIC, which every role has it from by default).
        *(
            f"REVOKE TEMPORARY ON DATABASE {_database()} FROM {grantee}"
            for grantee in ("PUBLIC", who)
        ),
        # The log: read and append, nothing else.
        f"REVOKE UPDATE, DELETE, TRUNCATE ON {LOG_TABLE} FROM {who}",
        # The rest of the evidence and history: read and append.
        *(f"REVOKE UPDATE, DELETE, TRUNCATE ON {table} FROM {who}" for table in _append_only()),
        f"REVOKE UPDATE, DELETE, TRUNCATE ON {CONTEXT_TABLE} FROM {who}",
        f"GRANT UPDATE ({CONTEXT_COLUMNS}) ON {CONTEXT_TABLE} TO {who}",
        f"REVOKE UPDATE, TRUNCATE ON {connections_table} FROM {who}",
        f"GRANT UPDATE ({CONNECTION_COLUMNS}) ON {connections_table} TO {who}",
        # What the role may prune: connections older than the site's GAMES_CONNECTION_DAYS,
        # written here into the owner's function the guard asks.
        f"CREATE OR REPLACE FUNCTION {CONNECTION_KEPT_DAYS} RETURNS double precision "
        f"LANGUAGE sql STABLE AS $$ SELECT {float(kept_days())}::double precision $$",
        # Which migrations ran is the owner's to say.
        f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON django_migrations FROM {who}",
        *(
            f"ALTER FUNCTION {function} SECURITY DEFINER SET search_path = {DEFINER_SEARCH_PATH}"
            for function in seal_functions()
        ),
    ]


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (name,) = cursor.fetchone()
    return connection.ops.quote_name(name)


def _table(app_label: str, model: str) -> str:
    return str(apps.get_model(app_label, model)._meta.db_table)


def _append_only() -> list[str]:
    """The append-only tables: :data:`APPEND_ONLY` and every pghistory event table."""
    events = [
        model._meta.db_table
        for model in apps.get_models()
        if issubclass(model, pghistory.models.Event) and model._meta.managed
    ]
    return [*(_table(*name) for name in APPEND_ONLY), *sorted(events)]


def seal_functions() -> list[str]:
    """The seal's trigger function(s) on the log (its name carries pgtrigger's hash)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT t.tgfoid::regprocedure::text FROM pg_trigger t "
            "WHERE t.tgrelid = %s::regclass AND t.tgname LIKE %s",
            [LOG_TABLE, "pgtrigger_moderation_log_seal_%"],
        )
        return [row[0] for row in cursor.fetchall()]


# What DATABASE_OWNER_URL changes in the app's settings; the database stays DATABASE_URL's
# (under tests, the test database).
OWNER_KEYS = ("USER", "PASSWORD", "HOST", "PORT")
_owners = threading.local()


def owner_credentials() -> dict[str, Any] | None:
    """The owner's part of DATABASE_OWNER_URL, or ``None``: one role."""
    owner: dict[str, Any] | None = settings.DATABASE_OWNER
    return {key: owner[key] for key in OWNER_KEYS} if owner else None


def app_role() -> str | None:
    """The app's role when it is not the owner (DATABASE_URL's user), else ``None``."""
    owner = owner_credentials()
    user = str(settings.DATABASES[DEFAULT_DB_ALIAS].get("USER") or "")
    return user if owner and user and user != owner["USER"] else None


def _owner_like(app: BaseDatabaseWrapper, owner: dict[str, Any]) -> BaseDatabaseWrapper:
    """A connection to ``app``'s database as the owner. Never pooled: Django keeps one
    pool per alias, the app's, whose connections are the app's role."""
    settings_dict = {**app.settings_dict, **owner}
    settings_dict["OPTIONS"] = {
        k: v for k, v in app.settings_dict.get("OPTIONS", {}).items() if k != "pool"
    }
    return type(app)(settings_dict, app.alias)


@contextmanager
def owner_connection(alias: str = DEFAULT_DB_ALIAS) -> Iterator[BaseDatabaseWrapper]:
    """``connections[alias]`` is, in this thread and for the block, connected as the
    tables' owner (Django's commands, transactions and signal receivers find it there);
    the app's own connection when there is one role. The owner's connection stays open
    for the next block in this thread (a test run flushes after every transactional
    test) until :func:`close_owner_connections`."""
    owner = owner_credentials()
    app = connections[alias]
    if owner is None or all(app.settings_dict.get(k) == v for k, v in owner.items()):
        yield app
        return
    cached: dict[str, BaseDatabaseWrapper] = _owners.__dict__.setdefault("by_alias", {})
    wrapper = cached.get(alias)
    if wrapper is None or wrapper.settings_dict["NAME"] != app.settings_dict["NAME"]:
        if wrapper is not None:
            wrapper.close()
        wrapper = cached[alias] = _owner_like(app, owner)
    connections[alias] = wrapper
    try:
        yield wrapper
    finally:
        connections[alias] = app


def close_owner_connections() -> None:
    """Close this thread's owner connections (a database is dropped only when no one is
    connected to it)."""
    for wrapper in _owners.__dict__.pop("by_alias", {}).values():
        wrapper.close()
