"""Open websockets per member and per address, counted in Redis as slots.

A consumer that would let anyone open connections without end holds a slot of its
member's and of its address's (:class:`SlotConsumer`; numbers in ``WEBSOCKETS_*`` and
``WEBSOCKET_SLOT_SECONDS``): taken in ``connect``, refreshed by its heartbeat, given back
in ``disconnect`` (:class:`SocketSlots`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

import redis
from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from redis.commands.core import Script
from redis.exceptions import RedisError

from common.zones import ZONE_COOKIE, zone_from_cookie

logger = logging.getLogger(__name__)

UTC = ZoneInfo("UTC")
"""The site's zone (``TIME_ZONE``): a visitor's whose browser named none."""


class SocketSlots:
    """Open websockets per member and per address, counted in Redis.

    Each count is a sorted set (``ws-slots:member:<id>``, ``ws-slots:address:<address>``)
    with one entry per open socket (its channel name), scored with the moment it stops
    counting. A consumer takes its entries before it accepts, refreshes them with its
    heartbeat (every third of ``WEBSOCKET_SLOT_SECONDS``) and removes them when it closes.
    A process that stops without closing its sockets (daphne drops them on SIGTERM
    without running ``disconnect``; SIGKILL runs nothing) stops refreshing, so its
    entries lapse within ``WEBSOCKET_SLOT_SECONDS``: each count first prunes the lapsed
    ones. A refused attempt writes nothing, so retrying extends nothing.

    All sockets of a process share one Redis client (one small pool), not a connection
    each. The methods block on Redis: consumers run them off the event loop.
    """

    # Atomic, so two sockets opened at once on two nodes cannot both take the last
    # slot. KEYS: the member's and the address's sets; ARGV: the connection, now, the
    # moment its entries lapse, the key's lifetime (s), the member's and the address's
    # limits. An entry of the same connection already there counts as taken.
    _TAKE = """
    for i, key in ipairs(KEYS) do
        redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
        local held = redis.call('ZCARD', key)
        if redis.call('ZSCORE', key, ARGV[1]) then held = held - 1 end
        if held >= tonumber(ARGV[4 + i]) then return 0 end
    end
    for _, key in ipairs(KEYS) do
        redis.call('ZADD', key, ARGV[3], ARGV[1])
        redis.call('EXPIRE', key, ARGV[4])
    end
    return 1
    """

    @staticmethod
    def _keys(user_id: int, address: str) -> list[str]:
        prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
        return [f"{prefix}:ws-slots:member:{user_id}", f"{prefix}:ws-slots:address:{address}"]

    @staticmethod
    def seconds() -> float:
        """How long a socket's slot counts after its last heartbeat."""
        return float(settings.WEBSOCKET_SLOT_SECONDS)

    @classmethod
    def take(cls, user_id: int, address: str, connection: str) -> bool:
        """Take a slot of each for ``connection``; ``False`` (and nothing written) when
        either is full."""
        now = time.time()
        limits = (settings.WEBSOCKETS_PER_MEMBER, settings.WEBSOCKETS_PER_ADDRESS)
        arguments = (connection, now, now + cls.seconds(), cls._key_lifetime(), *limits)
        try:
            take = _script(settings.REDIS_URL, cls._TAKE)
            taken = take(keys=cls._keys(user_id, address), args=arguments)
        except RedisError:
            # As for the rate limits: Redis out of reach for a moment refuses no one.
            logger.warning("Websocket slots of member %s not counted: Redis unavailable", user_id)
            return True
        return bool(taken)

    @classmethod
    def refresh(cls, user_id: int, address: str, connection: str) -> None:
        """``connection`` is still open: its slots count for another
        ``WEBSOCKET_SLOT_SECONDS``."""
        until = time.time() + cls.seconds()
        try:
            pipe = _redis_client().pipeline()
            for key in cls._keys(user_id, address):
                pipe.zadd(key, {connection: until})
                pipe.expire(key, cls._key_lifetime())
            pipe.execute()
        except RedisError:
            logger.warning("Websocket slots of member %s not refreshed: Redis unavailable", user_id)

    @classmethod
    def give_back(cls, user_id: int, address: str, connection: str) -> None:
        try:
            pipe = _redis_client().pipeline()
            for key in cls._keys(user_id, address):
                pipe.zrem(key, connection)
            pipe.execute()
        except RedisError:
            # Not given back: the entries lapse by themselves.
            logger.warning("Websocket slots of member %s not given back: no Redis", user_id)

    @classmethod
    def held(cls, user_id: int, address: str) -> tuple[int, int]:
        """The member's and the address's slots that count now."""
        now = time.time()
        pipe = _redis_client().pipeline()
        for key in cls._keys(user_id, address):
            pipe.zcount(key, now, "+inf")
        member, at_address = pipe.execute()
        return int(member), int(at_address)

    @classmethod
    def _key_lifetime(cls) -> int:
        # The whole set goes once its newest entry has lapsed: nothing stays behind a
        # member who left.
        return math.ceil(cls.seconds()) + 1


@lru_cache(maxsize=4)
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


@lru_cache(maxsize=4)
def _script(url: str, source: str) -> Script:
    """``source`` loaded once into Redis, then called by its hash."""
    return _redis(url).register_script(source)


def _redis_client() -> redis.Redis:
    """This process's client (its pool is shared by all its threads and sockets)."""
    return _redis(settings.REDIS_URL)


class SlotConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A consumer that holds one of its member's and its address's websocket slots
    (:class:`SocketSlots`) while it is open: past the limit a new socket
    is refused, so no member or address can open connections without end.

    Its heartbeat refreshes the slots while the socket is open. A process that stops
    without running ``disconnect`` (daphne on SIGTERM, any process on SIGKILL) beats no
    more, and its slots lapse by themselves.
    """

    slot: tuple[int, str] | None = None
    heartbeat: asyncio.Task[None] | None = None

    async def take_slot(self, user: AbstractBaseUser) -> bool:
        client = self.scope.get("client") or ("unknown", 0)
        slot = (user.pk, str(client[0]))
        taken = await sync_to_async(SocketSlots.take, thread_sensitive=False)(
            *slot, self.channel_name
        )
        if not taken:
            return False
        self.slot = slot
        self.heartbeat = asyncio.create_task(self._beat_while_open())
        return True

    def heartbeat_seconds(self) -> float:
        """Well within a slot's lifetime, so an open socket's slots never lapse."""
        return SocketSlots.seconds() / 3

    async def _beat_while_open(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds())
            await self.beat()

    async def beat(self) -> None:
        """The socket is still open."""
        if self.slot is not None:
            await sync_to_async(SocketSlots.refresh, thread_sensitive=False)(
                *self.slot, self.channel_name
            )

    async def give_slot_back(self) -> None:
        if self.heartbeat is not None:
            heartbeat, self.heartbeat = self.heartbeat, None
            heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heartbeat
        if self.slot is not None:
            slot, self.slot = self.slot, None
            await sync_to_async(SocketSlots.give_back, thread_sensitive=False)(
                *slot, self.channel_name
            )


def reader_zone(scope: Mapping[str, Any]) -> ZoneInfo:
    """The zone a socket's reader sees times in, as their page had it: the signed-in
    member's (their profile), else the one their browser named in the ``tz`` cookie
    (:func:`common.zones.zone_from_cookie`), else UTC.

    >>> reader_zone({"cookies": {"tz": "Europe%2FLisbon"}}), reader_zone({"cookies": {}})
    (zoneinfo.ZoneInfo(key='Europe/Lisbon'), zoneinfo.ZoneInfo(key='UTC'))
    """
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        zone = getattr(user, "zone", None)
        if isinstance(zone, ZoneInfo):
            return zone
    cookies = scope.get("cookies") or {}
    return zone_from_cookie(cookies.get(ZONE_COOKIE)) or UTC
