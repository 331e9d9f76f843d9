"""Who has a game's page open right now, kept in Redis.

Each open game page (a websocket, :class:`games.consumers.GameConsumer`) is a member of
a sorted set per game and member, ``presence:game:<game>:user:<user>``, scored with the
moment it stops counting. The consumer refreshes its entry while it is connected and
removes it when it closes; an entry a crashed server left behind simply expires. So
"is this player looking at this game?" is one ``ZCOUNT`` of live entries: the emails
about a game are not sent to a player who is looking at it.

Redis being down must not stop a move or an email: reads then answer "not watching"
and writes do nothing, and both log the error.
"""

from __future__ import annotations

import logging
import time
from functools import lru_cache

import redis
from django.conf import settings

from games.conf import presence_seconds

logger = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def _client() -> redis.Redis:
    return _redis(settings.REDIS_URL)


def presence_key(game_id: int, user_id: int) -> str:
    return f"presence:game:{game_id}:user:{user_id}"


def mark_present(game_id: int, user_id: int, connection: str) -> None:
    """Record (or refresh) that ``connection`` shows ``game_id`` to ``user_id``."""
    seconds = presence_seconds()
    key = presence_key(game_id, user_id)
    try:
        pipe = _client().pipeline()
        pipe.zadd(key, {connection: time.time() + seconds})
        pipe.expire(key, int(seconds) + 1)
        pipe.execute()
    except redis.RedisError:
        logger.exception("could not record a page of game %s", game_id)


def mark_absent(game_id: int, user_id: int, connection: str) -> None:
    """``connection`` closed."""
    try:
        _client().zrem(presence_key(game_id, user_id), connection)
    except redis.RedisError:
        logger.exception("could not forget a page of game %s", game_id)


def is_watching(game_id: int, user_id: int) -> bool:
    """Whether ``user_id`` has a page of ``game_id`` open at this moment."""
    try:
        return bool(_client().zcount(presence_key(game_id, user_id), time.time(), "+inf"))
    except redis.RedisError:
        logger.exception("could not tell who watches game %s", game_id)
        return False
