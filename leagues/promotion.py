"""Promotion and relegation: the next season's seeding from the last one's final order.

Pure Python, like the scheduler. A season ends with each division's players in their
final order (level 1, the top, first). Between each two neighbouring divisions the
``promotion`` best of the lower one and the ``promotion`` worst of the upper one swap
places; the result, read from the top division's first player to the bottom one's
last, is the seeding of the next season, which cuts it into divisions of about its size
(:func:`leagues.divisions.split`, keeping the players :func:`moves` names where they
went; players who join afresh are seeded after everyone who played).

>>> seeding([["ann", "bob", "cy", "dee"], ["eve", "fay", "gus", "hal"]], promotion=1)
['ann', 'bob', 'cy', 'eve', 'dee', 'fay', 'gus', 'hal']

Within a division the promoted players are seeded after those who stayed and the
relegated ones before those who stayed, in their own final order: a promoted player
did not beat the upper division's survivors, and a relegated one played stronger
opposition than the lower division's. When fewer players come back than left (some did
not register again), cutting the seeding into divisions moves the next players up
(never a promoted player down), and nobody is seeded below a player they finished
ahead of in the same division.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from leagues.standings import EntryId, Row

P = TypeVar("P", bound=Hashable)

UP, DOWN = "up", "down"
"""The sides of the lines a standings row may stand on (neither: ``""``)."""


def seeding(final: Sequence[Sequence[P]], promotion: int) -> list[P]:
    """Every player of ``final`` (divisions top first, each in final order), in the
    next season's seed order after ``promotion`` players went up and down between each
    two neighbouring divisions. A division too small for that swaps as many as it can
    while keeping one player who stays (:func:`movable`); ``promotion`` 0 keeps
    everyone where they were.
    """
    levels = [list(level) for level in final]
    kept: list[list[P]] = [list(level) for level in levels]
    arriving_from_below: list[list[P]] = [[] for _ in levels]
    arriving_from_above: list[list[P]] = [[] for _ in levels]
    for upper, down, up in _swaps(levels, promotion):
        lower = upper + 1
        kept[upper] = [p for p in kept[upper] if p not in down]
        kept[lower] = [p for p in kept[lower] if p not in up]
        arriving_from_below[upper] = up
        arriving_from_above[lower] = down
    order: list[P] = []
    for level in range(len(levels)):
        order += arriving_from_above[level] + kept[level] + arriving_from_below[level]
    return order


def moves(final: Sequence[Sequence[P]], promotion: int) -> tuple[dict[P, int], dict[P, int]]:
    """The players :func:`seeding` moves: those promoted and those relegated, each with
    the level (from 1) they move to; the next season's divisions keep them there
    (:func:`leagues.divisions.split`).

    >>> moves([["ann", "bob"], ["cy", "dee"]], promotion=1)
    ({'cy': 1}, {'bob': 2})
    """
    promoted: dict[P, int] = {}
    relegated: dict[P, int] = {}
    for upper, down, up in _swaps([list(level) for level in final], promotion):
        promoted |= dict.fromkeys(up, upper + 1)
        relegated |= dict.fromkeys(down, upper + 2)
    return promoted, relegated


def _swaps(levels: list[list[P]], promotion: int) -> list[tuple[int, list[P], list[P]]]:
    """Between each two neighbouring divisions (the upper's index), who goes down and
    who goes up."""
    if promotion < 0:
        raise ValueError("promotion is a number of players, 0 or more")
    swaps = []
    for upper in range(len(levels) - 1):
        lower = upper + 1
        moving = min(
            promotion,
            _movable(levels[upper], both_ends=upper > 0),
            _movable(levels[lower], both_ends=lower < len(levels) - 1),
        )
        if moving:
            swaps.append(
                (upper, levels[upper][len(levels[upper]) - moving :], levels[lower][:moving])
            )
    return swaps


def movable(size: int, both_ends: bool) -> int:
    """How many players may leave a division of ``size`` at one end, so that one player
    stays whatever happens at the other end (``both_ends``: a division with
    neighbours above and below)."""
    return max(0, (size - 1) // 2 if both_ends else size - 1)


def zones(rows: Sequence[Row], level: int, levels: int, promotion: int) -> dict[EntryId, str]:
    """Each entry's side of the lines, for a division at ``level`` (from 1, the top) of
    ``levels``, its ``rows`` in standings order: ``up`` above the promotion line (not in
    the top division), ``down`` below the relegation line (not in the bottom one). As
    many move as :func:`seeding` moves (:func:`movable`).

    >>> rows = [Row(entry, str(entry), False) for entry in range(5)]
    >>> zones(rows, level=2, levels=3, promotion=2)
    {0: 'up', 1: 'up', 2: '', 3: 'down', 4: 'down'}
    >>> zones(rows, level=1, levels=2, promotion=1)
    {0: '', 1: '', 2: '', 3: '', 4: 'down'}
    """
    size = len(rows)
    up = min(promotion, movable(size, both_ends=level < levels)) if level > 1 else 0
    down = min(promotion, movable(size, both_ends=level > 1)) if level < levels else 0
    out = {}
    for index, row in enumerate(rows):
        out[row.entry] = UP if index < up else DOWN if index >= size - down else ""
    return out


def _movable(level: Sequence[P], both_ends: bool) -> int:
    return movable(len(level), both_ends)
