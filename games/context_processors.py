"""What every page's header shows a signed-in member: their move count and unread
notifications (``settings.TEMPLATES`` lists :func:`header_counts`).

The counts are computed only if a template reads them, once per request.
"""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest

from accounts.models import User
from games.services.notifications import unread_count
from games.services.your_move import next_your_move, your_move_ids


class HeaderCounts:
    """``your_move`` (games awaiting the member's move), ``unread`` (notifications)
    and ``next_game_id`` (the game to turn to first), each queried on first use."""

    def __init__(self, user: User) -> None:
        self.user = user

    @cached_property
    def _your_move_ids(self) -> list[int]:
        # One query serves the count and the next game (the header shows both).
        return your_move_ids(self.user)

    @cached_property
    def your_move(self) -> int:
        return len(self._your_move_ids)

    @cached_property
    def unread(self) -> int:
        return unread_count(self.user)

    @cached_property
    def next_game_id(self) -> int | None:
        return next_your_move(self.user, ids=self._your_move_ids)


def header_counts(request: HttpRequest) -> dict[str, HeaderCounts | None]:
    """``header_counts``: a :class:`HeaderCounts` for a member, ``None`` for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"header_counts": None}
    return {"header_counts": HeaderCounts(user)}
