"""Real Celery workers for tests: processes on the test database and the test's Redis,
serving queues of the test's own.

Each test gets fresh queue names (``CELERY_QUEUE_PREFIX``, read by the settings), so
tests running at the same time on one Redis database, or tasks an earlier test left
behind, never meet. The test's own process sends to the same names (:func:`use_queues`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

from config.celery_app import app as celery_app
from tests.browser.conftest import database_url


def new_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:12]}-"


@contextmanager
def use_queues(prefix: str) -> Iterator[None]:
    """Send this process's tasks to the queues named with ``prefix``, as the settings do
    for a worker started with ``CELERY_QUEUE_PREFIX=prefix``; forget those queues after."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_default_queue, conf.task_routes
    conf.task_always_eager = False
    conf.task_default_queue = prefix + settings.CELERY_TASK_DEFAULT_QUEUE
    routes = {
        name: {**route, "queue": prefix + route["queue"]}
        for name, route in settings.CELERY_TASK_ROUTES.items()
    }
    _route(routes)
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_default_queue, _ = saved
        _route(saved[2])
        # Tasks still queued (the next turn's clock) are nobody's any more.
        server = redis.Redis.from_url(settings.REDIS_URL)
        leftovers = list(server.scan_iter(match=f"*{prefix}*"))
        if leftovers:
            server.delete(*leftovers)
        server.close()


def _route(routes: object) -> None:
    # Celery builds its router once, from the routes it had then.
    celery_app.conf.task_routes = routes
    celery_app.amqp.flush_routes()
    celery_app.amqp.router = celery_app.amqp.Router()


class Process:
    """A server process of the stack (a group of its own) whose output goes to ``log``."""

    ready_marker = ""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.command, self.env, self.log = command, env, log
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start the process (again) and wait until it is ready."""
        ready_before = self.text().count(self.ready_marker)
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=settings.BASE_DIR,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                # A group of its own: kill() reaches a worker's pool processes too.
                start_new_session=True,
            )
        try:
            wait_for(lambda: self.is_ready(ready_before), seconds=60)
        except AssertionError:
            self.stop()
            raise AssertionError(
                f"{self.command[:6]} did not start:\n{self.text()[-3000:]}"
            ) from None

    def is_ready(self, ready_before: int) -> bool:
        return self.text().count(self.ready_marker) > ready_before

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL to the process and its children at once, as when its machine fails."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def stack_env(prefix: str, redis_url: str | None, **extra: str) -> dict[str, str]:
    """The environment of a process of the stack on the test database."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": redis_url or settings.REDIS_URL,
        # Under the prefix a run of the suite may have set for itself.
        "CELERY_QUEUE_PREFIX": prefix + os.environ.get("CELERY_QUEUE_PREFIX", ""),
        **extra,
    }


CELERY = [sys.executable, "-m", "celery", "-A", "tests.celery_app"]


class Worker(Process):
    """One ``celery worker`` (prefork: time limits need it) serving one queue."""

    ready_marker = " ready."

    def __init__(
        self,
        prefix: str,
        queue: str,
        log: Path,
        *,
        concurrency: int = 1,
        settings_module: str = "config.settings",
        redis_url: str | None = None,
    ) -> None:
        env = stack_env(prefix, redis_url, DJANGO_SETTINGS_MODULE=settings_module)
        command = [
            *(*CELERY, "worker", "--queues", env["CELERY_QUEUE_PREFIX"] + queue),
            *("--concurrency", str(concurrency), "--loglevel", "INFO"),
            *("--hostname", f"{prefix}{queue}-{uuid.uuid4().hex[:6]}@%h"),
            *("--without-heartbeat", "--without-gossip", "--without-mingle"),
        ]
        super().__init__(command, env, log)


class Beat(Process):
    """``celery beat``: the sweeps, every ``GAMES_SWEEP_SECONDS``."""

    ready_marker = "Configuration ->"  # its banner (its log lines are quietened)

    def __init__(self, prefix: str, log: Path, *, redis_url: str | None = None) -> None:
        command = [*CELERY, "beat", "--loglevel", "INFO"]
        super().__init__(command, stack_env(prefix, redis_url), log)


def wait_for(condition: Callable[[], object], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not done within {seconds:.0f} s")
