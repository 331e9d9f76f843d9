"""Group messages to the browsers, sent from a thread of its own (Channels groups).

A group message to many never carries content: it says only that something changed, and
each consumer then renders what its own user may see, so nothing secret ever travels
through Redis (a member's own group may be told their own count). Each app names its own
groups and messages (a game's in :mod:`games.live`) and hands them to :func:`send_all`.

One group per member, ``user-<id>``, for their header (the "your move" count, unread
notifications): ``{"type": "notifications.changed"}`` (:func:`publish_user`), and games'
``your_move.changed`` with the member's own count (:func:`games.live.publish_counts`).

The receivers of the apps' facts call these functions after commit: a push announces a
state that is already committed, so a consumer that reloads it finds it.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

Messages = list[tuple[str, dict[str, object]]]
"""Group messages: each a group's name and what it is sent."""

USER_CHANGED: dict[str, object] = {"type": "notifications.changed"}


def user_group(user_id: int) -> str:
    """The Channels group of a member's open pages (their header)."""
    return f"user-{user_id}"


def publish_user(user_id: int | None) -> None:
    """Tell a member's pages that their notifications or their games' turns changed."""
    if user_id is not None:
        send_all([(user_group(user_id), USER_CHANGED)])


def send_all(messages: Messages) -> None:
    """Hand the messages to this process's :class:`Publisher`; returns at once."""
    if messages:
        publisher.publish(messages)


class Publisher:
    """Sends group messages from a thread of its own, in the order they were handed in.

    A fact (a move, say) is announced after commit (its signals' receivers), in the thread that
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
