"""A page's queries at two sizes of the site: the same number of them whatever the number
of other games, members, notifications, cases and seasons (issue 27, "pages flat in the
data").

:func:`assert_flat` grows the site by ``n`` rows of each kind the page could list or
count, reads the page, grows it to ``10 n`` and reads it again: a page that asked once
per row, or that read more rows than it shows, asks more the second time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test import Client


def page_queries(client: Client, url: str, *, htmx: bool = False) -> list[str]:
    """The SQL of one read of ``url`` (a streamed answer read to its end), after a first
    read that fills what the site caches between requests.

    Counted by a wrapper around each execution: ``CaptureQueriesContext`` slices the
    connection's log, which every request empties when it starts."""
    headers = {"HX-Request": "true"} if htmx else {}
    _read(client, url, headers)
    executed: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        _read(client, url, headers)
    return executed


def _read(client: Client, url: str, headers: dict[str, str]) -> bytes:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    # getvalue() reads a streamed answer whole, inside the capture.
    return response.getvalue()


def assert_flat(
    client: Client, url: str, grow: Callable[[int], object], n: int = 3, *, htmx: bool = False
) -> int:
    """``url`` asks as many queries with ``n`` rows grown as with ``10 n``; that number."""
    grow(n)
    small = page_queries(client, url, htmx=htmx)
    grow(9 * n)
    large = page_queries(client, url, htmx=htmx)
    extra = "\n".join(large[len(small) :] if len(large) > len(small) else small[len(large) :])
    assert small, f"{url}: no query counted"
    assert len(small) == len(large), f"{url}: {len(small)} -> {len(large)} queries\n{extra}"
    return len(large)
