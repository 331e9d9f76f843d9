"""The app of ``config.asgi`` that also notes when each move commits (benchmarks only).

``bench_web`` serves this module with daphne instead of ``config.asgi``. Right after a
transaction commits, Django runs its ``on_commit`` callbacks; among a move's is the
announcement of :data:`games.signals.move_committed` (whose receiver pushes it). Its
facts name the move, and the moment the callbacks start is the moment of the commit.
Each such move is written as ``<game_id> <version> <unix time>`` to ``BENCH_COMMIT_LOG``,
so the benchmark can time a push from the commit, with the clock of the same machine.

It also serves the floor of :mod:`benchmarks.floor` (its URLconf is the app's plus the
floor's view); a bump of counter ``row`` to ``n`` is written as ``-<row> <n> <unix time>``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

from benchmarks import floor
from common.signals import Announcement
from config.asgi import application
from games import signals

__all__ = ["PUSHES", "application", "moves_in"]

PUSHES = (signals.move_committed,)
"""The :mod:`games.signals` that announce a committed move: ``game_id`` and ``version``."""

_log = open(os.environ["BENCH_COMMIT_LOG"], "a", buffering=1)  # noqa: SIM115 (process-long)
_lock = threading.Lock()
_run_hooks = BaseDatabaseWrapper.run_and_clear_commit_hooks


def moves_in(hooks: Iterable[tuple[Any, ...]]) -> list[tuple[int, int]]:
    """The ``(game_id, version)`` of the moves whose pushes are among the hooks
    (Django's ``(savepoints, callback, robust)``)."""
    callbacks = [hook[1] for hook in hooks]
    moves = [
        (int(fact.facts["game_id"]), int(fact.facts["version"]))
        for fact in callbacks
        if isinstance(fact, Announcement) and fact.signal in PUSHES
    ]
    pushes = [push for push in callbacks if isinstance(push, partial)]
    bumps = [
        (-int(push.args[0]), int(push.args[1])) for push in pushes if push.func is floor.committed
    ]
    return moves + bumps


def _noting_commits(self: BaseDatabaseWrapper) -> None:
    committed = time.time()
    moves = moves_in(self.run_on_commit)
    if moves:
        with _lock:
            _log.write("".join(f"{game} {version} {committed:.6f}\n" for game, version in moves))
    _run_hooks(self)


BaseDatabaseWrapper.run_and_clear_commit_hooks = _noting_commits  # type: ignore[method-assign]
# Read per request, so it may change once the app is built (before any request comes).
settings.ROOT_URLCONF = "benchmarks.floor_urls"
