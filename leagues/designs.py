"""Known schedules in which no two players meet twice: resolvable designs.

Pure Python (no Django), for :mod:`leagues.scheduling`. A season at 3 or 4 seats of
``n`` players, none with a bye, is a round of the "social golfer" problem: ``n /
seats`` tables a matchday, and the fewer pairs meeting twice the better. Local search
does not reliably find the schedules in which no pair meets twice even where they are
known to exist; for the classic sizes they are built here instead:

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
- **Written out**: 32 players at 4 seats over 10 matchdays (the original social
  golfer problem, first solved by Aguado in 2004) is a published schedule, copied
  as data (:data:`_ORIGINAL_GOLFERS`) and checked by the tests like the others.

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
each with a known schedule in which no pair meets twice (a design below for each)."""

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
        listed(_ORIGINAL_GOLFERS),
    ]
    return {(design.players, design.seats): design for design in designs}


# 32 players at 4 seats over 10 matchdays: the schedule of the Wolfram Demonstrations
# Project's "Social Golfer Problem" (demonstrations.wolfram.com/SocialGolferProblem),
# as transcribed in github.com/fpvandoorn/Dagstuhl-tables (literature.md, "T(32,4)",
# its first ten lines), its players A-P and a-p numbered 0-31, tables and players
# sorted. Each player meets 30 others once; the 16 pairs left never meet.
_ORIGINAL_GOLFERS = """
0 1 2 3 | 4 5 6 7 | 8 9 10 11 | 12 13 14 15 | 16 17 18 19 | 20 21 22 23 | 24 25 26 27 | 28 29 30 31
0 4 8 28 | 1 7 18 22 | 2 6 17 23 | 3 5 10 31 | 9 14 27 29 | 11 13 25 30 | 12 16 20 24 | 15 19 21 26
0 21 27 30 | 1 23 26 28 | 2 9 15 20 | 3 6 13 24 | 4 18 25 31 | 5 11 14 16 | 7 10 12 17 | 8 19 22 29
0 11 18 24 | 1 10 19 25 | 2 8 16 27 | 3 9 17 26 | 4 12 23 29 | 5 15 22 30 | 6 14 21 31 | 7 13 20 28
0 10 13 22 | 1 4 15 27 | 2 21 25 28 | 3 7 8 30 | 5 9 12 18 | 6 16 26 29 | 11 17 20 31 | 14 19 23 24
0 9 23 31 | 1 5 24 29 | 2 12 19 30 | 3 14 18 28 | 4 11 22 26 | 6 10 20 27 | 7 15 16 25 | 8 13 17 21
0 5 19 20 | 1 6 9 30 | 2 7 11 29 | 3 4 16 21 | 8 12 26 31 | 10 15 24 28 | 13 18 23 27 | 14 17 22 25
0 15 17 29 | 1 13 16 31 | 2 4 10 14 | 3 12 22 27 | 5 8 23 25 | 6 11 19 28 | 7 9 21 24 | 18 20 26 30
0 6 12 25 | 1 8 14 20 | 2 5 13 26 | 3 11 15 23 | 4 17 24 30 | 7 19 27 31 | 9 16 22 28 | 10 18 21 29
0 7 14 26 | 1 11 12 21 | 2 22 24 31 | 3 20 25 29 | 4 9 13 19 | 5 17 27 28 | 6 8 15 18 | 10 16 23 30
"""
