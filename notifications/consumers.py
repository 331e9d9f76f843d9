"""``ws/notifications/`` (:class:`NotificationConsumer`) keeps a member's header up to
date: their unread notifications and the counts other apps add (games: the "your move"
count), from their own group ``user-<id>``.

``notifications.changed`` carries nothing: each connection reads the counts for its own
user. ``your_move.changed`` carries the member's own "your move" count and the game to
turn to next (:func:`games.live.publish_counts` sends it only to the members whose count
a turn changed): the header shows it as it comes, without a query. Only the member's own
group hears it, and it says nothing they could not read on their own page.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from accounts.models import User
from common.publish import user_group
from common.sockets import SlotConsumer
from notifications.selectors.header import HeaderCounts

HEADER_TEMPLATE = "notifications/_header.html"


class NotificationConsumer(SlotConsumer):
    """``ws/notifications/``: pushes a member's header counts whenever they change."""

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or not await self.take_slot(user):
            await self.close()
            return
        self.user: User = user
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_counts()

    async def disconnect(self, code: int) -> None:
        await self.give_slot_back()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is read from the browser."""

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        await self._send_counts()

    async def your_move_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_your_move(event.get("count", 0), event.get("next")))

    async def _send_counts(self) -> None:
        html: str = await database_sync_to_async(render_header_counts)(self.user)
        await self.send(text_data=html)


def render_header_counts(user: User) -> str:
    """The header's counts for ``user``, ready for out-of-band swaps."""
    return render_to_string(HEADER_TEMPLATE, {"header_counts": HeaderCounts(user), "oob": True})


def render_your_move(count: int, next_game_id: int | None) -> str:
    """The header's "your move" count as pushed, ready for an out-of-band swap."""
    counts = {"your_move": count, "next_game_id": next_game_id}
    return render_to_string(HEADER_TEMPLATE, {"header_counts": counts, "oob": True, "part": "move"})
