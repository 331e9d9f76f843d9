"""How the tiles of one number split into groups.

A colour gives at most two tiles of a number, each to a different group, and jokers
fill missing colours, so whether some tiles of one number can be laid out as groups
depends only on how many tiles each colour gives and how many jokers join. With two
jokers up to three groups fit on one number (``R B K``, ``R B K``, ``O J J``).
"""

from __future__ import annotations

from functools import cache

COLOUR_COUNT = 4
MIN_SET = 3


@cache
def split_groups(
    counts: tuple[int, ...], jokers: int
) -> tuple[tuple[tuple[int, ...], int], ...] | None:
    """One way to lay out ``counts[c]`` tiles of colour ``c`` and ``jokers`` jokers as groups.

    Each group is ``(colours, jokers)``; None when no layout exists.

    >>> split_groups((1, 1, 1, 0), 0)
    (((0, 1, 2), 0),)
    >>> split_groups((2, 2, 2, 2), 2)
    (((0, 1, 2, 3), 0), ((0, 1, 2), 0), ((3,), 2))
    >>> split_groups((2, 1, 0, 0), 2) is None
    True
    """
    if not any(counts):
        return () if jokers == 0 else None
    first = next(c for c in range(COLOUR_COUNT) if counts[c])
    others = [c for c in range(first + 1, COLOUR_COUNT) if counts[c]]
    # Bigger groups first: they leave fewer tiles to place.
    for size in range(len(others), -1, -1):
        for chosen in _combinations(tuple(others), size):
            colours = (first, *chosen)
            for used in range(min(jokers, 4 - len(colours)), -1, -1):
                if len(colours) + used < MIN_SET:
                    continue
                rest = list(counts)
                for c in colours:
                    rest[c] -= 1
                tail = split_groups(tuple(rest), jokers - used)
                if tail is not None:
                    return ((colours, used), *tail)
    return None


@cache
def _combinations(items: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    if size == 0:
        return ((),)
    if len(items) < size:
        return ()
    head, rest = items[0], items[1:]
    with_head = tuple((head, *tail) for tail in _combinations(rest, size - 1))
    return with_head + _combinations(rest, size)


def symmetric_code(count: int) -> int:
    """The code a colour adds to the group tally when it gives ``count`` tiles.

    Groups do not care which colour gives what, so the tally only counts colours that
    give one tile (units) and colours that give two (fives).
    """
    return (0, 1, 5)[count]


def tally_counts(code: int) -> tuple[int, ...]:
    """Counts per colour (in some colour order) that give the tally ``code``.

    >>> tally_counts(7)
    (2, 1, 1, 0)
    """
    ones, twos = code % 5, code // 5
    counts = [2] * twos + [1] * ones
    return tuple(counts + [0] * (COLOUR_COUNT - len(counts)))
