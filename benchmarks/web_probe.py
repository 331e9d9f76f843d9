"""The app of ``config.asgi`` that also notes when each move commits (benchmarks only).

``bench_web`` serves this module with daphne instead of ``config.asgi``. Right after a
transaction commits, Django runs its ``on_commit`` callbacks; among a move's is the
announcement of :data:`games.signals.move_committed` (whose receiver pushes it). Its
facts name the move, and the moment the callbacks start is the moment of the commit.
Each such move is written as ``<game_id> <version> <unix time>`` to ``BENCH_COMMIT_LOG``,
so the benchmark can time a push from the commit, with the clock of the same machine.

It also serves the floor of :mod:`benchmarks.floor` (its URLconf is the app's plus the
floor's view); a bump of counter ``row`` to ``n`` is written as ``-<row> <n> <unix time>``.

And it counts the SQL statements of each request, as ``<method> <path> <count>`` in
``BENCH_QUERY_LOG`` (when set): those sent from the request's own thread, from its
start to its end (Django runs each request's sync code in a thread of its own: the
middleware, the view, and the ``on_commit`` callbacks of its transaction). What the
sockets render in their threads is not counted.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper

from benchmarks import floor
from common.signals import Announcement
from config.asgi import application
from games import signals

__all__ = ["PUSHES", "application", "moves_in", "request_line"]

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

_query_log_path = os.environ.get("BENCH_QUERY_LOG", "")
_query_log = open(_query_log_path, "a", buffering=1) if _query_log_path else None  # noqa: SIM115
_request = threading.local()
_execute = CursorWrapper._execute  # type: ignore[attr-defined]


def request_line(scope: dict[str, Any], count: int) -> str:
    """A request's line in the query log.

    >>> request_line({"method": "POST", "path": "/games/3/draw/"}, 12)
    'POST /games/3/draw/ 12\n'
    """
    return f"{scope.get('method', '-')} {scope.get('path', '-')} {count}\n"


def _counting(self: CursorWrapper, sql: Any, params: Any, *args: Any) -> Any:
    if getattr(_request, "scope", None) is not None:
        _request.count += 1
    return _execute(self, sql, params, *args)


def _started(sender: object, scope: dict[str, Any] | None = None, **_: object) -> None:
    _request.scope, _request.count = scope, 0


def _finished(sender: object, **_: object) -> None:
    scope = getattr(_request, "scope", None)
    if scope is not None and _query_log is not None:
        with _lock:
            _query_log.write(request_line(scope, _request.count))
    _request.scope = None


if _query_log is not None:
    CursorWrapper._execute = _counting  # type: ignore[attr-defined]
    request_started.connect(_started, dispatch_uid="bench_web_probe_started")
    request_finished.connect(_finished, dispatch_uid="bench_web_probe_finished")
# Read per request, so it may change once the app is built (before any request comes).
settings.ROOT_URLCONF = "benchmarks.floor_urls"
