"""What every page's header shows a signed-in member: their unread notifications, and the
counts other apps add (games: their move count and the game to turn to next).
:mod:`notifications.context_processors` puts a :class:`HeaderCounts` in every page's
context; the notifications socket renders one afresh when they change.

The counts are computed only if a template reads them, once per request.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from accounts.models import User
from notifications.selectors.notices import unread_count

_counts: dict[str, Callable[[HeaderCounts], Any]] = {}


def add_count(name: str, read: Callable[[HeaderCounts], Any]) -> None:
    """Have the header show ``name``, read by ``read(counts)`` on first use (it may read
    the member, ``counts.user``, and the other counts: one query may serve two).
    Registered in the app's ``AppConfig.ready()``."""
    _counts[name] = read


class HeaderCounts:
    """``unread`` (notifications) and the counts the apps added (:func:`add_count`),
    each read on first use, once."""

    def __init__(self, user: User) -> None:
        self.user = user

    @cached_property
    def unread(self) -> int:
        return unread_count(self.user)

    def __getattr__(self, name: str) -> Any:
        read = _counts.get(name)
        if read is None:
            raise AttributeError(name)
        value = read(self)
        self.__dict__[name] = value  # read once: found here from now on
        return value
