"""Template filters of the game pages."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from engine.ruleset import Ruleset
from games.selectors.replay import in_reading_order

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


COLOUR_NAMES = {"R": "red", "B": "blue", "K": "black", "O": "orange"}


def tile_name(code: str) -> str:
    """What a screen reader says for a tile: "red 7", "joker"."""
    if code == "J":
        return "joker"
    return f"{COLOUR_NAMES[code[0]]} {code[1:]}"


@register.simple_tag
def tile(
    shown: object,
    *,
    interactive: bool = False,
    source: object = "",
    small: bool = False,
    new: bool = False,
) -> SafeString:
    """One tile. ``shown`` is a tile or its notation (R7, J); colours come from the
    stylesheet by ``data-tile``. ``interactive``: a button the player can pick, drag and
    move (``source``: "rack" or a set index). ``new`` marks a tile just laid; ``small``
    a tile in a list. ``{% tile tile interactive=True source="rack" %}``

    A tag rather than an included template: a full table holds a hundred tiles, and an
    include each was most of the time it took to render a move's answer.
    """
    code = str(shown)
    face = "☺" if code == "J" else code[1:]
    extra = " is-new" if new else ""
    if interactive:
        return format_html(
            '<button type="button" class="tile{}" data-tile="{}" data-source="{}" '
            'draggable="true" aria-pressed="false" aria-label="{}">'
            '<span class="tile-face" aria-hidden="true">{}</span></button>',
            extra,
            code,
            source,
            tile_name(code),
            face,
        )
    if small:
        extra = " tile-small" + extra
    return format_html(
        '<span class="tile{}" data-tile="{}" role="img" aria-label="{}">'
        '<span class="tile-face" aria-hidden="true">{}</span></span>',
        extra,
        code,
        tile_name(code),
        face,
    )
