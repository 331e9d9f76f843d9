"""Rate limits: how often a member or an address may sign up, ask for a password reset
or open a table (numbers in ``settings.RATE_LIMITS``).

Requests are counted by django-ratelimit in the default cache (Redis); a request past its
limit raises ``Ratelimited`` and ``accounts.views.rate_limited`` answers 429. Open
websockets are counted apart, as slots (:mod:`common.sockets`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage, is_ratelimited
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


def wait_after(request: HttpRequest, name: str, key: str) -> int | None:
    """Count one more of ``name`` per ``key`` (as :func:`limit_posts`); past
    ``RATE_LIMITS[name]``, how many seconds until the count starts again (a page can say
    when to retry), else ``None``."""
    try:
        usage = get_usage(request, group=name, key=key, rate=_rate(name), increment=True)
    except RedisError:
        logger.warning("Rate limit %s not counted: the cache is unavailable", name)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


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
