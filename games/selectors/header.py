"""What every page's header shows a signed-in member: their move count, the game to turn
to next and their unread notifications (:mod:`games.context_processors` puts a
:class:`HeaderCounts` in every page's context; the notifications socket renders one
afresh when they change).

The counts are computed only if a template reads them, once per request.
"""

from __future__ import annotations

from functools import cached_property

from accounts.models import User
from games.selectors.notifications import unread_count
from games.selectors.your_move import next_your_move, your_move_ids


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
