"""Pushing "this game changed" to the browsers watching it (Channels groups).

One group per game, ``game-<id>``. A group message never carries game content: only
``{"type": "game.changed", "version": V}``, ``{"type": "game.building", "seat": n}`` or
``{"type": "game.clock"}`` (the turn's deadline moved: a vacation began or ended, a bot
took a seat). Each consumer renders what its own user may see (:mod:`games.consumers`),
so nothing secret ever travels through Redis.

One group per table's chat, ``table-chat-<id>``, joined by the game pages of the table
and by its table page: its only message is ``{"type": "chat.changed"}``; each connection
then renders the chat its own user may read (mutes, the spectators' side talk).

One group per member, ``user-<id>``, for their header (the "your move" count, unread
notifications): its only message is ``{"type": "notifications.changed"}``.

The receivers of the facts of play (:mod:`games.receivers`) call these functions after
commit: a push announces a state that is already committed, so a consumer that reloads
the game finds it.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading

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


def chat_group(table_id: int) -> str:
    """The Channels group of the pages showing a table's chat."""
    return f"table-chat-{table_id}"


def publish_chat(table_id: int) -> None:
    """Tell the pages showing a table's chat that it changed (no content)."""
    _send_all([(chat_group(table_id), {"type": "chat.changed"})])


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
    """:func:`publish_changed` and :func:`publish_players`: a move ended a turn. The
    game's news goes first, before the players are looked up."""
    publish_changed(game_id, version)
    publish_players(table_id)


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
    """Hand the messages to this process's :class:`Publisher`; returns at once."""
    if messages:
        publisher.publish(messages)


Messages = list[tuple[str, dict[str, object]]]


class Publisher:
    """Sends group messages from a thread of its own, in the order they were handed in.

    A move is announced after commit (its signals' receivers), in the thread that
    committed it: a web request, a Celery task. Sending there would make the request
    wait for Redis, and under daphne for the server's event loop, which is busy
    delivering the very pushes the move caused; so the thread only queues the messages
    and goes on to answer. One event loop per process (a new one after a fork) sends
    them one after another, over connections it keeps.

    Nothing depends on a push arriving: a page that misses one resyncs when its socket
    reconnects. Still, what is queued is sent before the process exits (:meth:`flush`
    runs at exit), so a management command's moves are announced too.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[Messages] | None = None

    def publish(self, messages: Messages) -> None:
        loop, queue = self._started()
        loop.call_soon_threadsafe(queue.put_nowait, messages)

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until everything queued so far has been sent (at most ``timeout`` s)."""
        with self._lock:
            loop, queue = self._loop, self._queue
            if loop is None or queue is None or self._pid != os.getpid():
                return
        try:
            asyncio.run_coroutine_threadsafe(queue.join(), loop).result(timeout)
        except Exception:
            logger.warning("some pushes were still unsent after %.0f s", timeout)

    def _started(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[Messages]]:
        with self._lock:
            # A forked child (a Celery worker process) has the parent's objects but
            # not its thread: it starts its own.
            if self._loop is None or self._queue is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                queue: asyncio.Queue[Messages] = asyncio.Queue()
                threading.Thread(
                    target=self._run, args=(loop, queue), name="live-publisher", daemon=True
                ).start()
                self._loop, self._queue, self._pid = loop, queue, os.getpid()
            return self._loop, self._queue

    @staticmethod
    def _run(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[Messages]) -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(_deliver(queue))


async def _deliver(queue: asyncio.Queue[Messages]) -> None:
    while True:
        messages = await queue.get()
        try:
            layer = get_channel_layer()
            for group, message in messages:
                try:
                    if layer is not None:
                        await layer.group_send(group, message)
                except Exception:
                    # The change is committed whatever happens here; pages resync on
                    # reconnect.
                    logger.exception("could not notify the group %s", group)
        finally:
            queue.task_done()


publisher = Publisher()
atexit.register(publisher.flush)
