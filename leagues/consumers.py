"""Live standings: one Channels group per season, ``season-<id>``.

A group message says only that the season changed (``{"type": "season.changed"}``):
:data:`leagues.signals.season_changed`, once per season per transaction (a game of it
ended, a result was superseded, a player withdrew or was substituted, fixtures were
settled or moved, the season closed: :mod:`leagues.receivers`). Each open
standings page then fetches its tables again with htmx, through the view, which checks
again who may see them: the socket sends one element whose ``hx-trigger="load"`` makes
the page ask. No standings travel through Redis.

Any signed-in member may watch a public club's season; a private club's, its members
only. Visitors read the page without a socket (they reload it).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from common.publish import publisher
from common.sockets import SlotConsumer
from leagues.models import Season
from leagues.selectors.standings import can_view

SEASON_CHANGED: dict[str, object] = {"type": "season.changed"}


def season_group(season_id: int) -> str:
    """The Channels group of a season's open standings pages."""
    return f"season-{season_id}"


def publish_season_changed(season_id: int) -> None:
    """Tell a season's open standings pages to fetch their tables again."""
    publisher.publish([(season_group(season_id), SEASON_CHANGED)])


def _watchable(season_id: int, user: Any) -> Season | None:
    season = Season.objects.select_related("league__club").filter(pk=season_id).first()
    if season is None or not can_view(user, season.league.club):
        return None
    return season


class SeasonConsumer(SlotConsumer):
    """``ws/leagues/seasons/<season_id>/``: tells the page when to refresh."""

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        season_id = self.scope["url_route"]["kwargs"]["season_id"]
        if user is None or not user.is_authenticated:
            await self.close()
            return
        season = await database_sync_to_async(_watchable)(season_id, user)
        if season is None or not await self.take_slot(user):
            await self.close()
            return
        self.season = season
        self.group = season_group(season.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.give_slot_back()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is read from the browser."""

    async def season_changed(self, event: dict[str, Any]) -> None:
        html = render_to_string(
            "leagues/standings.html#refresh",
            {
                "season": self.season,
                "league": self.season.league,
                "club": self.season.league.club,
                "oob": True,
            },
        )
        await self.send(text_data=html)
