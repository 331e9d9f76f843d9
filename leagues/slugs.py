"""Address slugs made from names: ``"Tile Club"`` becomes ``tile-club``, or ``tile-club-2``
when that one is taken.

>>> slug_for("Tile Club", taken=lambda slug: False)
'tile-club'
>>> slug_for("Tile Club", taken=lambda slug: slug in {"tile-club", "tile-club-2"})
'tile-club-3'
>>> slug_for("!!!", taken=lambda slug: False, fallback="club")
'club'
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.text import slugify

MAX_LENGTH = 50
TRIES = 20
"""Candidates tried before giving up: names that clash twenty times over are not a typo."""


def slug_for(
    name: str,
    taken: Callable[[str], bool],
    fallback: str = "x",
    reserved: frozenset[str] = frozenset(),
) -> str:
    """The first free slug for ``name``: itself, then with ``-2``, ``-3``, ...

    ``taken`` says whether a slug is used; ``reserved`` slugs are words of the site's own
    addresses. Raises ``ValueError`` after :data:`TRIES` candidates.
    """
    base = slugify(name)[:MAX_LENGTH].strip("-") or fallback
    for number in range(1, TRIES + 1):
        suffix = "" if number == 1 else f"-{number}"
        candidate = base[: MAX_LENGTH - len(suffix)].rstrip("-") + suffix
        if candidate not in reserved and not taken(candidate):
            return candidate
    raise ValueError(f"no free slug for {name!r}")


CLUB_SLUGS_RESERVED = frozenset({"new", "me", "entries", "calendar"})
"""Words of /clubs/<word>/ addresses that are pages, not clubs."""

CLUB_PAGE_WORDS = frozenset(
    {
        "settings",
        "members",
        "invitation",
        "invitations",
        "invite",
        "invite-link",
        "join",
        "request",
        "requests",
        "leave",
    }
)
"""Words of /clubs/<club>/<word>/ addresses that are the club's own pages: a league's
slug must not be one of them."""

LEAGUE_SLUGS_RESERVED = CLUB_PAGE_WORDS | {"leagues", "new", "edit"}
"""Addresses of a club's own pages, which no league may take (``/clubs/<club>/<slug>/``)."""
