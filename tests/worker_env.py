"""Loaded before Django (``-p tests.worker_env`` in pyproject's addopts): each pytest-xdist
worker gets a Redis database of its own, as pytest-django gives it a test database of its
own, so that two workers' channel groups, Celery queues and counters never meet.

Worker ``gwN`` uses the database N + 1 after REDIS_URL's (modulo Redis's 16). Outside
xdist nothing changes.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16


def worker_redis_url(url: str, worker: str) -> str:
    """The Redis address of xdist worker ``worker`` (``gw0``, ``gw1``...).

    >>> worker_redis_url("redis://127.0.0.1:6379/0", "gw1")
    'redis://127.0.0.1:6379/2'
    >>> worker_redis_url("redis://127.0.0.1:6379", "gw0")
    'redis://127.0.0.1:6379/1'
    >>> worker_redis_url("redis://127.0.0.1:6379/15", "gw0")
    'redis://127.0.0.1:6379/0'
    """
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    number = int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{(base + 1 + number) % REDIS_DATABASES}"))


if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["REDIS_URL"] = worker_redis_url(
        os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), worker
    )
