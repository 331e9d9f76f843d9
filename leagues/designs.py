"""Schedules in which no two players meet twice: resolvable designs, built.

Pure Python (no Django), for :mod:`leagues.scheduling`. A season at 3 or 4 seats of
``n`` players, none with a bye, is a round of the "social golfer" problem: ``n /
seats`` tables a matchday, and the fewer pairs meeting twice the better. Local search
does not reliably find the schedules in which no pair meets twice even where they are
known to exist, so they are built here, for whole families rather than named sizes:

- **Affine geometries** AG(d, q) for every prime power ``q``: the points of a
  ``d``-dimensional space over the finite field GF(q) (:class:`Field`), tables its
  lines (``q`` points each), one matchday per direction. AG(2, q) is the affine plane
  of order ``q``: ``q²`` players at ``q`` seats over ``q + 1`` matchdays, every pair
  meeting exactly once; AG(d, 3) and AG(d, 4) are Kirkman and 4-seat systems of
  ``3^d`` and ``4^d`` players.
- **Kirkman constructions** over GF(q) for every prime power ``q = 6t + 1``
  (:func:`kirkman_doubled`, :func:`kirkman_tripled`): Kirkman triple systems of
  ``2q + 1`` players (Ray-Chaudhuri and Wilson) and of ``3q`` players, one base
  matchday shifted by every element of the field: 15, 21, 27, 39, 57, 63, 75, 87,
  93, ... players, built at once where the search below may not reach them.
- **A rotated 4-seat design** (:func:`four_seats_rotated`): ``3q + 1`` players for
  a prime power ``q = 12t + 1``, one base matchday over GF(q) found by a small search
  that a multiplier of order 3 shrinks: 40 players (52 is found by the developments'
  search with a multiplier, below; 112 is a product).
- **Products** (:func:`product`): a design of ``u`` players and one of ``v`` in
  which every pair meets once, at the same seats, make one of ``u·v``: the first
  played in each of ``v`` copies, the second's tables spread over the copies by a
  resolvable transversal design on ``u`` points (over a product of finite fields).
  KTS(u) and KTS(v) give KTS(uv) (the tripling KTS(v) -> KTS(3v) with ``u = 3``):
  45, 99, 117, 135, 153, ... players; NKTS(u) and KTS(v) give NKTS(uv) where the
  ring exists (``u`` of 24, 36, 48, ...): 72, 108, 144, ...; the table of 4 and a
  4-seat design of ``v`` give ``4v``: 112, 160, 208, ...
- **Developments** (:class:`Development`): the players are ``rows`` copies of the
  integers modulo ``N`` and a few fixed players (``∞``), and a base matchday shifted
  by ``0 .. period - 1`` gives ``period`` matchdays (the base matchday is unchanged by
  a shift of ``period``, so the tables' shifts by all of ``N`` are each used once);
  with a row per seat, matchdays that shifting leaves as they are may be added, each
  the shifts of one table of a player from each row. A pair is then met as often as
  its *difference* (rows and distance apart) is, so the base matchday is found by a
  bounded backtracking search over differences (:func:`develop`), a few thousand
  steps where a whole schedule's search would need millions. The families it is
  aimed at (:func:`developments`):

  - Kirkman triple systems, 3 seats, ``6t + 3`` players over ``3t + 1`` matchdays,
    every pair once (they exist for every ``t``: Ray-Chaudhuri and Wilson, 1971);
  - nearly Kirkman triple systems, 3 seats, ``6t`` players from 18, ``3t - 1``
    matchdays, every pair once but for a perfect matching (they exist for every such
    size: Baker and Wilson, 1977; Kotzig and Rosa);
  - resolvable (v, 4, 1) designs, 4 seats, ``12t + 4`` players over ``4t + 1``
    matchdays, every pair once (they exist for every ``t``: Hanani, Ray-Chaudhuri and
    Wilson, 1972);

  and any other size and length at which some development fits, tried in turn.

  Where short restarts of that search find nothing, it is tried again with a
  *multiplier* (:func:`multiplied`): a map ``(x, row) -> (m·x, row + turn)`` that the
  design is to be unchanged by, so that each table is seated with its images and the
  search is that many times smaller, as Kirkman's and Ray-Chaudhuri and Wilson's
  constructions use the cube roots of 1. That reaches NKTS(42) (three rows modulo 14,
  ``m = 9`` turning the rows) and the resolvable (52, 4, 1) design (four rows modulo
  13 and four matchdays of transversals, ``m = 3``), which the restarts did not. Last,
  a development with transversals gets one long start (:func:`_long_started`):
  NKTS(66), three rows modulo 22.

- **A fixed players' table** (:func:`fixed_table_development`): at 3 seats, two rows
  modulo ``3t`` and ``∞₀, ∞₁, ∞₂``, a base matchday shifted by every number and one
  matchday that shifting leaves as it is, ``{∞₀, ∞₁, ∞₂}`` and the triples ``{x, x +
  t, x + 2t}`` of each row: KTS(69), found by one long start of the search, which
  nothing else here reaches (``∞`` and one row modulo 68 hold none: a Steiner triple
  system unchanged by a group fixing one point and moving the others round needs ``v
  ≡ 3, 9 (mod 24)`` or ``v ≡ 1, 19 (mod 72)``; three rows modulo 23 with a multiplier
  of order 11 hold none either, and 69 = 3·23 is no product of Kirkman orders).

Reached, of the three families (checked up to 123 players at 3 seats and 160 at 4):
every Kirkman size; the nearly Kirkman sizes 18 to 66, 72 and 108; the 4-seat sizes
16, 28, 40, 52, 64, 112 and 160. Not reached within the steps: NKTS of 78, 84, 90, 96,
102, 114 and 120, and the 4-seat designs of 76, 88, 100, 124, 136 and 148 players;
their seasons are scheduled by the local search of :mod:`leagues.scheduling`.

The search is deterministic (its own fixed seeds) and bounded by a count of steps,
never by time, so a size gets the same design on any machine. The tests check every
design of every family up to a bound, and which sizes the search reaches.

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

import dataclasses
import itertools
import math
import random
from collections.abc import Iterator, Sequence
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
each with a known schedule in which no pair meets twice (built below for each)."""

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
    """``days`` matchdays of tables for ``n`` players from a design, relabelled by
    ``rng``, or None when none was found.

    A design of ``D`` matchdays fits ``days <= D``; one whose pairs all meet once fits
    any ``days``: whole cycles of it, each relabelled afresh, then part of one more, so
    every pair meets ``days // D`` or one more time."""
    design = design_for(n, seats, days)
    if design is None:
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


def most_rounds(players: int, seats: int) -> int:
    """The most matchdays in which no pair meets twice could fit: each player meets
    ``seats - 1`` others a matchday, and has ``players - 1`` to meet."""
    return (players - 1) // (seats - 1)


@cache
def design_for(players: int, seats: int, days: int) -> Design | None:
    """A design of ``players`` at ``seats`` for a season of ``days`` matchdays: at least
    ``days`` of them, or a complete one (to repeat) when ``days`` is more than any can
    have; None when there are byes or none is found within the search's steps."""
    if seats < 2 or players % seats or players < seats:
        return None
    longest = most_rounds(players, seats)
    complete = players * (players - 1) == longest * players * (seats - 1)
    if days > longest:
        if not complete:
            return None
        days = longest
    if players == seats:
        return Design(players, seats, ((tuple(range(players)),),), complete=True)
    if complete:
        # One search for the whole design, whatever part of it a season takes.
        days = longest
    built = (
        _affine_for(players, seats)
        or _constructed(players, seats)
        or _product_for(players, seats, days)
    )
    if built is not None:
        return built
    written = _written().get((players, seats))
    if written is not None and days <= len(written.rounds):
        return written
    tried = developments(players, seats, days)[:DEVELOPMENTS_TRIED]
    found = _with_fixed_table(players, seats) or _restarted(tried)
    if found is not None or not (complete or _nearly_kirkman(players, seats, days)):
        # The longer searches only where a design is known to exist, so that a size
        # without one does not wait for them.
        return found
    return _multiplied(tried) or _long_started(tried)


def _nearly_kirkman(players: int, seats: int, days: int) -> bool:
    """Whether a season is as long as a nearly Kirkman triple system of its size,
    which exists (6t players from 18, 3t - 1 matchdays)."""
    return seats == 3 and players % 6 == 0 and players >= 18 and days == most_rounds(players, 3)


def _long_started(tried: list[Development]) -> Design | None:
    """The first design that one long start of the search (seed 0, within
    :data:`LONG_START_STEPS`) finds for a development with matchdays of transversals:
    their search goes deep before the base matchday shows a dead end, so the short
    restarts never get there (NKTS(66), three rows modulo 22, in some 83,000 steps)."""
    for development in tried:
        if development.transversals:
            design = _Search(development, random.Random(0), LONG_START_STEPS).run()
            if design is not None:
                return design
    return None


def _with_fixed_table(players: int, seats: int) -> Design | None:
    """At 3 seats, a Kirkman triple system from a development with the fixed players'
    table (:func:`fixed_table_development`), found by one long start of the search
    within :data:`FIXED_TABLE_STEPS`: KTS(69) (in some 134,000 steps), which nothing
    else here reaches, and 33 (in some 800). (At 4 seats it gives 28 but not 52 or 76
    within 60,000 steps, so it is not tried there.)"""
    development = fixed_table_development(players, seats)
    if seats != 3 or development is None:
        return None
    return _Search(development, random.Random(0), FIXED_TABLE_STEPS).run()


def fixed_table_development(players: int, seats: int) -> Development | None:
    """The development of ``players`` at ``seats`` over ``seats - 1`` rows and
    ``seats`` fixed players who share a table on a matchday of their own, every pair
    meeting once: ``modulus + 1`` matchdays (for KTS(6t + 3), two rows modulo ``3t``
    and ``∞₀, ∞₁, ∞₂``); None if the size has no such shape."""
    rows = seats - 1
    modulus, rest = divmod(players - seats, rows)
    if rest or modulus <= 0 or modulus % seats:
        return None
    return Development(seats, modulus, rows, seats, modulus, fixed_table=True)


def _restarted(tried: list[Development]) -> Design | None:
    """The first design that short starts of the search find, each development in
    turn with seed 0, then 1, ..., within :data:`SEARCH_STEPS` in all."""
    tried = list(tried)
    left = SEARCH_STEPS
    for seed in itertools.count():
        if not tried:
            return None
        for development in list(tried):
            if left <= 0:
                return None
            search = _Search(development, random.Random(seed), min(START_STEPS, left))
            design = search.run()
            left -= max(search.steps, 1)
            if design is not None:
                return design
            if not search.out_of_steps:
                # Searched through: this development has no design, whatever the seed.
                tried.remove(development)
    return None


def _multiplied(tried: list[Development]) -> Design | None:
    """The first design that one longer start of the search finds for a development
    with a multiplier (:func:`multiplied`): each development's first
    :data:`MULTIPLIERS_TRIED`, all of them by the size of their group, the smallest
    first, within :data:`MULTIPLIED_STEPS` in all. Where the restarts find nothing, a
    multiplier often leaves a search small enough to go through (52 players at 4
    seats, 42 at 3)."""
    candidates = sorted(
        (
            (len(_multiplier_powers(candidate)), i, j, candidate)
            for i, development in enumerate(tried)
            for j, candidate in enumerate(multiplied(development)[:MULTIPLIERS_TRIED])
        ),
        key=lambda c: c[:3],
    )
    left = MULTIPLIED_STEPS
    for *_, candidate in candidates:
        if left <= 0:
            return None
        search = _Search(candidate, random.Random(0), min(MULTIPLIED_START_STEPS, left))
        design = search.run()
        left -= max(search.steps, 1)
        if design is not None:
            return design
    return None


def _affine_for(players: int, seats: int) -> Design | None:
    """AG(d, seats) when ``players`` is a power of ``seats`` and ``seats`` a prime
    power."""
    dim, size = 0, 1
    while size < players:
        dim, size = dim + 1, size * seats
    if size != players or _prime_power(seats) is None:
        return None
    return affine(seats, dim)


@cache
def _written() -> dict[tuple[int, int], Design]:
    """The designs written out, for the sizes no family and no search reaches."""
    return {(d.players, d.seats): d for d in (listed(_ORIGINAL_GOLFERS),)}


# Finite fields.


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, m)`` with ``q == p ** m`` and ``p`` prime, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m = 0
    while q % p == 0:
        q, m = q // p, m + 1
    return (p, m) if q == 1 else None


class Field:
    """GF(q), ``q = p^m``: elements are the numbers ``0 .. q - 1``, read as polynomials
    over the integers modulo ``p`` of degree below ``m`` (digits in base ``p``, the
    lowest first), multiplied modulo the first monic irreducible polynomial of degree
    ``m`` (found by trying them in turn: it has no factor of lower degree).

    >>> gf4 = Field(4)
    >>> gf4.add[2][3], gf4.mul[2][3], gf4.mul[2][2]
    (1, 1, 3)
    """

    def __init__(self, q: int) -> None:
        power = _prime_power(q)
        if power is None:
            raise ValueError(f"no field of {q} elements: {q} is not a prime power")
        p, m = power
        self.order = q
        modulus = _irreducible(p, m)
        digits = [_digits(a, p, m) for a in range(q)]
        number = {tuple(d): a for a, d in enumerate(digits)}
        self.add = [
            [number[tuple((x + y) % p for x, y in zip(a, b, strict=True))] for b in digits]
            for a in digits
        ]
        self.mul = [[number[tuple(_times(a, b, modulus, p))] for b in digits] for a in digits]


def _digits(a: int, p: int, m: int) -> list[int]:
    return [a // p**i % p for i in range(m)]


def _times(a: list[int], b: list[int], modulus: list[int], p: int) -> list[int]:
    """``a * b`` modulo the monic ``modulus`` (coefficients lowest first, its leading
    1 included), coefficients modulo ``p``."""
    m = len(modulus) - 1
    product = [0] * (2 * m)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            product[i + j] = (product[i + j] + x * y) % p
    for top in range(2 * m - 1, m - 1, -1):
        factor = product[top]
        if factor:
            for i, c in enumerate(modulus):
                product[top - m + i] = (product[top - m + i] - factor * c) % p
    return product[:m]


def _irreducible(p: int, m: int) -> list[int]:
    """The first monic polynomial of degree ``m`` over the integers modulo ``p``
    (counting its lower coefficients in base ``p``) that no monic polynomial of
    degree 1 .. m/2 divides."""
    for low in range(p**m):
        candidate = [*_digits(low, p, m), 1]
        if all(
            _remainder(candidate, [*_digits(d, p, degree), 1], p)
            for degree in range(1, m // 2 + 1)
            for d in range(p**degree)
        ):
            return candidate
    raise AssertionError("an irreducible polynomial of every degree exists")


def _remainder(a: list[int], b: list[int], p: int) -> bool:
    """Whether the monic ``b`` leaves a remainder dividing ``a`` (coefficients lowest
    first, modulo ``p``)."""
    rest = list(a)
    for top in range(len(rest) - 1, len(b) - 2, -1):
        factor = rest[top]
        if factor:
            for i, c in enumerate(b):
                rest[top - len(b) + 1 + i] = (rest[top - len(b) + 1 + i] - factor * c) % p
    return any(rest[: len(b) - 1])


def affine(q: int, dim: int) -> Design:
    """AG(dim, q): points are vectors over GF(q), numbered in base ``q``; a matchday is
    a direction, its tables the lines along it."""
    field = Field(q)
    add, mul = field.add, field.mul
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


# Direct constructions over a field's additive group.


def four_seats_rotated(q: int, steps: int = 80_000) -> Design | None:
    """A resolvable design of ``3q + 1`` players at 4 seats (``q`` matchdays, every
    pair once) for a prime power ``q = 12t + 1``, or None if its search finds none
    within ``steps`` tables tried.

    Players ``∞`` and three rows of GF(q); one base matchday shifted by every element
    (a pair is met as often as its rows and difference are). The base matchday is
    ``{∞, 0₀, 0₁, 0₂}`` and blocks taken with their images under ``(x, r) → (εx, r +
    1)``, ``ε`` a cube root of 1: the multiplier shrinks the search to ``t`` blocks of
    one point from each of four orbits, found by backtracking (deterministic, its
    candidates in order). It reaches 40 players (q = 13) in some 55,000 steps; 112
    (q = 37) not within the default steps, which bound the time lost to a few
    seconds."""
    if q % 12 != 1 or _prime_power(q) is None:
        raise ValueError(f"{q} is not a prime power of the form 12t + 1")
    field = Field(q)
    add, mul = field.add, field.mul
    epsilon = next(e for e in range(2, q) if mul[mul[e][e]][e] == 1)
    left = steps

    def image(point: tuple[int, int], k: int) -> tuple[int, int]:
        x, row = point
        for _ in range(k):
            x = mul[epsilon][x]
        return x, (row + k) % 3

    def meets(a: tuple[int, int], b: tuple[int, int]) -> set[tuple[int, int, int]]:
        """The differences a pair and its images take up."""
        taken = set()
        for k in range(3):
            (x, r), (y, s) = sorted((image(a, k), image(b, k)), key=lambda p: p[1])
            d = add[y][_negative(field, x)]
            taken.add((r, s, min(d, _negative(field, d)) if r == s else d))
        return taken

    # {∞, 0₀, 0₁, 0₂} takes the difference 0 between any two rows.
    used = {(0, 1, 0), (0, 2, 0), (1, 2, 0)}
    blocks: list[list[tuple[int, int]]] = []

    def extend(block: list[tuple[int, int]], orbits: list[int], chosen: list[int]) -> bool:
        """Add to ``block`` (of the orbits ``chosen``) a point of a later orbit."""
        nonlocal left
        if len(block) == 4:
            blocks.append(block)
            if place([o for o in orbits if o not in chosen]):
                return True
            blocks.pop()
            return False
        for orbit in orbits[orbits.index(chosen[-1]) + 1 :]:
            for row in range(3):
                left -= 1
                if left < 0:
                    raise _OutOfSteps
                point = image((orbit, 0), row)
                taken = set().union(*(meets(p, point) for p in block))
                if len(taken) < 3 * len(block) or taken & used:
                    continue
                used.update(taken)
                if extend([*block, point], orbits, [*chosen, orbit]):
                    return True
                used.difference_update(taken)
        return False

    def place(orbits: list[int]) -> bool:
        return not orbits or extend([(orbits[0], 0)], orbits, orbits[:1])

    try:
        if not place(list(range(1, q))):
            return None
    except _OutOfSteps:
        return None
    base: list[Sequence[Point]] = [
        [(None, 0), (0, 0), (0, 1), (0, 2)],
        *([image(p, k) for p in block] for block in blocks for k in range(3)),
    ]
    return _design(field, 3, fixed=1, shifted=[base], translated=[])


Point = tuple[int | None, int]
"""A point of a field's rows: an element and its row, or ``(None, i)``: fixed player
``i``, whom shifts leave where they are."""


def kirkman_doubled(q: int) -> Design:
    """KTS(2q + 1) for a prime power ``q = 6t + 1`` (Ray-Chaudhuri and Wilson's
    construction): players ``∞`` and two rows of GF(q), one base matchday shifted by
    every element of the field (``q`` matchdays).

    With ``x`` a primitive element and ``ω = x^2t`` a cube root of 1, the base
    matchday is ``{∞, 0₀, 0₁}``, the ``t`` triples ``x^i·{1, ω, ω²}`` of row 0 (their
    differences are ``x^i(ω - 1)`` times the sixth roots of 1, so every difference
    of row 0 once), and for each ``a`` of row 0 left (``-S``, ``S`` being those
    triples' points) the triple ``{a₀, (ca)₁, (-ca)₁}`` with ``c = (1 + ω)/(ω - 1)``:
    row 1's differences ``±2ca`` cover every element once, and the differences
    across the rows, ``(c - 1)a`` and ``-(c + 1)a = -ω(c - 1)a``, range over
    ``-(c - 1)S`` and ``(c - 1)S``, everything but 0 (which ``{∞, 0₀, 0₁}`` meets)."""
    field, x, t = _cyclotomic(q)
    power = _powers(field, x)
    add, mul = field.add, field.mul
    omega = power[2 * t]
    c = mul[add[1][omega]][_inverse(field, add[omega][_negative(field, 1)])]
    points = [power[i + 2 * t * k] for i in range(t) for k in range(3)]
    rest = [_negative(field, a) for a in points]
    base: list[Sequence[Point]] = [
        [(None, 0), (0, 0), (0, 1)],
        *([(power[i + 2 * t * k], 0) for k in range(3)] for i in range(t)),
        *([(a, 0), (mul[c][a], 1), (_negative(field, mul[c][a]), 1)] for a in rest),
    ]
    return _design(field, 2, fixed=1, shifted=[base], translated=[])


def kirkman_tripled(q: int) -> Design:
    """KTS(3q) for a prime power ``q = 6t + 1``: three rows of GF(q). With ``x``
    primitive, ``Aᵢ = {(x^i)₀, (x^(i + 2t))₁, (x^(i + 4t))₂}`` meets every difference
    across two rows once as ``i`` runs over ``0 .. 6t - 1``. The base matchday is
    ``{0₀, 0₁, 0₂}``, the triples ``x^i·{1, ω, ω²}`` of each row (``i < t``: every
    difference within a row once) and the ``Aᵢ`` whose points those leave
    (``i // t`` odd), shifted by every element (``q`` matchdays); each other ``Aᵢ``
    with its ``q`` shifts is a matchday of its own (``3t`` more)."""
    field, x, t = _cyclotomic(q)
    power = _powers(field, x)

    def across(i: int) -> list[Point]:
        return [(power[(i + 2 * t * row) % (q - 1)], row) for row in range(3)]

    base: list[Sequence[Point]] = [
        [(0, row) for row in range(3)],
        *([(power[i + 2 * t * k], row) for k in range(3)] for i in range(t) for row in range(3)),
        *(across(i) for i in range(6 * t) if i // t % 2),
    ]
    translated = [across(i) for i in range(6 * t) if not i // t % 2]
    return _design(field, 3, fixed=0, shifted=[base], translated=translated)


def _design(
    field: Field,
    rows: int,
    fixed: int,
    shifted: Sequence[Sequence[Sequence[Point]]],
    translated: Sequence[Sequence[Point]],
) -> Design:
    """The design of base matchdays ``shifted`` by every element of ``field``, and of
    the ``translated`` tables each with its shifts as one matchday; players numbered
    fixed first, then row by row."""
    q = field.order

    def number(point: Point, s: int) -> int:
        x, row = point
        return row if x is None else fixed + row * q + field.add[x][s]

    def table(points: Sequence[Point], s: int) -> tuple[int, ...]:
        return tuple(sorted(number(p, s) for p in points))

    rounds = [
        tuple(sorted(table(points, s) for points in base)) for base in shifted for s in range(q)
    ]
    rounds += [tuple(sorted(table(points, s) for s in range(q))) for points in translated]
    players = fixed + rows * q
    seats = len(shifted[0][0]) if shifted else len(translated[0])
    pairs = len(rounds) * (players // seats) * seats * (seats - 1) // 2
    return Design(players, seats, tuple(rounds), complete=pairs == players * (players - 1) // 2)


def _constructed(players: int, seats: int) -> Design | None:
    """A direct construction of ``players`` at ``seats``, if one is at hand."""
    if seats == 3 and players % 2 and _kirkman_order((players - 1) // 2):
        return kirkman_doubled((players - 1) // 2)
    if seats == 3 and players % 3 == 0 and _kirkman_order(players // 3):
        return kirkman_tripled(players // 3)
    q = (players - 1) // 3
    if seats == 4 and players == 3 * q + 1 and q % 12 == 1 and _prime_power(q):
        return four_seats_rotated(q)
    return None


def _product_for(players: int, seats: int, days: int) -> Design | None:
    """The :func:`product` of two designs whose sizes multiply to ``players``, with at
    least ``days`` matchdays: the first with a resolvable transversal design over its
    players (:func:`_transversal_ring`), as long as any of its size, the second one in
    which every pair meets once; the smaller first first. None if no two are at hand."""
    for small in range(seats, players // seats + 1):
        large, rest = divmod(players, small)
        if rest or not _complete_size(large, seats) or _transversal_ring(small, seats) is None:
            continue
        # Its length is known before the designs are: build them only if it will do.
        rounds = most_rounds(small, seats) + small * most_rounds(large, seats)
        if rounds < days or small % seats:
            continue
        first = design_for(small, seats, most_rounds(small, seats))
        second = first and design_for(large, seats, most_rounds(large, seats))
        if first and second and second.complete and len(first.rounds) == most_rounds(small, seats):
            return product(first, second)
    return None


def _complete_size(players: int, seats: int) -> bool:
    """Whether a design of ``players`` at ``seats`` could meet every pair once."""
    return players % seats == 0 and (players - 1) % (seats - 1) == 0


_Ring = tuple[list[list[int]], list[list[int]], list[int]]


@cache
def _transversal_ring(u: int, seats: int) -> _Ring | None:
    """Addition and multiplication of a ring of ``u`` numbers, and ``seats`` of them
    ``e₀, e₁, ...`` that differ by units, so that the tables ``{(a + eᵢ·c, i)}`` make a
    resolvable transversal design (:func:`product`); None if none is at hand. The ring
    is the product of the fields GF(q) of the prime powers ``q`` that make up ``u`` (a
    number is its elements' numbers in mixed radix), so each ``q`` needs at least
    ``seats`` elements: ``eᵢ`` is ``i`` in each field. That is any ``u`` with no prime
    factor below ``seats``; 12, 24, 36, 48, ... at 3 seats (not 18 or 30: GF(2) has
    two elements); powers of 4 and their products with such ``u`` at 4."""
    factors = []
    rest = u
    while rest > 1:
        p = next(d for d in range(2, rest + 1) if rest % d == 0)
        q = 1
        while rest % p == 0:
            rest, q = rest // p, q * p
        if q < seats:
            return None
        factors.append(Field(q))
    elements = list(itertools.product(*(range(f.order) for f in factors)))
    number = {e: i for i, e in enumerate(elements)}

    def table(op: str) -> list[list[int]]:
        return [
            [
                number[tuple(getattr(f, op)[x][y] for f, x, y in zip(factors, a, b, strict=True))]
                for b in elements
            ]
            for a in elements
        ]

    return table("add"), table("mul"), [number[(i,) * len(factors)] for i in range(seats)]


def product(first: Design, second: Design) -> Design:
    """The product of two designs at the same seats, the second one in which every
    pair meets once: ``u·v`` players ``(a, x)``, ``a`` of ``first``'s ``u`` and ``x``
    of ``second``'s ``v``, over ``len(first.rounds) + u·len(second.rounds)``
    matchdays; every pair meets once when they also do in ``first``.

    Each matchday of ``first`` is played in every copy ``x`` at once (pairs with the
    same ``x``); then for each matchday of ``second`` and each ``c`` of the ring of
    :func:`_transversal_ring`, each table ``{x₀, ..., x_(k-1)}`` of it becomes the
    tables ``{(a + eᵢ·c, xᵢ)}`` for every ``a``: two players ``(a, xᵢ)`` and ``(b,
    xⱼ)`` meet at the one ``c`` with ``(eᵢ - eⱼ)·c = a - b``. With ``first`` of 3
    players it is the tripling KTS(v) -> KTS(3v); in general KTS(u), KTS(v) ->
    KTS(uv) (45, 99, 117, 135, 153, 171, ... players) and NKTS(u), KTS(v) ->
    NKTS(uv) for a ring of ``u`` (72 = 24·3, 108 = 36·3, 144 = 48·3, ...); the
    4-seat designs of 4 and ``v`` players give ``4v`` (112 from 28, 160 from 40, 208
    from 52)."""
    u, v, seats = first.players, second.players, first.seats
    ring = _transversal_ring(u, seats)
    if ring is None or second.seats != seats or not second.complete:
        raise ValueError(f"no product of {u} and {v} players at {seats} seats")
    add, mul, e = ring

    def player(a: int, x: int) -> int:
        return x * u + a

    rounds = [
        tuple(sorted(tuple(player(a, x) for a in table) for x in range(v) for table in tables))
        for tables in first.rounds
    ]
    for tables in second.rounds:
        for c in range(u):
            rounds.append(
                tuple(
                    sorted(
                        tuple(sorted(player(add[a][mul[e[i]][c]], x) for i, x in enumerate(table)))
                        for table in tables
                        for a in range(u)
                    )
                )
            )
    return Design(u * v, seats, tuple(rounds), complete=first.complete)


def _kirkman_order(q: int) -> bool:
    """Whether ``q`` is a prime power of the form ``6t + 1``."""
    return q % 6 == 1 and _prime_power(q) is not None


def _cyclotomic(q: int) -> tuple[Field, int, int]:
    """GF(q), its first primitive element, and ``t = (q - 1) / 6``."""
    if not _kirkman_order(q):
        raise ValueError(f"{q} is not a prime power of the form 6t + 1")
    field = Field(q)
    x = next(x for x in range(2, q) if len(set(_powers(field, x))) == q - 1)
    return field, x, (q - 1) // 6


def _powers(field: Field, x: int) -> list[int]:
    """``x^0 .. x^(q - 2)``."""
    power = [1]
    for _ in range(field.order - 2):
        power.append(field.mul[power[-1]][x])
    return power


def _negative(field: Field, a: int) -> int:
    return field.add[a].index(0)


def _inverse(field: Field, a: int) -> int:
    return field.mul[a].index(1)


# Developments.


@dataclass(frozen=True, slots=True)
class Development:
    """Where to look for a design: ``fixed`` players (numbered first), then ``rows``
    copies of the integers modulo ``modulus``; ``base_rounds`` base matchdays, each
    unchanged by a shift of ``period`` (which divides ``modulus``) and shifted by
    ``0 .. period - 1``. With as many rows as seats and no fixed players, also
    ``transversals`` matchdays that shifting leaves as they are: each the shifts of one
    table of a player from each row. The design is also to be unchanged by the map
    ``(x, row) -> (multiplier·x, row + turn)`` (fixed players stay), which must be one
    to one: ``multiplier`` prime to ``modulus``. With ``fixed_table`` (as many fixed
    players as seats, and ``seats`` dividing ``modulus``), one more matchday that
    shifting leaves as it is: the fixed players at one table, and in each row the
    tables ``{x, x + modulus/seats, ...}``."""

    seats: int
    modulus: int
    rows: int
    fixed: int
    period: int
    base_rounds: int = 1
    transversals: int = 0
    multiplier: int = 1
    turn: int = 0
    fixed_table: bool = False

    @property
    def players(self) -> int:
        return self.fixed + self.rows * self.modulus

    @property
    def rounds(self) -> int:
        return self.period * self.base_rounds + self.transversals + self.fixed_table

    def fixed_table_round(self) -> tuple[tuple[int, ...], ...]:
        """The matchday of the fixed players' table (``fixed_table``)."""
        step = self.modulus // self.seats
        rows = (
            tuple(self.fixed + row * self.modulus + x + k * step for k in range(self.seats))
            for row in range(self.rows)
            for x in range(step)
        )
        return (tuple(range(self.fixed)), *rows)


SEARCH_STEPS = 60_000
"""Tables tried, at most, in all of :func:`design_for`'s searches for one size: some
seconds where nothing is found, and the same answer on any machine."""

START_STEPS = 1_000
"""Tables tried per start of a search before it starts afresh with another seed: the
searches that succeed mostly do so early, and the others wander long."""

DEVELOPMENTS_TRIED = 4
"""The likeliest developments of a size that :func:`design_for` tries, in turn."""

FIXED_TABLE_STEPS = 150_000
"""Tables tried, at most, in the one start of the search for a Kirkman triple system
with the fixed players' table (:func:`_with_fixed_table`): its designs are found late
or not at all, and restarts do worse."""

LONG_START_STEPS = 100_000
"""Tables tried, at most, in the one long start of the search for each development
with transversals (:func:`_long_started`), after the restarts and the multipliers."""

MULTIPLIED_STEPS = 40_000
"""Tables tried, at most, in all of :func:`design_for`'s searches with a multiplier for
one size, after the restarts without."""

MULTIPLIED_START_STEPS = 3_000
"""Tables tried per development with a multiplier: the search is smaller, and goes
through or succeeds in a few thousand steps where it succeeds at all."""

MULTIPLIERS_TRIED = 6
"""The smallest groups of multipliers tried per development (:func:`multiplied`)."""

MOST_BASE_ROUNDS = 3
"""The most base matchdays of a development tried."""


def developments(players: int, seats: int, days: int) -> list[Development]:
    """The developments of ``players`` at ``seats`` with at least ``days`` matchdays
    (and no more than could fit), the likeliest first: one base matchday before
    several, then the fewest rows (the largest group)."""
    longest = most_rounds(players, seats)
    complete = players - 1 == longest * (seats - 1) and players % seats == 0
    found = []
    for fixed in range(seats):
        rest = players - fixed
        if rest <= 0:
            continue
        for modulus in range(1, rest + 1):
            if rest % modulus:
                continue
            for part in (1, 2, 3):
                if modulus % part:
                    continue
                # A fixed player's table is unchanged by a shift of the period: the
                # others at it come in whole orbits of the shift.
                if fixed and (seats - fixed) % part:
                    continue
                period = modulus // part
                # Every pair meeting once: a pair half the modulus apart in a row is
                # met only at a table that a shift of half leaves as it is.
                if complete and part == 1 and modulus % 2 == 0:
                    continue
                rows = rest // modulus
                base_rounds = -(-days // period)
                # Many base matchdays of a small group leave the search little to go
                # by: hardly better than a search of the whole schedule.
                if base_rounds * period <= longest and base_rounds <= MOST_BASE_ROUNDS:
                    found.append(Development(seats, modulus, rows, fixed, period, base_rounds))
                if rows == seats and not fixed and part == 1 and days > period:
                    found.append(
                        Development(
                            seats, modulus, rows, fixed, period, 1, transversals=days - period
                        )
                    )
    return sorted(
        found, key=lambda d: (d.base_rounds, d.rows, d.fixed, d.modulus // d.period, d.transversals)
    )


def multiplied(development: Development) -> list[Development]:
    """``development`` with each multiplier that may shrink its search: ``(x, row) ->
    (m * x, row + turn)`` for ``m`` prime to the modulus and any turn of the rows, one
    for each group of maps they generate (the design is then unchanged by the group,
    and the search seats a table with all its images at once), the smallest groups
    first (a large group leaves few designs, and often none)."""
    modulus, rows = development.modulus, development.rows
    found: dict[frozenset[tuple[int, int]], Development] = {}
    for m in range(1, modulus):
        if math.gcd(m, modulus) != 1:
            continue
        for turn in range(rows):
            # The group's maps, each named by its multiplier and turn.
            group = {(1 % modulus, 0)}
            power = (m % modulus, turn)
            while power not in group:
                group.add(power)
                power = (power[0] * m % modulus, (power[1] + turn) % rows)
            if len(group) > 1:
                key = frozenset(group)
                found.setdefault(key, dataclasses.replace(development, multiplier=m, turn=turn))
    return [found[key] for key in sorted(found, key=len)]


class _OutOfSteps(Exception):
    pass


def develop(development: Development, steps: int = START_STEPS, seed: int = 0) -> Design | None:
    """A design from ``development``'s base matchdays, found by search within ``steps``
    tables tried, or None.

    Backtracking, matchday by matchday, table by table: a free player is seated with
    free players whose differences with it (and each other) are not yet used up; a
    table's shifts then take its differences (a table that some shifts leave unchanged
    takes fewer). Candidates are tried in an order drawn from ``seed``."""
    return _Search(development, random.Random(seed), steps).run()


_Differences = tuple[list[list[int]], list[list[int]], list[int], list[list[tuple[int, int]]]]


@cache
def _differences(n: int, fixed: int, modulus: int) -> _Differences:
    """Where each shift takes each player, the orbit of each pair under the shifts
    (its difference), how many pairs each orbit holds, and for each orbit the players
    in its pairs with a mask of their partners in it (what closing or reopening the
    orbit changes, a player at a time): the same for every start of a search of a
    size, so worked out once (the searches only read them)."""
    # Player p shifted by s: fixed players stay, the others move along their row.
    shifted = [
        [p if p < fixed else p - (p - fixed) % modulus + (p - fixed + s) % modulus
         for p in range(n)]
        for s in range(modulus)
    ]  # fmt: skip
    orbit: dict[tuple[int, ...], int] = {}
    orbit_of = [[0] * n for _ in range(n)]
    capacity: list[int] = []
    partners: list[dict[int, int]] = []
    for a, b in itertools.combinations(range(n), 2):
        pair_orbit = {(x, y) if x < y else (y, x) for x, y in ((row[a], row[b]) for row in shifted)}
        index = orbit.setdefault(min(pair_orbit), len(orbit))
        if index == len(capacity):
            capacity.append(len(pair_orbit))
            partners.append({})
        partners[index][a] = partners[index].get(a, 0) | 1 << b
        partners[index][b] = partners[index].get(b, 0) | 1 << a
        orbit_of[a][b] = orbit_of[b][a] = index
    return shifted, orbit_of, capacity, [list(masks.items()) for masks in partners]


class _Search:
    """One start of :func:`develop`'s search.

    The players still to seat on the base matchday and, for each player, those they
    may still meet (their difference not used up) are bit masks; each table is built
    around the free player with the fewest others left to meet, so a dead end shows
    early."""

    def __init__(self, development: Development, rng: random.Random, budget: int) -> None:
        self.d = development
        self.rng = rng
        self.budget = budget
        self.steps = 0
        self.out_of_steps = False
        n, fixed, modulus = development.players, development.fixed, development.modulus
        self.everyone = (1 << n) - 1
        self.shifted, self.orbit_of, self.capacity, self.partners = _differences(n, fixed, modulus)
        self.used = [0] * len(self.capacity)
        self.powers = _multiplier_powers(development)
        # Whom each player may still meet.
        self.open = [self.everyone & ~(1 << p) for p in range(n)]
        if development.fixed_table:
            # Its pairs' differences are taken before the search starts: those of the
            # fixed players' table and of one table a row.
            tables = development.fixed_table_round()
            step = modulus // development.seats
            for table in (tables[0], *tables[1::step]):
                for a, b in itertools.combinations(table, 2):
                    self._close(self.orbit_of[a][b])
        self.rounds: list[list[tuple[int, ...]]] = []
        self.transversals: list[tuple[int, ...]] = []

    def run(self) -> Design | None:
        try:
            found = self._transversal(self.d.transversals)
        except _OutOfSteps:
            self.out_of_steps = True
            return None
        if not found:
            return None
        d = self.d
        rounds = tuple(
            tuple(sorted(tuple(sorted(self.shifted[s][p] for p in table)) for table in base))
            for base in self.rounds
            for s in range(d.period)
        ) + tuple(
            tuple(
                sorted(tuple(sorted(self.shifted[s][p] for p in table)) for s in range(d.modulus))
            )
            for table in self.transversals
        )
        if d.fixed_table:
            rounds += (d.fixed_table_round(),)
        complete = d.rounds * (d.players // d.seats) * d.seats * (d.seats - 1) == d.players * (
            d.players - 1
        )
        return Design(d.players, d.seats, rounds, complete)

    def _transversal(self, left: int) -> bool:
        """Seat the matchdays that shifting leaves as they are, then the base ones: each
        the shifts of a table of the first player of the first row and one player of
        each other row (any such table is a shift of one of these)."""
        if not left:
            return self._place(self.everyone)
        modulus = self.d.modulus
        everyone_else = sum(1 << p for p in range(modulus, self.d.players))
        for table in self._candidates(0, everyone_else & self.open[0]):
            if len({p // modulus for p in table}) < len(table):
                continue
            placed = self._take(table, self.everyone, period=1)
            if placed is None:
                continue
            _, charges, images, closed = placed
            # Each image by the multiplier is a matchday of its own.
            if len(images) <= left:
                self.transversals.extend(images)
                if self._transversal(left - len(images)):
                    return True
                del self.transversals[-len(images) :]
            self._undo(charges, closed)
        return False

    def _place(self, free: int) -> bool:
        if not free:
            if len(self.rounds) == self.d.base_rounds:
                return True
            self.rounds.append([])
            if self._place(self.everyone):
                return True
            self.rounds.pop()
            return False
        if not self.rounds:
            self.rounds.append([])
        open_ = self.open
        first = min(_bits(free), key=lambda p: (open_[p] & free).bit_count())
        for table in self._candidates(first, free & open_[first]):
            placed = self._take(table, free)
            if placed is None:
                continue
            taken, charges, images, closed = placed
            self.rounds[-1].extend(images)
            if self._place(free & ~taken):
                return True
            del self.rounds[-1][-len(images) :]
            self._undo(charges, closed)
        return False

    def _candidates(self, first: int, partners: int) -> Iterator[tuple[int, ...]]:
        """Tables of ``first`` and free players it and each other may still meet, in an
        order drawn from the seed."""
        open_ = self.open

        def extend(table: tuple[int, ...], left: int) -> Iterator[tuple[int, ...]]:
            if len(table) == self.d.seats:
                yield table
                return
            options = list(_bits(left))
            self.rng.shuffle(options)
            for p in options:
                self.steps += 1
                if self.steps > self.budget:
                    raise _OutOfSteps
                # Later players come after p, so each table is tried once.
                yield from extend((*table, p), left & open_[p] & ~((2 << p) - 1))

        return extend((first,), partners)

    def _take(
        self, table: tuple[int, ...], free: int, period: int | None = None
    ) -> tuple[int, list[tuple[int, int]], list[tuple[int, ...]], list[int]] | None:
        """Seat ``table``, its images by the multiplier and their shifts by the period
        in the base matchday, charging their differences; the players taken, the
        charges, the tables and the differences used up, or None if they do not fit.
        ``period``: the shift that leaves the matchday as it is (the development's,
        unless given)."""
        taken = 0
        charges: dict[int, int] = {}
        seen: set[frozenset[frozenset[int]]] = set()
        tables: list[tuple[int, ...]] = []
        for power in self.powers:
            image = tuple(power[p] for p in table)
            orbit = self._orbit(image, period)
            if orbit is None:
                return None
            seated, charged = orbit
            if seated in seen:
                continue
            seen.add(seated)
            if period == 1:
                # A matchday that shifting leaves as it is: the shifts seat everyone.
                tables.append(image)
            else:
                for seat in seated:
                    for x in seat:
                        if not free >> x & 1 or taken >> x & 1:
                            return None
                        taken |= 1 << x
                    tables.append(tuple(seat))
            for o, c in charged.items():
                charges[o] = charges.get(o, 0) + c
        if any(self.used[o] + c > self.capacity[o] for o, c in charges.items()):
            return None
        closed = []
        for o, c in charges.items():
            self.used[o] += c
            if self.used[o] == self.capacity[o]:
                closed.append(o)
                self._close(o)
        return taken, list(charges.items()), tables, closed

    def _close(self, orbit: int) -> None:
        """Mark the pairs of ``orbit`` as met for good: it is used up."""
        self.used[orbit] = self.capacity[orbit]
        open_ = self.open
        for p, mask in self.partners[orbit]:
            open_[p] &= ~mask

    def _orbit(
        self, table: tuple[int, ...], period: int | None
    ) -> tuple[frozenset[frozenset[int]], dict[int, int]] | None:
        """``table``'s shifts by the period (the tables it seats in the base matchday)
        and the differences its shifts by all of the modulus take, or None if a shift
        that leaves it as it is moves the base matchday."""
        d = self.d
        period = d.period if period is None else period
        shifted = self.shifted
        key = frozenset(table)
        # Only a shift taking one of its players onto another of its row can leave the
        # table as it is.
        finite = [p for p in table if p >= d.fixed]
        if not finite:
            return None
        p = finite[0]
        row = (p - d.fixed) // d.modulus
        stabiliser = [
            s
            for s in {(q - p) % d.modulus for q in finite if (q - d.fixed) // d.modulus == row}
            if frozenset(shifted[s][x] for x in table) == key
        ]
        # A shift that leaves the table as it is but moves the base matchday would seat
        # the same table on two matchdays.
        if any(s % period for s in stabiliser):
            return None
        if period == 1:
            # A matchday of all the shifts (a transversal's): named by the shift that
            # takes its player of the first row to 0.
            s = -(min(finite) - d.fixed) % d.modulus
            seated = frozenset((frozenset(shifted[s][x] for x in table),))
        else:
            seated = frozenset(
                frozenset(shifted[s][x] for x in table) for s in range(0, d.modulus, period)
            )
        # Its shifts by all of the modulus are each on one matchday.
        each = d.modulus // len(stabiliser)
        charges: dict[int, int] = {}
        for a, b in itertools.combinations(table, 2):
            o = self.orbit_of[a][b]
            charges[o] = charges.get(o, 0) + each
        return seated, charges

    def _undo(self, charges: list[tuple[int, int]], closed: list[int]) -> None:
        for o, c in charges:
            self.used[o] -= c
        open_ = self.open
        for o in closed:
            for p, mask in self.partners[o]:
                open_[p] |= mask


def _multiplier_powers(d: Development) -> list[list[int]]:
    """The powers of ``d``'s multiplier, the identity first, as lists of where each
    player goes: ``(x, row) -> (multiplier * x, row + turn)``, fixed players fixed."""
    n, fixed, modulus = d.players, d.fixed, d.modulus

    def image(p: int) -> int:
        if p < fixed:
            return p
        row, x = divmod(p - fixed, modulus)
        return fixed + (row + d.turn) % d.rows * modulus + d.multiplier * x % modulus

    once = [image(p) for p in range(n)]
    powers = [list(range(n))]
    while True:
        power = [once[p] for p in powers[-1]]
        if power == powers[0]:
            return powers
        powers.append(power)


def _bits(mask: int) -> Iterator[int]:
    """The positions of the bits set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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
    players = sum(len(table) for table in rounds[0])
    seats = len(rounds[0][0])
    pairs_met = len(rounds) * (players // seats) * seats * (seats - 1) // 2
    return Design(players, seats, tuple(rounds), complete=pairs_met == players * (players - 1) // 2)


# 32 players at 4 seats over 10 matchdays, the one size written out: no family holds
# it (it is a packing, 16 pairs never meeting, not a design) and the developments'
# search does not reach it within its steps, with or without a multiplier (the social
# golfer literature's searches take minutes on it). No product gives it: 8 players at
# 4 seats have no 2 matchdays with no pair twice, and the table of 4 times 8 players
# has 5. Nor do two copies of the affine plane of order 4 with 2 matchdays inside
# each and 8 that pair a difference of one copy with one of the other (the 8
# differences of the other copy would have to add up to 0 in GF(4)², and 8 of the 9
# in three directions add up to the ninth). The schedule of the Wolfram Demonstrations
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
