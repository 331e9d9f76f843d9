"""The real stack for a benchmark: a database of its own, a Redis database, daphne and a
Celery worker as child processes.

Only the benchmarks use this; the app itself is started by :mod:`config.runstack`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from config.runstack import daphne_command, free_port, http_answers, listening_socket

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
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_path(url, f"/{name}")


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def clear_redis(url: str, patterns: tuple[str, ...] = ("asgi*", "presence:*")) -> int:
    """Delete what an earlier run left in the Redis database of ``url``: the channel
    layer's groups (a killed server never leaves them, and each push would still go to its
    dead channels) and who was on which page. Returns the number of keys deleted."""
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
    ) -> None:
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                args,
                cwd=ROOT,
                env=dict(env),
                stdout=out,
                stderr=subprocess.STDOUT,
                pass_fds=pass_fds,
            )

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
