"""Error reports to Sentry, started by the settings when SENTRY_DSN is set.

A report must never carry a secret of a game: a rack, the pool's order, a draft. They
could reach one through a frame's local variables (the engine's state), a request's
body (a move posts its tiles), a log line or an exception's message that names tiles,
a breadcrumb of a query, or a Redis command's arguments (the cached hints). So:

* no personal data (``send_default_pii``), no request bodies, no local variables;
* only the integrations named here (Django, Celery, logging): Redis's, which records
  commands with their values, is not turned on by itself;
* :func:`scrub`, before anything is sent (events, transactions, breadcrumbs), replaces
  the value of every key that holds game secrets and every tile written in notation
  (``R7``, ``K13``, ``J``) in any text, and drops cookies and credentials.
"""

from __future__ import annotations

import re
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import LoggingIntegration

FILTERED = "[Filtered]"
SECRET_KEYS = frozenset(
    {
        "rack",
        "racks",
        "pool",
        "state",
        "tiles",
        "tile",
        "draft",
        "drafts",
        "hand",
        "seed",
        "meld",
        "melds",
        "table",
        "sets",
        "hint",
        "hints",
        "answer",
        "play",
        "action",
    }
)
"""Keys whose values may hold a rack, the pool or a play: replaced whole."""
DROPPED_HEADERS = frozenset({"cookie", "authorization", "x-csrftoken"})
TILE = re.compile(r"(?<![A-Za-z0-9_])(?:[RBKO](?:1[0-3]|[1-9])|J)(?![A-Za-z0-9_])")
"""A tile in the rules' notation (``engine.tiles``), standing alone."""


def scrub_text(text: str) -> str:
    """
    >>> scrub_text("seat 1 tried R7 K13 J, refused")
    'seat 1 tried [tile] [tile] [tile], refused'
    >>> scrub_text("game 12: move 3, seat 0 draw (user)")
    'game 12: move 3, seat 0 draw (user)'
    """
    return TILE.sub("[tile]", text)


def scrub(value: Any, key: str = "") -> Any:
    """``value`` with every secret replaced (see the module's docstring)."""
    if key.lower() in SECRET_KEYS:
        return FILTERED
    if isinstance(value, dict):
        return {
            k: scrub(v, str(k))
            for k, v in value.items()
            if not (key == "headers" and str(k).lower() in DROPPED_HEADERS)
            and str(k).lower() not in ("cookies", "data")
        }
    if isinstance(value, list | tuple):
        return [scrub(item, key) for item in value]
    if isinstance(value, str):
        return scrub_text(value)
    return value


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    scrubbed: dict[str, Any] = scrub(event)
    return scrubbed


def before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    scrubbed: dict[str, Any] = scrub(crumb)
    return scrubbed


def options(dsn: str, environment: str, traces_sample_rate: float) -> dict[str, Any]:
    """What :func:`start` gives ``sentry_sdk.init`` (a test starts it with another
    transport)."""
    return {
        "dsn": dsn,
        "environment": environment,
        "send_default_pii": False,
        "include_local_variables": False,
        "max_request_body_size": "never",
        "auto_enabling_integrations": False,
        "integrations": [DjangoIntegration(), CeleryIntegration(), LoggingIntegration()],
        "before_send": before_send,
        "before_send_transaction": before_send,
        "before_breadcrumb": before_breadcrumb,
        "traces_sample_rate": traces_sample_rate,
    }


def start(dsn: str, environment: str, traces_sample_rate: float) -> None:
    sentry_sdk.init(**options(dsn, environment, traces_sample_rate))
