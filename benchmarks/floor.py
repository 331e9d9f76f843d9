"""The floor of the stack: the least a move could cost on daphne, PostgreSQL and the pool.

``bench_web`` serves :mod:`benchmarks.floor_urls` (the app's URLconf plus this view) so
that, in the same run as the moves, it can time a request that does only what every
move must do: a signed-in POST with its CSRF token, a transaction that locks one row
and bumps a counter, and an answer of a small fragment. No engine, no state, no
template, no push. Each figure of a move is printed beside the same figure of this
floor, and their ratio says how much of a move's time is the move's own work.

The counters live in a table of their own, ``bench_floor`` (made by :func:`create`, in the
benchmark's own database, dropped with it): one row per game of the run, so two pages of
a game contend for a row as its two players contend for their game's row.
"""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.views.decorators.http import require_POST

TABLE = "bench_floor"


def create(rows: list[int]) -> None:
    """The counters' table with one row at 0 per id (run once, before daphne starts)."""
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {TABLE} (id bigint PRIMARY KEY, n bigint NOT NULL)")
        cursor.executemany(f"INSERT INTO {TABLE} (id, n) VALUES (%s, 0)", [(r,) for r in rows])


def committed(row: int, count: int) -> None:
    """An on-commit hook that does nothing: :mod:`benchmarks.web_probe` notes its commit."""


def fragment(count: int) -> str:
    """The answer: the counter after the bump, in the attribute a game's status carries.

    >>> fragment(3)
    '<span id="floor" data-count="3">3</span>'
    """
    return f'<span id="floor" data-count="{count}">{count}</span>'


@require_POST
@login_required
def bump(request: HttpRequest, row: int) -> HttpResponse:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT n FROM {TABLE} WHERE id = %s FOR UPDATE", [row])
        found = cursor.fetchone()
        if found is None:
            return HttpResponseNotFound("no such counter")
        count = found[0] + 1
        cursor.execute(f"UPDATE {TABLE} SET n = %s WHERE id = %s", [count, row])
        transaction.on_commit(partial(committed, row, count))
    return HttpResponse(fragment(count))
