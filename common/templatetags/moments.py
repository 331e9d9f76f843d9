"""``{% load moments %}``: ``{{ deadline|when }}`` writes a moment as every notice and
mail does (:func:`common.moments.when`)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django import template
from django.utils import timezone

from common import moments

register = template.Library()


@register.filter
def when(moment: datetime | None) -> str:
    """The moment in the current time zone, as ``common.moments.when`` writes it; nothing
    for no moment."""
    return "" if moment is None else moments.when(moment)


@register.filter
def when_in(moment: datetime | None, zone: str) -> str:
    """The moment in the zone named ``zone`` (an IANA name), as ``when`` writes it;
    nothing for no moment, the current zone for an unknown name."""
    if moment is None:
        return ""
    try:
        return moments.when_in(moment, ZoneInfo(zone))
    except (ValueError, LookupError):
        return moments.when(moment)


@register.filter
def iso(moment: datetime | None) -> str:
    """The moment for a ``<time datetime>``, in the current time zone, to the whole
    second (a reader needs no microseconds)."""
    if moment is None:
        return ""
    return timezone.localtime(moment).replace(microsecond=0).isoformat()
