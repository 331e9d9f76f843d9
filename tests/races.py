"""Requests racing each other: the attempts run at the same moment, each in a thread with
its own database connection, so that row locks really are contended."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.db import connections

E = TypeVar("E", bound=Exception)


def race(*attempts: Callable[[], object], refusal: type[E], name: Callable[[E], str]) -> list[str]:
    """``"ok"`` for each attempt that went through, ``name(error)`` for each ``refusal``;
    sorted."""
    start = threading.Barrier(len(attempts))

    def run(attempt: Callable[[], object]) -> str:
        try:
            start.wait()
            attempt()
            return "ok"
        except refusal as error:
            return name(error)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(attempts)) as pool:
        return sorted(pool.map(run, attempts))


class Meanwhile:
    """An attempt made from another connection while the caller's transaction is open
    and holds its locks: a fixed interleaving, not a race. Started at once; the
    constructor returns when the attempt has finished or waits on a lock (asked of
    PostgreSQL: ``pg_blocking_pids``), so the caller knows which before it commits.
    :meth:`outcome` then waits for it: ``"ok"``, or ``name(error)`` for a ``refusal``."""

    def __init__(
        self, attempt: Callable[[], object], *, refusal: type[E], name: Callable[[E], str]
    ) -> None:
        self._pid: list[int] = []
        self._outcome: list[str] = []
        started = threading.Event()

        def run() -> None:
            try:
                with connections["default"].cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    self._pid.append(cursor.fetchone()[0])
                started.set()
                attempt()
                self._outcome.append("ok")
            except refusal as error:
                self._outcome.append(name(error))
            finally:
                started.set()
                connections.close_all()

        self._thread = threading.Thread(target=run)
        self._thread.start()
        started.wait()
        while self._thread.is_alive() and not self.waiting:
            self._thread.join(0.01)

    @property
    def waiting(self) -> bool:
        """Whether the attempt waits on a lock another connection holds."""
        if not self._pid:
            return False
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT cardinality(pg_blocking_pids(%s)) > 0", [self._pid[0]])
            return bool(cursor.fetchone()[0])

    def outcome(self) -> str:
        self._thread.join()
        assert self._outcome, "the attempt failed otherwise"
        return self._outcome[0]
