"""Pushing "this game changed" to the browsers watching it (Channels groups).

One group per game, ``game-<id>``. A group message never carries game content: only
``{"type": "game.changed", "version": V}``, ``{"type": "game.building", "seat": n}`` or
``{"type": "game.clock"}`` (the turn's deadline moved: a vacation began or ended, a bot
took a seat). Each consumer renders what its own user may see (:mod:`games.consumers`),
so nothing secret ever travels through Redis.

One group per table's chat, ``table-chat-<id>``, joined by the game pages of the table
and by its table page: its only message is ``{"type": "chat.changed"}``; each connection
then renders the chat its own user may read (mutes, the spectators' side talk).

A turn that passes tells its players' headers through their own groups
(:func:`common.publish.publish_user`). Every message goes out through this process's
:class:`common.publish.Publisher`.

The receivers of the facts of play (:mod:`games.receivers`) call these functions after
commit: a push announces a state that is already committed, so a consumer that reloads
the game finds it.
"""

from __future__ import annotations

from common.publish import USER_CHANGED, Messages, send_all, user_group


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


def chat_group(table_id: int) -> str:
    """The Channels group of the pages showing a table's chat."""
    return f"table-chat-{table_id}"


def publish_chat(table_id: int) -> None:
    """Tell the pages showing a table's chat that it changed (no content)."""
    send_all([(chat_group(table_id), {"type": "chat.changed"})])


def publish_players(table_id: int) -> None:
    """Tell every member playing at a table (a turn passed: whose move it is changed)."""
    send_all(_players(table_id))


def publish_turn(game_id: int, version: int, table_id: int) -> None:
    """:func:`publish_changed` and :func:`publish_players`: a move ended a turn. The
    game's news goes first, before the players are looked up."""
    publish_changed(game_id, version)
    publish_players(table_id)


def _players(table_id: int) -> Messages:
    from games.models import Seat

    players = Seat.objects.filter(table_id=table_id, kind=Seat.Kind.PLAYER)
    return [
        (user_group(user_id), USER_CHANGED) for user_id in players.values_list("user_id", flat=True)
    ]


def _send(game_id: int, message: dict[str, object]) -> None:
    send_all([(game_group(game_id), message)])
