"""`make run` with two database roles (README, "Two database roles"): the launcher, given
the owner's URL and the app's, migrates and grants as the owner, and daphne and the
Celery processes connect as the app's role, which owns no table and may not TRUNCATE the
moderation log."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from config import runstack
from config.runstack import (
    EMBEDDED_OWNER_ROLE,
    HOST,
    create_owner_role,
    free_port,
    hand_database_to,
)
from tests.browser.conftest import database_url
from tests.moderation.roles import granted_role, superuser

# The test's own connection is the owner's.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.as_owner]


@pytest.fixture
def new_role() -> Iterator[str]:
    """The app's role, made as the docs' first step does (by the superuser: the tables'
    owner may create no role), dropped afterwards."""
    with granted_role("run") as role:
        yield role


def status(port: int, path: str) -> int:
    page = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        page.request("GET", path)
        return page.getresponse().status
    finally:
        page.close()


def test_make_run_runs_the_app_as_a_role_that_owns_no_table(tmp_path: Path, new_role: str) -> None:
    owner = connection.settings_dict
    app_url = database_url({**owner, "USER": new_role, "PASSWORD": "app-secret"})
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_OWNER_URL": database_url(owner),
        "DATABASE_URL": app_url,
        "REDIS_URL": settings.REDIS_URL,
        "PORT": str(port),
        "DEBUG": "true",
        "WEB_PROCESSES": "1",
        "STATIC_ROOT": str(tmp_path / "static"),
        # The workers take no task of another test run on the same Redis.
        "CELERY_QUEUE_PREFIX": f"test-{uuid.uuid4().hex[:12]}-",
        "CACHE_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
    }
    log_path = tmp_path / "runstack.log"
    with log_path.open("wb") as log:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "config.runstack"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while "Press Ctrl-C to stop." not in log_path.read_text():
            assert launcher.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.2)
        output = log_path.read_text()
        assert f"Granted {new_role} the app's rights" in output
        assert f"the app connects as {new_role}, which owns no table" in output

        assert status(port, "/") == 200
        # A page that reads the database: no such calendar.
        assert status(port, "/clubs/calendar/no-such-token.ics") == 404
        # daphne, a worker per queue (main, bots, solver), beat, and the workers' own
        # processes.
        apps = psutil.Process(launcher.pid).children(recursive=True)
        assert len(psutil.Process(launcher.pid).children()) == 2 + len(runstack.WORKER_QUEUES)
        for child in apps:
            environ = child.environ()
            assert "DATABASE_OWNER_URL" not in environ
            assert urlsplit(environ["DATABASE_URL"]).username == new_role
        app_ports = {
            c.laddr.port
            for child in apps
            for c in child.net_connections(kind="tcp")
            if c.raddr and c.raddr.port == int(owner["PORT"] or 5432)
        }
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT usename FROM pg_stat_activity WHERE client_port = ANY(%s)",
                [sorted(app_ports)],
            )
            assert cursor.fetchall() == [(new_role,)]

        with psycopg.connect(app_url.replace("postgres://", "postgresql://", 1)) as app:
            assert app.execute("SELECT current_user").fetchone() == (new_role,)
            owners = app.execute(
                "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
            assert owners and (new_role,) not in owners
            assert app.execute("SELECT count(*) FROM moderation_logentry").fetchone() == (0,)
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute("TRUNCATE moderation_logentry")

        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(60) == 0
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
    assert "Stopping everything" not in log_path.read_text()


def test_make_runs_owner_is_no_superuser_and_takes_over_an_earlier_database() -> None:
    """The embedded database of an earlier run, made when the superuser owned the tables:
    the launcher makes the owner role (no superuser) and hands it the database and all it
    holds, twice over without harm."""
    scratch = f"{connection.settings_dict['NAME']}_handover"[:63].lower()
    with superuser() as su:
        bootstrap = {"USER": su.info.user, "PASSWORD": su.info.password}
        su.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        su.execute(f'CREATE DATABASE "{scratch}"')
    superuser_url = database_url({**connection.settings_dict, **bootstrap, "NAME": scratch})
    try:
        with psycopg.connect(superuser_url.replace("postgres://", "postgresql://", 1)) as earlier:
            earlier.execute("CREATE TABLE played (id int GENERATED BY DEFAULT AS IDENTITY)")
            earlier.execute("CREATE FUNCTION one() RETURNS int LANGUAGE sql AS 'SELECT 1'")
        for _ in range(2):
            create_owner_role(superuser_url, EMBEDDED_OWNER_ROLE)
            hand_database_to(superuser_url, EMBEDDED_OWNER_ROLE)
        with psycopg.connect(superuser_url.replace("postgres://", "postgresql://", 1)) as now:
            owners = now.execute(
                "SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class "
                "WHERE relnamespace = 'public'::regnamespace UNION "
                "SELECT pg_get_userbyid(proowner) FROM pg_proc "
                "WHERE pronamespace = 'public'::regnamespace UNION "
                "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()"
            ).fetchall()
            role = now.execute(
                "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = %s",
                [EMBEDDED_OWNER_ROLE],
            ).fetchone()
        assert owners == [(EMBEDDED_OWNER_ROLE,)]
        assert role == (False, True, False)
    finally:
        with superuser() as su:
            su.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
