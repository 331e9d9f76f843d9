"""A second database role in a test: made by DATABASE_URL's role (the server's superuser
under scripts/test-env.sh: the tables' owner may create no role), granted what the app's
role gets (``manage.py grant_app_role``, as the owner: the test is ``as_owner``), and
connected to outside Django, as an attacker holding the app's credentials would be."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import environ
import psycopg
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from psycopg.types.json import Jsonb

from moderation import log_chain
from moderation.models import LogEntry


@contextmanager
def granted_role(suffix: str = "app") -> Iterator[str]:
    """A login role (the test server trusts local logins) with the app's rights,
    dropped with them afterwards."""
    role = f"{connection.settings_dict['NAME']}_{suffix}"[:63].lower()
    drop_role(role)  # an interrupted run's
    with superuser() as su:
        su.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        call_command("grant_app_role", role)
        yield role
    finally:
        drop_role(role)


def drop_role(role: str) -> None:
    with superuser() as su:
        if su.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
            su.execute(f'DROP OWNED BY "{role}"')
            su.execute(f'DROP ROLE "{role}"')


@contextmanager
def superuser() -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """DATABASE_URL's role on the test database: the one that makes roles."""
    bootstrap = environ.Env.db_url_config(os.environ["DATABASE_URL"])
    with connect_as(str(bootstrap["USER"]), str(bootstrap.get("PASSWORD") or "")) as opened:
        yield opened


def connect_as(role: str, password: str = "") -> psycopg.Connection[tuple[object, ...]]:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        dbname=settings["NAME"],
        user=role,
        password=password or None,
        autocommit=True,
    )


def append_as_the_app(app: psycopg.Connection[tuple[object, ...]], summary: str) -> int:
    """What ``LogEntry.objects.create`` writes, in SQL (this connection is not Django's)."""
    entry = SimpleNamespace(
        at=timezone.now(),
        actor_id=None,
        action=LogEntry.Action.FILED,
        case_id=None,
        club_id=None,
        summary=summary,
        reason="",
        changes={"by": "the app's role"},
    )
    row = app.execute(
        # Schema-qualified: a session that made a temporary view of the log's name
        # appends to the log itself all the same.
        "INSERT INTO public.moderation_logentry (at, action, summary, reason, changes,"
        " content_digest, digest) VALUES (%s, %s, %s, %s, %s, %s, '') RETURNING id",
        [
            entry.at,
            entry.action,
            entry.summary,
            entry.reason,
            Jsonb(entry.changes),
            log_chain.content_digest(entry),  # type: ignore[arg-type]
        ],
    ).fetchone()
    assert row is not None
    return int(str(row[0]))
