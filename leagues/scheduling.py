"""A division's season schedule: matchdays of fixture tables, and byes.

Pure Python (no Django), so a season's start, its preview, the tests and the benchmark
all call the same function. :func:`schedule_season` takes the division's players
(any hashable ids, in seed order), the seats per table, and optionally the number of
matchdays, the games per fixture and a random seed; the same arguments always give the
same :class:`Schedule`.

>>> season = schedule_season(["ann", "bob", "cy", "dee"], seats=2, seed=1)
>>> len(season.matchdays), season.games_per_fixture
(3, 2)
>>> season.matchdays[0].fixtures[0].players
('dee', 'bob')
>>> season.meeting_counts()["ann"]
{'ann': 0, 'bob': 1, 'cy': 1, 'dee': 1}

The rules it keeps:

**Every player sits at one table or has a bye, every matchday.** Tables are always
full, ``seats`` players each; the ``n % seats`` players left over have a bye. Short
tables (10 players at 4 seats as 4 + 3 + 3 rather than 4 + 4 and two byes) are not
made: standings add up scores across fixtures, and a game's score depends on how many
sit at it (a zero-sum total, or placement points such as 4/2/1/0, spread over three
players is not the same as over four), so every fixture of a division is played at the
same size. Byes go round in a fixed order drawn from the seed, ``n % seats`` places a
matchday, so at any point of the season bye counts differ by at most one.

**Two seats: a round robin by the circle method.** Everyone meets everyone once in
``n - 1`` matchdays (``n`` when ``n`` is odd, each player having one bye). More
matchdays repeat the cycle; fewer cut it short. Either way every pair meets ``r`` or
``r + 1`` times.

**Three or four seats: pairs meet as evenly as possible.** Where a schedule in which
no pair meets twice is built for the division's size and length (no byes, and a design
of :mod:`leagues.designs`: Kirkman sizes of 6t + 3 players and nearly Kirkman sizes
of 6t from 18 at 3 seats, 12t + 4 and powers of 4 at 4 seats, every one up to 64
players and many beyond, and whatever other size its bounded search
reaches), it is used, its players relabelled by the seed; a longer season repeats a
design in which every pair meets once. Otherwise each matchday's tables are built
greedily from the meetings so far (a player joins the table whose members cost
least to meet again), improved by swapping players between tables; then the whole
season is annealed, swapping players between tables of one matchday or swapping two
players' byes on two matchdays (see :meth:`_Meetings.polish` for the bound on the
work). A pair meeting ``v`` times costs ``COST_BASE ** abs(v - mean)``: convex, so
lowering the sum evens meetings out, and steep, so one pair far from the mean outweighs
several near it. Finding the most even season is a hard problem (the "social golfer"
problem) and the search does not promise the best one; what it reaches was measured
over 4-40 players at 3 and 4 seats, a dozen seeds each: in the default season the
most and the fewest meetings of any two players differ by at most
:data:`MEETING_SPREAD` (2), in seasons of any length up to twice the default by at
most :data:`MEETING_SPREAD_LONG`. Two can be forced: 6 players at 3 seats over 3
matchdays (two tables of three each time) cannot let all 15 pairs meet, as each
later table holds two players who sat together on the first matchday; 5 players at 4
seats over 2 matchdays leave the two players with a bye never meeting while the other
three meet twice.

**Starts are balanced.** In a fixture of ``g`` games the player in seat ``s`` starts
games ``s``, ``s + seats``, ...; each fixture's seat order is chosen to keep every
player's starts close to their share, ``fixtures played * g / seats``, and then their
first seats close to ``fixtures played / seats``: greedily matchday by matchday, then
settled over the season. With the default of one game per seat everyone starts once a
fixture. At 2 seats every player sits first in half their fixtures, rounded either way
(:func:`_orient` proves it), so starts are within half a game of the share; at 3 and 4
seats within one and a half (measured, as above; usually within one).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from leagues.designs import designed_tables

P = TypeVar("P", bound=Hashable)

SEATS = (2, 3, 4)
"""The table sizes a league plays at."""

MEETING_SPREAD = 2
"""The most that two pairs' meeting counts differ by at 3 or 4 seats in the default
season (measured, see the module's docstring); at 2 seats 0, a round robin."""

MEETING_SPREAD_LONG = 3
"""The same for seasons of any length up to twice the default; at 2 seats 1."""


class ScheduleError(ValueError):
    """Arguments no schedule can be made from."""


@dataclass(frozen=True, slots=True)
class Fixture(Generic[P]):
    """One table of a matchday: its players in seat order, and its games.

    Seat ``s`` starts games ``s``, ``s + seats``, ... (counted from 0).

    >>> fixture = Fixture(("ann", "bob", "cy"), games=4)
    >>> fixture.starters()
    ('ann', 'bob', 'cy', 'ann')
    >>> fixture.starts("ann"), fixture.starts("cy")
    (2, 1)
    """

    players: tuple[P, ...]
    games: int

    def starters(self) -> tuple[P, ...]:
        """Who starts each game of the fixture, in game order."""
        return tuple(self.players[game % len(self.players)] for game in range(self.games))

    def starts(self, player: P) -> int:
        """How many games of the fixture ``player`` starts."""
        return self.starters().count(player)


@dataclass(frozen=True, slots=True)
class Matchday(Generic[P]):
    """The fixtures of one matchday (numbered from 1) and who has a bye."""

    number: int
    fixtures: tuple[Fixture[P], ...]
    byes: tuple[P, ...]


@dataclass(frozen=True, slots=True)
class Schedule(Generic[P]):
    """A division's season: its players in seed order and its matchdays."""

    players: tuple[P, ...]
    seats: int
    games_per_fixture: int
    matchdays: tuple[Matchday[P], ...]

    def fixtures(self) -> Iterator[Fixture[P]]:
        """Every fixture of the season, matchday by matchday."""
        for matchday in self.matchdays:
            yield from matchday.fixtures

    def meeting_counts(self) -> dict[P, dict[P, int]]:
        """How many fixtures each pair of players shares: a symmetric matrix, in seed
        order, with zeros on the diagonal."""
        counts = {a: dict.fromkeys(self.players, 0) for a in self.players}
        for fixture in self.fixtures():
            for a, b in itertools.permutations(fixture.players, 2):
                counts[a][b] += 1
        return counts

    def bye_counts(self) -> dict[P, int]:
        """Byes per player over the season."""
        return self._tally(player for matchday in self.matchdays for player in matchday.byes)

    def fixture_counts(self) -> dict[P, int]:
        """Fixtures per player over the season."""
        return self._tally(player for fixture in self.fixtures() for player in fixture.players)

    def start_counts(self) -> dict[P, int]:
        """Games started per player over the season."""
        return self._tally(player for fixture in self.fixtures() for player in fixture.starters())

    def first_seat_counts(self) -> dict[P, int]:
        """Fixtures per player in which they sit first (and start the first game)."""
        return self._tally(fixture.players[0] for fixture in self.fixtures())

    def _tally(self, occurrences: Iterable[P]) -> dict[P, int]:
        """How often each player of the season occurs in ``occurrences``, in seed order
        (zero for those who do not)."""
        counts = dict.fromkeys(self.players, 0)
        for player in occurrences:
            counts[player] += 1
        return counts


def default_matchdays(players: int, seats: int, meetings: int = 1) -> int:
    """The matchdays in which every pair can meet ``meetings`` times on average.

    At 2 seats that is ``meetings`` round robins; at 3 or 4 seats, the pairs to meet
    over the pairs that the full tables of one matchday seat, rounded up.

    >>> default_matchdays(8, 2), default_matchdays(7, 2), default_matchdays(8, 2, meetings=2)
    (7, 7, 14)
    >>> default_matchdays(50, 4), default_matchdays(50, 3), default_matchdays(9, 3)
    (18, 26, 4)
    """
    _check_sizes(players, seats)
    if meetings < 1:
        raise ScheduleError(f"a season needs every pair to meet at least once, not {meetings}")
    if seats == 2:
        return meetings * (players - 1 if players % 2 == 0 else players)
    pairs = players * (players - 1) // 2
    pairs_per_matchday = (players // seats) * seats * (seats - 1) // 2
    return math.ceil(meetings * pairs / pairs_per_matchday)


def schedule_season(
    players: Sequence[P],
    seats: int,
    matchdays: int | None = None,
    games_per_fixture: int | None = None,
    seed: int | str = 0,
) -> Schedule[P]:
    """The season's schedule for a division (see the module's docstring).

    ``matchdays`` defaults to :func:`default_matchdays`, ``games_per_fixture`` to
    ``seats`` (everyone starts once per fixture).

    >>> season = schedule_season(range(10), seats=4, seed="autumn")
    >>> len(season.matchdays), [len(day.fixtures) for day in season.matchdays][:3]
    (4, [2, 2, 2])
    >>> sorted(season.bye_counts().values())
    [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> set(season.start_counts().values()) <= {3, 4}
    True
    >>> schedule_season(["ann", "ann", "bob"], seats=2)
    Traceback (most recent call last):
    ...
    leagues.scheduling.ScheduleError: a player is listed twice: 'ann'
    """
    roster = tuple(players)
    n = len(roster)
    _check_sizes(n, seats)
    if len(set(roster)) != n:
        twice = next(p for i, p in enumerate(roster) if p in roster[:i])
        raise ScheduleError(f"a player is listed twice: {twice!r}")
    days = default_matchdays(n, seats) if matchdays is None else matchdays
    games = seats if games_per_fixture is None else games_per_fixture
    if days < 1:
        raise ScheduleError(f"a season has at least one matchday, not {days}")
    if games < 1:
        raise ScheduleError(f"a fixture has at least one game, not {games}")
    rng = random.Random(seed)
    if seats == 2:
        tables, byes = _round_robin(n, days, rng)
    else:
        byes = _bye_rotation(n, seats, days, rng)
        tables = designed_tables(n, seats, days, rng) or _group_season(n, seats, byes, rng)
    seated = _seat(n, seats, games, tables)
    return Schedule(
        players=roster,
        seats=seats,
        games_per_fixture=games,
        matchdays=tuple(
            Matchday(
                number=day + 1,
                fixtures=tuple(
                    Fixture(tuple(roster[i] for i in table), games) for table in seated[day]
                ),
                byes=tuple(roster[i] for i in sorted(byes[day])),
            )
            for day in range(days)
        ),
    )


def _check_sizes(players: int, seats: int) -> None:
    if seats not in SEATS:
        raise ScheduleError(f"a table has 2, 3 or 4 seats, not {seats}")
    if players < seats:
        raise ScheduleError(f"{players} players cannot fill a table of {seats}")


Tables = list[list[list[int]]]
"""Per matchday, its tables; each a list of player indices (into the roster)."""


def _round_robin(n: int, days: int, rng: random.Random) -> tuple[Tables, list[list[int]]]:
    """The circle method: one player stays put (or the empty place, when ``n`` is odd:
    whoever is paired with it has the bye), the others turn one place a matchday."""
    circle: list[int | None] = list(range(n))
    rng.shuffle(circle)
    if n % 2:
        circle.append(None)
    size = len(circle)
    tables: Tables = []
    byes: list[list[int]] = []
    for day in range(days):
        turn = day % (size - 1)
        order = [circle[0], *(circle[1 + (i - turn) % (size - 1)] for i in range(size - 1))]
        day_tables = []
        day_byes = []
        for i in range(size // 2):
            a, b = order[i], order[size - 1 - i]
            if a is None or b is None:
                day_byes.append(b if a is None else a)
            else:
                day_tables.append([a, b])
        tables.append(day_tables)
        byes.append([p for p in day_byes if p is not None])
    return tables, byes


def _bye_rotation(n: int, seats: int, days: int, rng: random.Random) -> list[list[int]]:
    """Byes taken in turn along an order drawn from the seed, ``n % seats`` a matchday:
    any stretch of matchdays hands out byes to players at most one apart in count."""
    order = list(range(n))
    rng.shuffle(order)
    per_day = n % seats
    return [[order[(day * per_day + i) % n] for i in range(per_day)] for day in range(days)]


def _group_season(n: int, seats: int, byes: list[list[int]], rng: random.Random) -> Tables:
    """Tables for every matchday such that pairs meet as evenly as possible."""
    days = len(byes)
    tables_per_day = n // seats
    mean = days * tables_per_day * seats * (seats - 1) / (n * (n - 1))
    meetings = _Meetings(n, days, mean)
    season: Tables = []
    for day_byes in byes:
        sitting_out = set(day_byes)
        playing = [p for p in range(n) if p not in sitting_out]
        rng.shuffle(playing)
        tables = meetings.greedy_tables(playing, seats)
        meetings.improve(tables, passes=_DAY_PASSES)
        season.append(tables)
    meetings.polish(season, byes, rng)
    return season


_DAY_PASSES = 4
"""Sweeps of improving swaps over each new matchday's tables."""

COST_BASE = 8
"""How steeply a pair's cost grows with its distance from the mean meetings."""


class _Meetings:
    """How often each pair has met, and the cost of it: a pair meeting ``v`` times
    costs ``COST_BASE ** abs(v - centre)``, ``centre`` being the mean meetings rounded
    down. The cost is convex, so lowering the sum evens out the meetings, and steep,
    so one pair far from the centre outweighs several one step off it."""

    def __init__(self, n: int, days: int, mean: float) -> None:
        self.met = [[0] * n for _ in range(n)]
        cost = [round(1024 * COST_BASE ** abs(v - mean)) for v in range(days + 2)]
        # up[v]: the cost of a pair's meeting v + 1 times rather than v.
        self.up = [cost[v + 1] - cost[v] for v in range(days + 1)]
        self.step_cost = float(min(abs(u) for u in self.up[: math.floor(mean) + 2]))

    def greedy_tables(self, playing: list[int], seats: int) -> list[list[int]]:
        """Fill tables one at a time, each with the players who cost least to add to
        it; their meetings are counted."""
        met, up = self.met, self.up
        left = list(playing)
        tables = []
        while left:
            table = [left.pop(0)]
            while len(table) < seats:
                best = min(range(len(left)), key=lambda i: sum(up[met[left[i]][x]] for x in table))
                table.append(left.pop(best))
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
            tables.append(table)
        return tables

    def gain(self, a: int, b: int, table_a: list[int], table_b: list[int]) -> int:
        """How much swapping ``a`` (at ``table_a``) with ``b`` (at ``table_b``) lowers
        the cost: ``a`` leaves its table-mates for ``b``'s, and ``b`` the other way."""
        up = self.up
        row_a, row_b = self.met[a], self.met[b]
        gain = 0
        for x in table_a:
            if x != a:
                gain += up[row_a[x] - 1] - up[row_b[x]]
        for y in table_b:
            if y != b:
                gain += up[row_b[y] - 1] - up[row_a[y]]
        return gain

    def swap(self, a: int, b: int, table_a: list[int], table_b: list[int]) -> None:
        """``a`` (at ``table_a``) and ``b`` (at ``table_b``) change places; their
        meetings are counted."""
        self.substitute(b, a, table_a)
        self.substitute(a, b, table_b)

    def improve(self, tables: list[list[int]], passes: int) -> None:
        """Swap players between the tables of one matchday while a swap lowers the
        cost: at most ``passes`` sweeps over the pairs of tables, the best swap of
        each pair of tables a sweep."""
        for _ in range(passes):
            swapped = False
            for table_a, table_b in itertools.combinations(tables, 2):
                gain, a, b = max(
                    (self.gain(a, b, table_a, table_b), a, b) for a in table_a for b in table_b
                )
                if gain > 0:
                    self.swap(a, b, table_a, table_b)
                    swapped = True
            if not swapped:
                return

    def polish(self, season: Tables, byes: list[list[int]], rng: random.Random) -> None:
        """Simulated annealing over the whole season: two players of one matchday swap
        tables, or two players swap their byes on two matchdays (so bye counts stay);
        a change that lowers the cost is kept, one that raises it is kept with a
        chance that shrinks as the search cools, so it climbs out of local minima.

        The work is bounded: :data:`_POLISH_TRIES_PER_TABLE` tries per table of the
        season, and at least :data:`_POLISH_MIN_TRIES`; each try is ``O(seats)``
        (a bye swap ``O(n)``, to find the tables).
        """
        days = len(season)
        with_byes = [d for d in range(days) if byes[d]]
        with_tables = [d for d in range(days) if len(season[d]) > 1]
        if not with_tables and not (with_byes and days > 1):
            return
        tries = max(_POLISH_MIN_TRIES, _POLISH_TRIES_PER_TABLE * sum(map(len, season)))
        for step in range(tries):
            # Cooling from the cost of one step off the mean to nothing.
            temperature = self.step_cost * (1 - step / tries)
            if with_byes and (not with_tables or rng.random() < 0.5):
                self._try_bye_swap(season, byes, rng, temperature)
                continue
            tables = season[rng.choice(with_tables)]
            table_a, table_b = rng.sample(tables, 2)
            a = rng.choice(table_a)
            b = rng.choice(table_b)
            if _accept(self.gain(a, b, table_a, table_b), temperature, rng):
                self.swap(a, b, table_a, table_b)

    def _try_bye_swap(
        self, season: Tables, byes: list[list[int]], rng: random.Random, temperature: float
    ) -> None:
        """``p``, with a bye on day ``d``, takes ``q``'s seat there; ``q`` has a bye on
        day ``e`` and ``p`` gives up their seat to ``q`` on day ``e``."""
        d = rng.randrange(len(season))
        if not byes[d]:
            return
        p = rng.choice(byes[d])
        e = rng.randrange(len(season))
        if p in byes[e]:
            return
        candidates = [q for q in byes[e] if q not in byes[d]]
        if not candidates:
            return
        q = rng.choice(candidates)
        table_d = next(t for t in season[d] if q in t)
        table_e = next(t for t in season[e] if p in t)
        gain = self.substitute(p, q, table_d)
        gain += self.substitute(q, p, table_e)
        if not _accept(gain, temperature, rng):
            self.substitute(p, q, table_e)
            self.substitute(q, p, table_d)
            return
        byes[d][byes[d].index(p)] = q
        byes[e][byes[e].index(q)] = p

    def substitute(self, into: int, out: int, table: list[int]) -> int:
        """Seat ``into`` in place of ``out`` at ``table``; how much that lowered the cost."""
        met, up = self.met, self.up
        gain = 0
        for x in table:
            if x != out:
                gain += up[met[out][x] - 1] - up[met[into][x]]
                met[out][x] -= 1
                met[x][out] -= 1
                met[into][x] += 1
                met[x][into] += 1
        table[table.index(out)] = into
        return gain


_POLISH_TRIES_PER_TABLE = 60
"""Random changes tried per table of the season in :meth:`_Meetings.polish`."""

_POLISH_MIN_TRIES = 20_000
"""Random changes tried at least, however short the season (small ones are cheap)."""


def _accept(gain: int, temperature: float, rng: random.Random) -> bool:
    """Whether the annealing keeps a change of cost ``-gain``."""
    return gain >= 0 or (temperature > 0 and rng.random() < math.exp(gain / temperature))


def _seat(n: int, seats: int, games: int, season: Tables) -> Tables:
    """Each table's seat order, balancing starts and first seats (see the module's
    docstring): greedily matchday by matchday, so the balance holds along the season,
    then settled over the whole season."""
    balance = _SeatBalance(n, seats, games)
    seated = [[balance.seat_next(table) for table in tables] for tables in season]
    fixtures = [table for tables in seated for table in tables]
    if seats == 2:
        _orient(n, fixtures)
    else:
        balance.settle(fixtures)
    return seated


class _SeatBalance:
    """Each player's fixtures, starts and first seats, and how far they are from the
    player's share (times ``seats``, to stay in whole numbers)."""

    def __init__(self, n: int, seats: int, games: int) -> None:
        self.seats = seats
        self.games = games
        # Games started from each seat.
        self.starts_of_seat = [len(range(s, games, seats)) for s in range(seats)]
        self.fixtures = [0] * n
        self.starts = [0] * n
        self.firsts = [0] * n

    def error(self, order: Sequence[int], fixtures: Sequence[int]) -> tuple[int, int]:
        """How far the players of ``order`` would be from their shares, seated so,
        each having played ``fixtures[p]`` fixtures: starts first, then first seats."""
        start_error = first_error = 0
        for s, p in enumerate(order):
            starts = self.starts[p] + self.starts_of_seat[s]
            start_error += (self.seats * starts - fixtures[p] * self.games) ** 2
            first_error += (self.seats * (self.firsts[p] + (s == 0)) - fixtures[p]) ** 2
        return start_error, first_error

    def count(self, order: Sequence[int], sign: int = 1) -> None:
        for s, p in enumerate(order):
            self.starts[p] += sign * self.starts_of_seat[s]
            self.firsts[p] += sign * (s == 0)

    def seat_next(self, table: list[int]) -> list[int]:
        """The seat order that leaves the table's players closest to their shares so
        far; the fixture is counted."""
        for p in table:
            self.fixtures[p] += 1
        order = min(itertools.permutations(table), key=lambda o: self.error(o, self.fixtures))
        self.count(order)
        return list(order)

    def settle(self, fixtures: list[list[int]]) -> None:
        """Re-seat fixtures, one at a time, to bring players closer to their shares of
        the whole season, until none moves (at most :data:`_SETTLE_SWEEPS` sweeps)."""
        for _ in range(_SETTLE_SWEEPS):
            moved = False
            for table in fixtures:
                self.count(table, -1)
                current = self.error(table, self.fixtures)
                order = min(
                    itertools.permutations(table), key=lambda o: self.error(o, self.fixtures)
                )
                if self.error(order, self.fixtures) < current:
                    table[:] = order
                    moved = True
                self.count(table)
            if not moved:
                return


_SETTLE_SWEEPS = 8


def _orient(n: int, fixtures: list[list[int]]) -> None:
    """Turn two-player fixtures round until every player sits first in half their
    fixtures, rounded either way.

    While a player sits first two or more times above their half, some fixture path
    leads from them, first seat to second seat, to a player below their half (the
    players they reach cannot all be above, as no fixture leads out of them); turning
    round that path's fixtures brings the first nearer and the last at most one above.
    Each turn lowers the total distance from the halves, so this ends. The other way
    round for a player below their half.
    """
    at: list[list[int]] = [[] for _ in range(n)]
    for i, (a, b) in enumerate(fixtures):
        at[a].append(i)
        at[b].append(i)
    # Fixtures sat first, less fixtures sat second.
    lead = [0] * n
    for a, b in fixtures:
        lead[a] += 1
        lead[b] -= 1
    for p in range(n):
        while abs(lead[p]) >= 2:
            # Follow fixtures from first seat to second (or back, when p is below).
            seat_from = 0 if lead[p] > 0 else 1
            path = _path_to(p, seat_from, at, fixtures, lead)
            for i in path:
                fixtures[i].reverse()
            end = fixtures[path[-1]][seat_from]
            shift = 2 if seat_from == 0 else -2
            lead[p] -= shift
            lead[end] += shift


def _path_to(
    start: int, seat_from: int, at: list[list[int]], fixtures: list[list[int]], lead: list[int]
) -> list[int]:
    """The fixtures of a shortest path from ``start`` along fixtures where each player
    sits in ``seat_from``, to a player whose lead is on the other side of zero."""
    came_by: dict[int, int] = {start: -1}
    frontier = [start]
    sign = 1 if seat_from == 0 else -1
    while frontier:
        following = []
        for player in frontier:
            for i in at[player]:
                if fixtures[i][seat_from] != player:
                    continue
                other = fixtures[i][1 - seat_from]
                if other in came_by:
                    continue
                came_by[other] = i
                if sign * lead[other] < 0:
                    path = []
                    while other != start:
                        i = came_by[other]
                        path.append(i)
                        other = fixtures[i][seat_from]
                    return path[::-1]
                following.append(other)
        frontier = following
    raise AssertionError("a player above their half always reaches one below it")
