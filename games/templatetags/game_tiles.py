"""Template filters of the game pages."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

from engine.ruleset import Ruleset
from games.services.history import in_reading_order

register = template.Library()


@register.filter
def reading_order(tiles: Sequence[object], ruleset: Ruleset | None) -> list[str]:
    """A set's tiles as they read (a run low to high, a group by colour), jokers where
    they stand; an invalid set as it was laid. ``{{ set|reading_order:view.ruleset }}``"""
    return in_reading_order([str(tile) for tile in tiles], ruleset or Ruleset())
