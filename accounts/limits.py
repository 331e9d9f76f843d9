"""Rate limits: how often a member or an address may sign up, ask for a password reset,
open a table or a websocket (numbers in ``settings.RATE_LIMITS`` and ``WEBSOCKETS_*``).

Requests are counted by django-ratelimit in the default cache (Redis); a request past its
limit raises ``Ratelimited`` and ``accounts.views.rate_limited`` answers 429. Websockets
are counted as open connections (slots) in Redis, taken in ``connect``, refreshed by the
consumers' heartbeat and given back in ``disconnect`` (:class:`SocketSlots`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any

import redis
from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited
from redis.commands.core import Script
from redis.exceptions import RedisError

View = Callable[..., Any]
logger = logging.getLogger(__name__)


def _rate(name: str) -> Callable[[str, HttpRequest], str]:
    # Read at request time, so a deployment or a test can change the numbers.
    return lambda group, request: settings.RATE_LIMITS[name]


def limit_posts(name: str, key: str) -> Callable[[View], View]:
    """Past ``RATE_LIMITS[name]`` POSTs per ``key`` ("ip": the address, "user": the
    member), the view is not called and the request gets the 429 page."""

    def decorator(view: View) -> View:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method == "POST" and _counted_over(request, name, key):
                raise Ratelimited()
            return view(request, *args, **kwargs)

        return limited

    return decorator


def over_limit(request: HttpRequest, name: str, value: str) -> bool:
    """Count one more of ``name`` for ``value`` (an email address, say); whether that is
    past ``RATE_LIMITS[name]``."""
    return _counted_over(request, name, lambda group, request: value)


def _counted_over(request: HttpRequest, name: str, key: Any) -> bool:
    try:
        limited: bool = is_ratelimited(
            request, group=name, key=key, rate=_rate(name), increment=True
        )
    except RedisError:
        # The counters are out of reach for a moment (Redis restarting): serve the
        # request rather than refuse everyone.
        logger.warning("Rate limit %s not counted: the cache is unavailable", name)
        return False
    return limited


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
