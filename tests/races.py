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
