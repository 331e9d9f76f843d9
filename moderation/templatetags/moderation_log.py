"""``{{ entry|change_lines }}``: what a log entry changed, in sentences
(:func:`moderation.selectors.log.change_lines`)."""

from __future__ import annotations

from django import template

from moderation.models import LogEntry
from moderation.selectors import log

register = template.Library()


@register.filter
def change_lines(entry: LogEntry) -> list[str]:
    return log.change_lines(entry)
