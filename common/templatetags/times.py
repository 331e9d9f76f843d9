"""``{{ report.created_at|ago }}``: "just now", or "3 hours ago" (:func:`common.times.ago`)."""

from __future__ import annotations

from datetime import datetime

from django import template

from common.times import ago as _ago

register = template.Library()


@register.filter
def ago(when: datetime | None) -> str:
    return "" if when is None else _ago(when)
