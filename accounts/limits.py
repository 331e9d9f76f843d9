"""Rate limits: how often a member or an address may sign up, ask for a password reset,
open a table or a websocket (numbers in ``settings.RATE_LIMITS`` and ``WEBSOCKETS_*``).

Requests are counted by django-ratelimit in the default cache (Redis); a request past its
limit raises ``Ratelimited`` and ``accounts.views.rate_limited`` answers 429. Websockets
are counted as open connections (slots) in the same cache, taken in ``connect`` and given
back in ``disconnect``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited
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
    """Open websockets per member and per address, counted in the cache.

    A connection takes a slot of its member and of its address before it is accepted and
    gives them back when it closes. Each counter expires WEBSOCKET_SLOT_SECONDS after the
    last connection took a slot, so slots held by a process that died are freed by then.
    The methods block on Redis: consumers run them off the event loop, in threads of
    their own rather than the one their database work queues on.
    """

    @staticmethod
    def _keys(user_id: int, address: str) -> list[tuple[str, int]]:
        return [
            (f"ws-slots:member:{user_id}", settings.WEBSOCKETS_PER_MEMBER),
            (f"ws-slots:address:{address}", settings.WEBSOCKETS_PER_ADDRESS),
        ]

    @classmethod
    def take(cls, user_id: int, address: str) -> bool:
        """Take a slot of each; ``False`` (and nothing taken) when either is full."""
        seconds = settings.WEBSOCKET_SLOT_SECONDS
        taken: list[str] = []
        for key, most in cls._keys(user_id, address):
            count = 1
            if not cache.add(key, 1, seconds):
                try:
                    count = cache.incr(key)
                except ValueError:  # expired since: this is the first slot again
                    cache.set(key, 1, seconds)
                cache.touch(key, seconds)
            taken.append(key)
            if count > most:
                cls._give_back(taken)
                return False
        return True

    @classmethod
    def give_back(cls, user_id: int, address: str) -> None:
        cls._give_back([key for key, _ in cls._keys(user_id, address)])

    @staticmethod
    def _give_back(keys: list[str]) -> None:
        for key in keys:
            try:
                if cache.decr(key) < 0:
                    # The counter expired and came back while this socket was open.
                    cache.set(key, 0, settings.WEBSOCKET_SLOT_SECONDS)
            except ValueError:
                pass  # expired meanwhile: nothing to give back
