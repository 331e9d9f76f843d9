"""Pushing "this game changed" to the browsers watching it (Channels groups).

One group per game, ``game-<id>``. A group message never carries game content: only
``{"type": "game.changed", "version": V}`` or ``{"type": "game.building", "seat": n}``.
Each consumer renders what its own user may see (:mod:`games.consumers`), so nothing
secret ever travels through Redis.

The services call these functions from ``transaction.on_commit``: a push announces a
state that is already committed, so a consumer that reloads the game finds it.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    """The Channels group of a game's watchers."""
    return f"game-{game_id}"


def publish_changed(game_id: int, version: int) -> None:
    """Tell the game's watchers that it is now at ``version``."""
    _send(game_id, {"type": "game.changed", "version": version})


def publish_building(game_id: int, seat: int) -> None:
    """Tell the game's watchers that ``seat`` is working on a move (no content)."""
    _send(game_id, {"type": "game.building", "seat": seat})


def _send(game_id: int, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(game_group(game_id), message)
    except Exception:
        # The move is committed whatever happens here; watchers resync on reconnect.
        logger.exception("could not notify the watchers of game %s", game_id)
