"""A visitor's time zone, as their browser tells it: the cookie ``tz`` that
``static/js/visitor-zone.js`` sets to ``Intl.DateTimeFormat().resolvedOptions().timeZone``.

A signed-in member's zone is their profile's (``User.zone``); a visitor has no profile,
so their pages and sockets read this cookie. It is whatever the browser sent: only a
name of the IANA database is taken, anything else is no zone (the site's).
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import unquote
from zoneinfo import ZoneInfo, available_timezones

ZONE_COOKIE = "tz"
"""The cookie's name: short, as it travels with every request."""

LONGEST_NAME = 64
"""No IANA name is longer (the longest, ``America/Argentina/ComodRivadavia``, has 32)."""

NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})
"""Files of a system's zone database that name no zone of their own: ``localtime`` is
the server's zone, whatever it is."""


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(available_timezones()) - NOT_ZONES


def zone_from_cookie(value: str | None) -> ZoneInfo | None:
    """The zone a ``tz`` cookie names, or ``None`` for no cookie or no known zone.

    Only a name the IANA database lists is taken (never a path, ``localtime`` or an
    offset a browser never sends); a value percent-encoded by a script is read decoded.

    >>> zone_from_cookie("Asia/Tokyo")
    zoneinfo.ZoneInfo(key='Asia/Tokyo')
    >>> zone_from_cookie("Europe%2FLisbon")
    zoneinfo.ZoneInfo(key='Europe/Lisbon')
    >>> zone_from_cookie("../../etc/passwd") is None, zone_from_cookie("") is None
    (True, True)
    """
    if not value or len(value) > LONGEST_NAME * 3:
        return None
    name = unquote(value).strip()
    if len(name) > LONGEST_NAME or name not in _known():
        return None
    return ZoneInfo(name)
