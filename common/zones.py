"""The time zone a reader sees times in.

A member's zone is their profile's (``User.zone``). A visitor has none, so the pages'
script writes the browser's own zone into the ``tz`` cookie (:data:`COOKIE`); the pages'
middleware and the sockets (:func:`reader_zone`, from the scope's cookies) read it through
:func:`zone_from_cookie`, so a page and the pushes that follow it agree.

>>> zone_from_cookie("Asia%2FTokyo"), zone_from_cookie("../../etc/passwd")
(zoneinfo.ZoneInfo(key='Asia/Tokyo'), None)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo, available_timezones

COOKIE = "tz"
"""The cookie in which a visitor's browser names its time zone (an IANA name)."""

UTC = ZoneInfo("UTC")
"""The site's zone (``TIME_ZONE``): a visitor's whose browser named none."""

LONGEST_NAME = 64
"""No IANA name is longer (``User.time_zone``'s length too)."""


@cache
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_from_cookie(value: str | None) -> ZoneInfo | None:
    """The zone the ``tz`` cookie names, or ``None`` when it names none the IANA database
    knows. The cookie is the browser's word, so anything may come: only a known name is
    handed to ``ZoneInfo``, which would otherwise read a file named by it. Scripts write it
    with ``encodeURIComponent`` (``Asia%2FTokyo``); a raw ``Asia/Tokyo`` is read too."""
    if not value or len(value) > 3 * LONGEST_NAME:
        return None
    name = unquote(value).strip()
    if name not in _known():
        return None
    return ZoneInfo(name)


def reader_zone(scope: Mapping[str, Any]) -> ZoneInfo:
    """The zone of a websocket's reader: the signed-in member's (their profile), else the
    one their browser named in the ``tz`` cookie, else UTC, as their page had it.

    >>> reader_zone({"cookies": {"tz": "Europe%2FLisbon"}}), reader_zone({"cookies": {}})
    (zoneinfo.ZoneInfo(key='Europe/Lisbon'), zoneinfo.ZoneInfo(key='UTC'))
    """
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        zone = getattr(user, "zone", None)
        if isinstance(zone, ZoneInfo):
            return zone
    cookies = scope.get("cookies") or {}
    return zone_from_cookie(cookies.get(COOKIE)) or UTC
