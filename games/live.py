"""Pushing "this game changed" to the browsers watching it (Channels groups).

One group per game, ``game-<id>``. A group message never carries game content: only
``{"type": "game.changed", "version": V}``, ``{"type": "game.building", "seat": n}`` or
``{"type": "game.clock"}`` (the turn's deadline moved: a vacation began or ended, a bot
took a seat). Each consumer renders what its own user may see (:mod:`games.consumers`),
so nothing secret ever travels through Redis.

One group per member, ``user-<id>``, for their header (the "your move" count, unread
notifications): its only message is ``{"type": "notifications.changed"}``.

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


def publish_clock(game_id: int) -> None:
    """Tell the game's watchers that its clock changed without a move."""
    _send(game_id, {"type": "game.clock"})


def user_group(user_id: int) -> str:
    """The Channels group of a member's open pages (their header)."""
    return f"user-{user_id}"


def publish_user(user_id: int | None) -> None:
    """Tell a member's pages that their notifications or their games' turns changed."""
    if user_id is not None:
        _send_all([(user_group(user_id), USER_CHANGED)])


def publish_players(table_id: int) -> None:
    """Tell every member playing at a table (a turn passed: whose move it is changed)."""
    _send_all(_players(table_id))


def publish_turn(game_id: int, version: int, table_id: int) -> None:
    """:func:`publish_changed` and :func:`publish_players` at once: a move ended a turn."""
    changed = {"type": "game.changed", "version": version}
    _send_all([(game_group(game_id), changed), *_players(table_id)])


USER_CHANGED: dict[str, object] = {"type": "notifications.changed"}


def _players(table_id: int) -> list[tuple[str, dict[str, object]]]:
    from games.models import Seat

    players = Seat.objects.filter(table_id=table_id, kind=Seat.Kind.PLAYER)
    return [
        (user_group(user_id), USER_CHANGED) for user_id in players.values_list("user_id", flat=True)
    ]


def _send(game_id: int, message: dict[str, object]) -> None:
    _send_all([(game_group(game_id), message)])


def _send_all(messages: list[tuple[str, dict[str, object]]]) -> None:
    """Send each message to its group, all from one event loop: a loop of its own costs
    a Redis connection, which would be most of the time of a push."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send() -> None:
        for group, message in messages:
            try:
                await layer.group_send(group, message)
            except Exception:
                # The change is committed whatever happens here; pages resync on reconnect.
                logger.exception("could not notify the group %s", group)

    try:
        async_to_sync(send)()
    except Exception:
        logger.exception("could not notify %s groups", len(messages))
