"""Template filters of the game pages."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from engine.ruleset import Ruleset
from engine.sets import in_reading_order

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
    drawn: bool = False,
) -> SafeString:
    """One tile. ``shown`` is a tile or its notation (R7, J); colours come from the
    stylesheet by ``data-tile``. ``interactive``: a button the player can pick, drag and
    move (``source``: "rack" or a set index). ``new`` marks a tile just laid, ``drawn``
    one just drawn; ``small`` a tile in a list. ``{% tile tile interactive=True source="rack" %}``

    A tag rather than an included template: a full table holds a hundred tiles, and an
    include each was most of the time it took to render a move's answer.
    """
    code = str(shown)
    face = "☺" if code == "J" else code[1:]
    extra = " is-new" if new else ""
    name = tile_name(code)
    if drawn:
        extra += " is-drawn"
        name += ", just drawn"
    if interactive:
        return format_html(
            '<button type="button" class="tile{}" data-tile="{}" data-source="{}" '
            'draggable="true" aria-pressed="false" aria-label="{}">'
            '<span class="tile-face" aria-hidden="true">{}</span></button>',
            extra,
            code,
            source,
            name,
            face,
        )
    if small:
        extra = " tile-small" + extra
    return format_html(
        '<span class="tile{}" data-tile="{}" role="img" aria-label="{}">'
        '<span class="tile-face" aria-hidden="true">{}</span></span>',
        extra,
        code,
        name,
        face,
    )


# A tile in notation inside a sentence: R7, K13, J (a word of its own).
_TILE_IN_TEXT = re.compile(r"(?<![\w-])(?:[RBKO](?:1[0-3]|[1-9])|J)(?![\w-])")


@register.filter
def tiles_in_text(text: object) -> SafeString:
    """A sentence with its tiles shown as small tiles instead of codes: "O4 has only 1
    tile" reads as a small orange 4 (a screen reader says "orange 4"), since players do
    not read R/B/K/O codes (K for black is not guessable). ``{{ message|tiles_in_text }}``
    """
    escaped = str(conditional_escape(text if isinstance(text, str) else str(text)))
    # Safe: the text is escaped above, and each tile comes from format_html.
    return mark_safe(
        _TILE_IN_TEXT.sub(lambda found: tile(found.group(0), small=True, new=False), escaped)
    )


@dataclass(frozen=True)
class MarkedTile:
    tile: str
    marked: bool


@register.filter
def tally(tiles: Iterable[object] | None) -> Counter[str]:
    """Tiles as a count by notation, to be used up by :func:`marked` across several sets:
    ``{% with laid=log.laid|tally %}``."""
    return Counter(str(t) for t in tiles or ())


@register.filter
def marked(tiles: Iterable[object], chosen: Iterable[object] | None) -> list[MarkedTile]:
    """``tiles`` in order, each copy of a ``chosen`` tile marked once (copies are
    interchangeable): ``{% for shown in rack|marked:log.drawn %}``. A :func:`tally` is
    used up as it marks, so the same copy is not marked again in the next set."""
    left = chosen if isinstance(chosen, Counter) else tally(chosen)
    shown = []
    for each in tiles:
        code = str(each)
        shown.append(MarkedTile(code, left[code] > 0))
        if left[code] > 0:
            left[code] -= 1
    return shown
