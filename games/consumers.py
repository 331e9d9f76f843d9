"""The live game: one websocket per watcher, one Channels group per game.

Group messages say only that something changed (:mod:`games.live`). Each connection
then renders what its own user may see, with the page's own partials
(:mod:`games.rendering`), and sends the HTML for htmx's websocket extension to swap in.
Moves do not come through the socket: they are HTTP requests to the views.

Any signed-in member may watch a game (a spectator sees no rack); visitors are refused.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.models import User
from games.live import game_group
from games.models import Game
from games.rendering import render_building_notice, render_live_fragments


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """``ws/games/<game_id>/``: pushes the game's live partials to one user."""

    game_id: int
    group: str | None = None
    # The newest version this connection has rendered: older or repeated news is skipped.
    rendered_version = -1

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        exists = await database_sync_to_async(_game_exists)(self.game_id)
        if user is None or not user.is_authenticated or not exists:
            # Closing before accepting refuses the handshake (HTTP 403).
            await self.close()
            return
        self.user: User = user
        self.group = game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # A reconnecting browser may have missed pushes: start from the current state.
        await self._send_game()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves go by HTTP; anything the browser sends here is ignored."""

    async def game_changed(self, event: dict[str, Any]) -> None:
        if event.get("version", 0) > self.rendered_version:
            await self._send_game()

    async def game_building(self, event: dict[str, Any]) -> None:
        seat = event.get("seat")
        html: str = await database_sync_to_async(_render_building)(self.game_id, self.user, seat)
        if html:
            await self.send(text_data=html)

    async def _send_game(self) -> None:
        rendered: tuple[int, str] | None = await database_sync_to_async(_render_game)(
            self.game_id, self.user
        )
        if rendered is None:
            return
        version, html = rendered
        self.rendered_version = max(self.rendered_version, version)
        await self.send(text_data=html)


def _game_exists(game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exists()


def _render_game(game_id: int, user: User) -> tuple[int, str] | None:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    return game.version, render_live_fragments(game, user)


def _render_building(game_id: int, user: User, seat: object) -> str:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not isinstance(seat, int) or game.current_seat != seat:
        return ""
    if game.table.seats.filter(number=seat, user=user, kind="player").exists():
        # The builder's own other tabs: show them the draft itself, not a notice.
        return render_live_fragments(game, user)
    return render_building_notice(game, seat)
