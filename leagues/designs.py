"""Known schedules in which no two players meet twice: resolvable designs.

Pure Python (no Django), for :mod:`leagues.scheduling`. A season at 3 or 4 seats of
``n`` players, none with a bye, is a round of the "social golfer" problem: ``n /
seats`` tables a matchday, and the fewer pairs meeting twice the better. Local search
does not reliably find the schedules in which no pair meets twice even where they are
known to exist; for the classic sizes they are built here instead, by construction:

- **Affine geometries** AG(d, q): the points of a ``d``-dimensional space over the
  field of ``q`` elements, tables its lines (``q`` points each), one matchday per
  direction (its parallel lines). AG(2, 3) seats 9 players at 3 over 4 matchdays,
  AG(2, 4) 16 at 4 over 5, AG(3, 3) 27 at 3 over 13. Every pair meets exactly once.
- **Cyclic developments**: players are ``rows`` copies of the integers modulo ``m``
  (and perhaps fixed players, ``∞``); a base matchday, shifted by ``0 .. m - 1``,
  gives ``m`` matchdays, and some matchdays that shifting leaves unchanged are added.
  The base matchdays below were found by search and are checked by the tests: a
  Kirkman triple system of 15 (Kirkman's schoolgirls: 7 matchdays) and of 21 (10), and
  20 players at 4 seats over 5 matchdays.

32 players at 4 seats over 10 matchdays (the original social golfer problem) has a
known solution too (Aguado, 2004), but none is built here yet: such a season is
searched for like any other, and some pairs meet twice.

:func:`designed_tables` relabels the design's players at random (so any seed gets its
own schedule, as good as any other) and repeats a design whose pairs all meet once for
longer seasons, so that pairs meet ``k`` or ``k + 1`` times.

>>> import random
>>> season = designed_tables(9, 3, 4, random.Random(1))
>>> len(season), [len(day) for day in season]
(4, [3, 3, 3, 3])
>>> designed_tables(10, 3, 4, random.Random(1)) is None
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

SOCIAL_GOLFER_INSTANCES = (
    (9, 3, 4),
    (15, 3, 7),
    (16, 4, 5),
    (20, 4, 5),
    (21, 3, 10),
    (27, 3, 13),
    (32, 4, 10),
)
"""Players, seats and matchdays of the classic instances of the social golfer problem,
each with a known schedule in which no pair meets twice (a design below for all but
the last)."""

Round = list[list[int]]
"""One matchday's tables, each a list of player indices."""


@dataclass(frozen=True, slots=True)
class Design:
    """A schedule of ``players`` at ``seats`` over ``len(rounds)`` matchdays in which no
    pair meets twice; ``complete`` when every pair meets exactly once."""

    players: int
    seats: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    complete: bool


def designed_tables(n: int, seats: int, days: int, rng: random.Random) -> list[Round] | None:
    """``days`` matchdays of tables for ``n`` players from a known design, relabelled
    by ``rng``, or None when no design fits.

    A design of ``D`` matchdays fits ``days <= D``; one whose pairs all meet once fits
    any ``days``: whole cycles of it, each relabelled afresh, then part of one more, so
    every pair meets ``days // D`` or one more time."""
    design = _known().get((n, seats))
    if design is None or (days > len(design.rounds) and not design.complete):
        return None
    season: list[Round] = []
    while len(season) < days:
        label = list(range(n))
        rng.shuffle(label)
        rounds = list(design.rounds)
        rng.shuffle(rounds)
        for tables in rounds[: days - len(season)]:
            season.append([[label[p] for p in table] for table in tables])
    return season


def affine(q: int, dim: int) -> Design:
    """AG(dim, q): points are vectors over GF(q), numbered in base ``q``; a matchday is
    a direction, its tables the lines along it."""
    add, mul = _field(q)
    points = list(itertools.product(range(q), repeat=dim))
    number = {v: sum(c * q**i for i, c in enumerate(v)) for v in points}
    # One vector per direction: its first coordinate that is not zero is 1.
    directions = [v for v in points if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    rounds = []
    for u in directions:
        lines = {
            frozenset(number[tuple(add[p[i]][mul[t][u[i]]] for i in range(dim))] for t in range(q))
            for p in points
        }
        rounds.append(tuple(sorted(tuple(sorted(line)) for line in lines)))
    return Design(q**dim, q, tuple(rounds), complete=True)


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q), for q = 3 (integers modulo 3) or
    4 (polynomials over GF(2) modulo x² + x + 1, as bits: addition is exclusive or)."""
    if q == 3:
        return (
            [[(a + b) % 3 for b in range(3)] for a in range(3)],
            [[a * b % 3 for b in range(3)] for a in range(3)],
        )
    if q == 4:
        mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        return [[a ^ b for b in range(4)] for a in range(4)], mul
    raise ValueError(f"no field of {q} elements here")


def cyclic(modulus: int, rows: int, *bases: str, fixed: Sequence[Sequence[int]] = ()) -> Design:
    """Base matchdays developed modulo ``modulus``, and matchdays fixed by shifting.

    Players are ``rows`` copies of the integers modulo ``modulus``, written ``a0``,
    ``b3`` (row letter, number), player ``row * modulus + number``, and a few fixed
    players ``∞`` (or ``∞0``, ``∞1``, ...: the last players), whom shifting leaves
    alone. Each base matchday lists its tables, separated by ``|``. Each of ``fixed``
    gives one matchday whose tables take one player of each row, ``x + offset`` of row
    ``r`` at table ``x``.
    """
    days = [[table.split() for table in base.split("|")] for base in bases]
    infinite = {name for tables in days for table in tables for name in table if name[0] == "∞"}
    players = rows * modulus + len(infinite)

    def shifted(name: str, by: int) -> int:
        if name[0] == "∞":
            return rows * modulus + int(name[1:] or 0)
        row = ord(name[0]) - ord("a")
        return row * modulus + (int(name[1:]) + by) % modulus

    rounds = [
        tuple(tuple(shifted(p, by) for p in table) for table in tables)
        for tables in days
        for by in range(modulus)
    ]
    rounds.extend(
        tuple(
            tuple(r * modulus + (x + off) % modulus for r, off in enumerate(offsets))
            for x in range(modulus)
        )
        for offsets in fixed
    )
    return _design(players, rounds)


def listed(matchdays: str) -> Design:
    """A design written out: one matchday a line, its tables separated by ``|``, each
    table its players' numbers (from 0).

    >>> design = listed('''
    ... 0 1 | 2 3
    ... 0 2 | 1 3
    ... ''')
    >>> design.players, design.seats, design.rounds, design.complete
    (4, 2, (((0, 1), (2, 3)), ((0, 2), (1, 3))), False)
    """
    rounds = [
        tuple(tuple(int(p) for p in table.split()) for table in line.split("|"))
        for line in matchdays.strip().splitlines()
    ]
    return _design(sum(len(table) for table in rounds[0]), rounds)


def _design(players: int, rounds: Sequence[tuple[tuple[int, ...], ...]]) -> Design:
    """The design of these matchdays, complete when they seat as many pairs as there
    are (none meeting twice is for the tests to check)."""
    seats = len(rounds[0][0])
    pairs_met = len(rounds) * (players // seats) * seats * (seats - 1) // 2
    return Design(players, seats, tuple(rounds), complete=pairs_met == players * (players - 1) // 2)


def known_designs() -> list[Design]:
    """Every design :func:`designed_tables` uses."""
    return list(_known().values())


@cache
def _known() -> dict[tuple[int, int], Design]:
    designs = [
        affine(3, 2),
        affine(4, 2),
        affine(3, 3),
        # Kirkman's schoolgirls.
        cyclic(7, 2, "a4 a3 b6 | b5 ∞ a6 | a2 b0 a0 | b1 b3 b4 | b2 a5 a1"),
        cyclic(
            7,
            3,
            "a6 a0 a4 | b6 c4 a5 | c0 c1 c3 | b3 c5 a1 | b2 b4 b1 | b5 c2 a2 | a3 c6 b0",
            fixed=[(0, 0, 1), (0, 5, 5), (0, 6, 2)],
        ),
        cyclic(5, 4, "a3 b3 b2 d2 | c1 b4 a1 a2 | c0 a4 d0 d4 | b0 c3 c4 d1 | d3 b1 c2 a0"),
    ]
    return {(design.players, design.seats): design for design in designs}
