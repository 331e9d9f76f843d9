"""Template filters of the game pages."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

from engine.ruleset import Ruleset
from games.services.history import in_reading_order

register = template.Library()


@register.filter
def duration(seconds: int | None) -> str:
    """Seconds as a clock shows them: "0:45", "12:05", "3 h 20 min", "2 d 4 h"."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes}:{secs:02d}"


@register.filter
def reading_order(tiles: Sequence[object], ruleset: Ruleset | None) -> list[str]:
    """A set's tiles as they read (a run low to high, a group by colour), jokers where
    they stand; an invalid set as it was laid. ``{{ set|reading_order:view.ruleset }}``"""
    return in_reading_order([str(tile) for tile in tiles], ruleset or Ruleset())
