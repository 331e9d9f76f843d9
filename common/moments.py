"""How a moment is written to a member in their notices, mails and pages: one format,
the day not padded, the zone named ("Tue 8 Dec, 23:23 CET"), in the current time zone
(the member's, when a page or a notice is made for them; else the site's)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import dateformat, timezone

MOMENT_FORMAT = "D j M, H:i T"
"""Django's date format of :func:`when`; templates write it with the ``when`` filter."""


def when(moment: datetime) -> str:
    """A moment in words, in the current time zone, which it names.

    >>> from datetime import UTC
    >>> from django.utils import timezone
    >>> with timezone.override("Europe/Berlin"):
    ...     when(datetime(2026, 12, 8, 22, 23, tzinfo=UTC))
    'Tue 8 Dec, 23:23 CET'
    """
    return dateformat.format(timezone.localtime(moment), MOMENT_FORMAT)


def when_in(moment: datetime, zone: ZoneInfo) -> str:
    """A moment in words in ``zone``, which it names: what binds someone elsewhere (the
    end of the weekend of the player to move, in their zone).

    >>> from datetime import UTC
    >>> when_in(datetime(2026, 12, 6, 15, tzinfo=UTC), ZoneInfo("Asia/Tokyo"))
    'Mon 7 Dec, 00:00 JST'
    """
    return dateformat.format(moment.astimezone(zone), MOMENT_FORMAT)
