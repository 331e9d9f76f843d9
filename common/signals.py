"""Facts announced once each, after the transaction that made them commits.

A service that makes a fact sends its signal through :func:`send_after_commit`; what
follows from the fact subscribes in its app's ``AppConfig.ready()``. A service therefore
never names its consequences, and an app lower down never imports one above it.

Why after commit: a receiver may read the rows the fact wrote (a consumer reloads a
game, a task loads it in another process), so it must only hear of what is committed,
and a transaction that rolls back - a move refused halfway, a lost race - announces
nothing. Each signal is sent with ``send_robust``: one receiver that fails (Redis is
down, the broker is away) is logged and does not keep the others from running; the
fact stands whatever they do.

Every signal is sent with a model class as ``sender`` and keyword arguments only: ids
and small values, never a locked row (by the time a receiver runs the lock is gone, and
the row it would get may be older than the database). A receiver that needs more loads
it afresh, as a Celery task does. Receivers take ``**kwargs`` so that a fact may gain an
argument without breaking them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal


class Announcement:
    """A fact waiting for its transaction to commit: the callback ``on_commit`` holds.

    Its ``signal``, ``sender`` and ``facts`` stay readable until it runs (a benchmark
    notes each move's commit by them).
    """

    def __init__(self, signal: Signal, sender: type, facts: dict[str, Any]) -> None:
        self.signal, self.sender, self.facts = signal, sender, facts
        # Robust on_commit names a callback that failed by its ``__qualname__``.
        self.__qualname__ = f"Announcement({sender.__name__})"

    def __call__(self) -> None:
        self.signal.send_robust(self.sender, **self.facts)


def send_after_commit(signal: Signal, sender: type, **facts: Any) -> None:
    """Send ``signal`` once the current transaction commits; never if it rolls back.

    Outside a transaction (autocommit) the fact is committed already, and it is sent at
    once. Facts are sent in the order their transaction announced them.
    """
    transaction.on_commit(Announcement(signal, sender, facts), robust=True)
