"""How long ago something happened, in the words every page uses."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.timesince import timesince

JUST_NOW = timedelta(minutes=1)


def ago(when: datetime, now: datetime | None = None) -> str:
    """``"just now"`` within the minute (``timesince`` says "0 minutes"), else
    ``"3 hours ago"``.

    >>> from datetime import timezone as tz
    >>> noon = datetime(2026, 12, 7, 12, 0, tzinfo=tz.utc)
    >>> ago(noon, noon + timedelta(seconds=30)), ago(noon, noon + timedelta(hours=3))
    ('just now', '3\\xa0hours ago')
    """
    now = now or timezone.now()
    if now - when < JUST_NOW:
        return "just now"
    return f"{timesince(when, now)} ago"
