"""The restore drill: a backup of the site (``backup_database``, as the owner) restored
into a fresh database (``restore_database --into``) brings the moderation log back whole:
its entries, its chain (the same head digest), its triggers (the owner's UPDATE refused)
and the app's role's rights (append, never rewrite)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from config import backup
from moderation.db_role import owner_credentials
from moderation.models import LogEntry
from tests.moderation.roles import append_as_the_app, drop_role, superuser

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.as_owner]


def connect_to(database: str, role: str) -> psycopg.Connection[tuple[object, ...]]:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        dbname=database,
        user=role,
        autocommit=True,
    )


@pytest.fixture
def drill() -> Iterator[tuple[str, str]]:
    """A fresh database beside the test database, owned by the tables' owner, and a role
    to run the app there; both dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_drill"[:63]
    role = f"{name}_app"[:63]
    owner = (owner_credentials() or connection.settings_dict)["USER"]
    with superuser() as su:
        su.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        drop_role(role)
        su.execute(f'CREATE DATABASE "{name}" OWNER "{owner}"')
        su.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        yield name, role
    finally:
        with superuser() as su:
            su.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        drop_role(role)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_a_restored_log_keeps_its_chain_its_triggers_and_its_refusals(
    drill: tuple[str, str], tmp_path: Path
) -> None:
    name, role = drill
    for n in range(3):
        LogEntry.objects.create(at=timezone.now(), action=LogEntry.Action.FILED, summary=f"{n}.")
    dump = tmp_path / "site.dump"

    taken = run("backup_database", str(dump))
    restored = run("restore_database", str(dump), "--into", name, "--app-role", role)

    head = taken.split("Head digest: ")[1].strip()
    assert "The log's chain is intact, 3 entries." in taken
    assert f"Restored {dump} into {name}; {role} granted the app's rights." in restored
    assert "The log's chain is intact, 3 entries." in restored
    assert f"Head digest: {head}" in restored
    with connect_to(name, role) as app:
        # The app's role appends, and its entry is sealed into the chain at its commit...
        appended = append_as_the_app(app, "Written after the restore.")
        position = app.execute(
            "SELECT position FROM moderation_logentry WHERE id = %s", [appended]
        ).fetchone()
        assert position == (4,)
        # ...and may not rewrite a thing.
        for statement in (
            "UPDATE moderation_logentry SET summary = 'Nothing happened.'",
            "DELETE FROM moderation_logentry",
            "TRUNCATE moderation_logentry",
            "ALTER TABLE moderation_logentry DISABLE TRIGGER ALL",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
    owner = str((owner_credentials() or connection.settings_dict)["USER"])
    with connect_to(name, owner) as restored_as_owner:
        # The owner may UPDATE the table: the triggers came back and refuse it.
        with pytest.raises(
            psycopg.errors.RaiseException, match="Cannot update rows from moderation_logentry"
        ):
            restored_as_owner.execute("UPDATE moderation_logentry SET summary = 'Rewritten.'")
        count = restored_as_owner.execute("SELECT count(*) FROM moderation_logentry").fetchone()
        assert count == (4,)


def test_a_restore_into_a_database_that_holds_tables_is_refused(tmp_path: Path) -> None:
    dump = tmp_path / "site.dump"
    run("backup_database", str(dump))

    with pytest.raises(CommandError, match="is not empty"):
        run("restore_database", str(dump))


def test_the_client_programs_are_as_new_as_the_server() -> None:
    server = backup.server_major(connection)

    for name in ("pg_dump", "pg_restore"):
        found = backup.tool_major(backup.tool(name, server))
        assert found is not None and found >= server
    with pytest.raises(backup.BackupError, match="no pg_dump of PostgreSQL 99 or newer"):
        backup.tool("pg_dump", 99)
