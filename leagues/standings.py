"""A division's standings, worked out from its fixtures' results. Pure Python (no Django).

The selector (:mod:`leagues.selectors.standings`) reads the current result rows of a
season's fixture tables and hands each division's fixtures here as plain values:
:class:`FixtureResults` (who sits in which seat, and each finished game's scores,
places and winner). :func:`compute` adds them up into :class:`Standings`: one
:class:`Row` per player, best first, and the "met" matrix (:class:`Meeting`).

**Points.** Under cumulative scoring a player's points are the sum of their game
scores, every finished game counting at once; with ``score_mode`` ``zero_sum`` the
highest total leads, with ``penalty_only`` the lowest. Under placement scoring a
fixture, once complete, gives its players the league's points for their place in it
(first ``placement_points[0]``, ...; places past the list score 0).

**A fixture's ranking** is its round's, as the table page shows it
(:class:`engine.round.Tally`): under ``zero_sum`` by games won, then by total score;
under ``penalty_only`` by the lowest total, then by games won. It gives the placement
points and the fixtures won, so the standings never name another winner of a fixture
than its table does. Players level on both share the places they cover: a fixture
whose first place is shared is won by nobody, and under placement scoring each of
them gets the points of those places averaged: two players tied for first under
4/2/1/0 each get (4 + 2) / 2 = 3. Points are :class:`~fractions.Fraction` so shared
points add up exactly.

**Ties.** Players level on points are ordered by the league's tiebreaks, one after
another (:data:`EXPLANATIONS` says each in words): ``fixtures_won``, ``games_won``,
``head_to_head`` (computed among the players still tied at that step only) and
``total_score``. Players tied on points and on every tiebreak share the rank
("1, 2, 2, 4").

**Best and worst final rank** (:func:`rank_bounds`), once the season is under way:
see the function for why they are never outside the truth.

>>> rules = Rules(scoring="cumulative", score_mode="zero_sum", tiebreaks=("games_won",))
>>> game = GameResult(scores={0: 20, 1: -20}, places={0: 1, 1: 2}, winner=0)
>>> fixture = FixtureResults(key=1, seats={0: 10, 1: 11}, games=(game,), games_to_play=2)
>>> table = compute([Player(10, "Ann"), Player(11, "Bob")], [fixture], rules)
>>> [(row.rank, row.name, row.points, row.games_won) for row in table.rows]
[(1, 'Ann', Fraction(20, 1), 1), (2, 'Bob', Fraction(-20, 1), 0)]
>>> table.bounds[10], table.bounds[11]
((1, 2), (1, 2))
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from engine.round import Tally

CUMULATIVE = "cumulative"
PLACEMENT = "placement"
ZERO_SUM = "zero_sum"
PENALTY_ONLY = "penalty_only"

EntryId = int
"""A player of the standings: the season's entry (a substitute plays for it)."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the division, as the page names them."""

    entry: EntryId
    name: str
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a fixture, by seat: the current result rows."""

    scores: Mapping[int, int]
    places: Mapping[int, int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class FixtureResults:
    """A fixture: the entry in each seat, its finished games, how many it plays, and
    whether it is over (all played, or settled at the deadline: nothing more comes)."""

    key: int
    seats: Mapping[int, EntryId]
    games: Sequence[GameResult] = ()
    games_to_play: int = 0
    complete: bool = False
    matchday: int = 0

    @property
    def games_left(self) -> int:
        return 0 if self.complete else max(self.games_to_play - len(self.games), 0)


@dataclass(frozen=True, slots=True)
class Rules:
    """How a season counts: its scoring, its ruleset's ``score_mode``, the placement
    points, the ordered tiebreaks, and the bounds of one seat's score in one game
    (for :func:`rank_bounds`)."""

    scoring: str = CUMULATIVE
    score_mode: str = ZERO_SUM
    placement_points: tuple[int, ...] = ()
    tiebreaks: tuple[str, ...] = ()
    game_score_bounds: tuple[int, int] = (-1000, 1000)
    per_game: bool = False
    """Rank by points per game played (per complete fixture under placement scoring):
    for a season whose length gives players unequal numbers of fixtures."""

    def __post_init__(self) -> None:
        if self.scoring not in (CUMULATIVE, PLACEMENT):
            raise ValueError(f"unknown scoring {self.scoring!r}")
        if self.score_mode not in (ZERO_SUM, PENALTY_ONLY):
            raise ValueError(f"unknown score mode {self.score_mode!r}")
        unknown = [name for name in self.tiebreaks if name not in EXPLANATIONS]
        if unknown:
            raise ValueError(f"unknown tiebreak {unknown[0]!r}")
        if self.game_score_bounds[0] > self.game_score_bounds[1]:
            raise ValueError("the lower bound of a game's score is above the upper")

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest score total leads (penalty points)."""
        return self.score_mode == PENALTY_ONLY

    def place_points(self, place: int) -> int:
        """The points of ``place`` (from 1) in a fixture."""
        return self.placement_points[place - 1] if place <= len(self.placement_points) else 0


EXPLANATIONS: dict[str, str] = {
    "fixtures_won": (
        "Fixtures won: the complete fixtures the player won, as their table names the "
        "winner of its round (most games won, then the best total; under penalty "
        "points the lowest total, then most games won). A fixture whose first place "
        "is shared is won by nobody."
    ),
    "games_won": "Games won: the games the player won, in every fixture.",
    "head_to_head": (
        "Head-to-head: only among the players still tied at this point, over the games "
        "two of them played at the same table: how many times the player finished ahead "
        "of one of the others, less how many times behind."
    ),
    "total_score": "Total score: the player's game scores added up over the season.",
}
"""Each tiebreak in words, for the standings page."""


def explain(rules: Rules) -> dict[str, str]:
    """How ``rules`` count points and break ties, in words, tiebreaks in their order."""
    direction = "lowest" if rules.lowest_wins else "highest"
    if rules.scoring == PLACEMENT:
        listed = "/".join(str(p) for p in rules.placement_points) or "none"
        order = (
            "the lowest total first, then most games won"
            if rules.lowest_wins
            else "most games won first, then the highest total"
        )
        points = (
            f"Points: each complete fixture gives points by place ({listed}), its players "
            f"ranked as its table ranks the round ({order}); players tied share the "
            "points of the places they cover, averaged."
        )
    else:
        points = f"Points: the player's game scores added up; the {direction} total leads."
    if rules.per_game:
        played = "complete fixture" if rules.scoring == PLACEMENT else "game"
        points += (
            f" This season's players play unequal numbers of fixtures, so the standings rank "
            f"by points per {played} played (0 before the first)."
        )
    sentences = {"points": points}
    for name in rules.tiebreaks:
        sentences[name] = EXPLANATIONS[name]
        if name == "total_score":
            sentences[name] += f" The {direction} total ranks first."
    return sentences


@dataclass(frozen=True, slots=True)
class Meeting:
    """What two players did at the same tables: games together, and how many of them
    the row's player finished ahead of the column's, and behind."""

    games: int = 0
    ahead: int = 0
    behind: int = 0


@dataclass
class Row:
    """One player's line of the standings."""

    entry: EntryId
    name: str
    withdrawn: bool
    rank: int = 0
    points: Fraction = Fraction(0)
    total_score: int = 0
    fixtures_played: int = 0
    fixtures_won: int = 0
    games_played: int = 0
    games_won: int = 0
    head_to_head: int | None = None
    """Set when head-to-head was needed: the net count among those it separated."""
    best_rank: int | None = None
    worst_rank: int | None = None
    tiebreaks: tuple[int | None, ...] = ()
    """The values of the rules' tiebreaks, in their order (for the page's columns)."""
    per_game: Fraction | None = None
    """Points per game (or complete fixture) played, when the rules rank by it."""
    closed: bool = False
    """The season is closed: the row's place is the one fixed at the close."""
    final_rank: int | None = None
    """A closed season's place, as its player was told at the close (``None``: they had
    withdrawn, and got none)."""

    @property
    def place(self) -> int | None:
        """The place the standings show: the rank by the results, or once the season is
        closed the final place fixed then (``None`` for a player who withdrew), which a
        later ruling does not move.

        >>> Row(1, "A", False, rank=2).place
        2
        >>> Row(1, "A", True, rank=1, closed=True).place is None
        True
        """
        return self.final_rank if self.closed else self.rank

    @property
    def average(self) -> Fraction | None:
        """Score per game played (``None`` before the first game)."""
        return Fraction(self.total_score, self.games_played) if self.games_played else None

    @property
    def points_text(self) -> str:
        return format_points(self.points)

    @property
    def average_text(self) -> str:
        return format_points(self.average)

    @property
    def per_game_text(self) -> str:
        return format_points(self.per_game)

    def tiebreak_values(self, names: Sequence[str]) -> list[int | None]:
        return [getattr(self, name) for name in names]


@dataclass
class Standings:
    """A division's rows, best first, each player's best and worst final rank, and the
    meetings of each pair of players.

    The meetings are two flat ``n * n`` lists over ``entries`` (the players in the
    order given to :func:`compute`): games together, and times the first finished
    ahead of the second (the second's "behind" is the first's "ahead" read the other
    way round). Cheap to cache and to load, whatever the division's size.
    """

    rows: list[Row]
    bounds: dict[EntryId, tuple[int, int]]
    entries: list[EntryId]
    games_together: list[int]
    ahead: list[int]

    @property
    def bounds_tell(self) -> bool:
        """Whether the best and worst final ranks say something: some player's are
        narrower than the whole table. Under cumulative scores one game can swing by the
        value of every tile, so until late in a season everyone can finish anywhere.

        >>> a = Row(1, "A", False, best_rank=1, worst_rank=2)
        >>> b = Row(2, "B", False, best_rank=1, worst_rank=2)
        >>> Standings([a, b], {}, [], [], []).bounds_tell
        False
        >>> b.best_rank = 2  # B can no longer come first
        >>> Standings([a, b], {}, [], [], []).bounds_tell
        True
        """
        last = len(self.rows)
        return any(
            row.best_rank is not None
            and row.worst_rank is not None
            and (row.best_rank > 1 or row.worst_rank < last)
            for row in self.rows
        )

    @property
    def head_to_head_used(self) -> bool:
        """Whether head-to-head separated anyone (else its column would be empty)."""
        return any(row.head_to_head is not None for row in self.rows)

    def meeting(self, entry: EntryId, other: EntryId) -> Meeting | None:
        """What ``entry`` did against ``other`` (``None`` if they never met, or either
        is not a player of the division)."""
        index = {e: i for i, e in enumerate(self.entries)}
        if entry not in index or other not in index:
            return None
        return self._meeting(index[entry], index[other])

    def _meeting(self, i: int, j: int) -> Meeting | None:
        n = len(self.entries)
        games = self.games_together[i * n + j]
        return Meeting(games, self.ahead[i * n + j], self.ahead[j * n + i]) if games else None

    def crosstable(self) -> list[tuple[Row, list[Meeting | None]]]:
        """Each row with its meetings against every player, in standings order
        (``None`` on the diagonal, ``Meeting()`` for a pair that never met)."""
        index = {e: i for i, e in enumerate(self.entries)}
        order = [index[row.entry] for row in self.rows]
        never = Meeting()
        return [
            (row, [None if j == i else (self._meeting(i, j) or never) for j in order])
            for row, i in zip(self.rows, order, strict=True)
        ]


class _Counts:
    """What a division's fixtures add up to, in lists indexed by player (their order
    in :func:`compute`): one pass over the games, no object per result."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.rules = rules
        n = self.n = players
        self.total = [0] * n
        self.games_played = [0] * n
        self.games_won = [0] * n
        self.fixtures_played = [0] * n
        self.fixtures_won = [0] * n
        self.placement: list[int | Fraction] = [0] * n
        self.games_together = [0] * (n * n)
        self.ahead = [0] * (n * n)

    def add(self, fixture: FixtureResults, index: Mapping[EntryId, int]) -> None:
        seats = [(seat, index.get(entry)) for seat, entry in fixture.seats.items()]
        totals = dict.fromkeys(fixture.seats, 0)
        wins = dict.fromkeys(fixture.seats, 0)
        n, together, ahead = self.n, self.games_together, self.ahead
        for game in fixture.games:
            scores, places = game.scores, game.places
            if game.winner in wins:
                wins[game.winner] += 1
            present = []
            for seat, i in seats:
                if seat not in scores:
                    continue
                totals[seat] += scores[seat]
                if i is not None:
                    self.total[i] += scores[seat]
                    self.games_played[i] += 1
                    self.games_won[i] += game.winner == seat
                    present.append((i, places[seat]))
            # Each pair of the game once, both ways.
            for a, (i, place) in enumerate(present):
                for j, other_place in present[a + 1 :]:
                    together[i * n + j] += 1
                    together[j * n + i] += 1
                    if place < other_place:
                        ahead[i * n + j] += 1
                    elif place > other_place:
                        ahead[j * n + i] += 1
        if fixture.complete:
            round_tally = Tally(
                self.rules.score_mode,
                tuple(totals[seat] for seat, _ in seats),
                tuple(wins[seat] for seat, _ in seats),
            )
            self._rank_fixture(seats, round_tally)

    def _rank_fixture(self, seats: list[tuple[int, int | None]], round_tally: Tally) -> None:
        """A complete fixture's places, as its round ranks them (see the module)."""
        keys = [round_tally.rank_key(k) for k in range(len(seats))]
        for (_, i), (first, last) in zip(seats, shared_places(keys), strict=True):
            if i is None:
                continue
            self.fixtures_played[i] += 1
            self.fixtures_won[i] += first == last == 1
            if self.rules.scoring == PLACEMENT:
                points = sum(self.rules.place_points(place) for place in range(first, last + 1))
                shared = last - first + 1
                self.placement[i] += (
                    points // shared if points % shared == 0 else Fraction(points, shared)
                )


def compute(
    players: Sequence[Player], fixtures: Sequence[FixtureResults], rules: Rules
) -> Standings:
    """The standings of ``players`` from ``fixtures`` (seats of entries not among
    ``players`` are ignored), with each player's best and worst final rank."""
    index = {p.entry: i for i, p in enumerate(players)}
    counts = _Counts(len(players), rules)
    for fixture in fixtures:
        counts.add(fixture, index)
    rows = [
        Row(
            p.entry,
            p.name,
            p.withdrawn,
            points=Fraction(counts.placement[i] if rules.scoring == PLACEMENT else counts.total[i]),
            total_score=counts.total[i],
            fixtures_played=counts.fixtures_played[i],
            fixtures_won=counts.fixtures_won[i],
            games_played=counts.games_played[i],
            games_won=counts.games_won[i],
        )
        for i, p in enumerate(players)
    ]
    ordered = _rank(rows, counts, rules)
    standings = Standings(
        ordered, {}, [p.entry for p in players], counts.games_together, counts.ahead
    )
    standings.bounds = rank_bounds(standings, fixtures, rules)
    for row in ordered:
        row.best_rank, row.worst_rank = standings.bounds[row.entry]
        row.tiebreaks = tuple(row.tiebreak_values(rules.tiebreaks))
        played = row.fixtures_played if rules.scoring == PLACEMENT else row.games_played
        if rules.per_game and played:
            row.per_game = row.points / played
    return standings


def close_places(standings: Standings, final_ranks: Mapping[EntryId, int | None]) -> None:
    """Show ``standings`` as closed: each row with the final place its player was told
    (``final_ranks``, by entry; a player who withdrew has none), in that order, those
    without a place last in their order by the results.

    >>> a, b, c = Row(1, "A", False, rank=2), Row(2, "B", True, rank=1), Row(3, "C", False, rank=3)
    >>> table = Standings([b, a, c], {}, [], [], [])
    >>> close_places(table, {1: 1, 2: None, 3: 2})
    >>> [(row.name, row.place) for row in table.rows]
    [('A', 1), ('C', 2), ('B', None)]
    """
    for row in standings.rows:
        row.closed, row.final_rank = True, final_ranks.get(row.entry)
    standings.rows.sort(key=lambda row: (row.final_rank is None, row.final_rank or 0, row.rank))


def shared_places(keys: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The places each rank key covers (smaller keys are better), first to last:
    ``(2, 3)`` for the two players tied behind the leader.

    >>> shared_places([(0, -5), (-1, 9), (0, -5), (0, 1)])
    [(2, 3), (1, 1), (2, 3), (4, 4)]
    """
    return [(1 + sum(k < key for k in keys), sum(k <= key for k in keys)) for key in keys]


HEAD_TO_HEAD = "head_to_head"


def _rank(rows: list[Row], counts: _Counts, rules: Rules) -> list[Row]:
    """``rows`` (in the players' order) best first, with their competition ranks
    ("1, 2, 2, 4").

    One sort on points; only players still level go on to the next tiebreak, and
    head-to-head is worked out among those only, so ties cost what they hold."""
    sign = -1 if rules.lowest_wins else 1
    merit: Sequence[int | Fraction] = (
        counts.placement if rules.scoring == PLACEMENT else [sign * t for t in counts.total]
    )
    if rules.per_game:
        played = counts.fixtures_played if rules.scoring == PLACEMENT else counts.games_played
        merit = [_per(value, count) for value, count in zip(merit, played, strict=True)]
    by_name: dict[str, Sequence[int | Fraction]] = {
        "fixtures_won": counts.fixtures_won,
        "games_won": counts.games_won,
        "total_score": [sign * total for total in counts.total],
    }
    steps = [merit, *(by_name.get(name, HEAD_TO_HEAD) for name in rules.tiebreaks)]
    start = sorted(range(len(rows)), key=lambda i: (rows[i].name.lower(), rows[i].entry))
    groups: list[list[int]] = []
    _split(start, steps, rows, counts, groups)
    ordered: list[Row] = []
    for group in groups:
        rank = len(ordered) + 1
        for i in group:
            rows[i].rank = rank
            ordered.append(rows[i])
    return ordered


def _per(merit: int | Fraction, played: int) -> Fraction:
    """Merit per game (or fixture) played; 0 before the first."""
    return Fraction(merit) / played if played else Fraction(0)


def _split(
    group: list[int],
    steps: Sequence[Sequence[int | Fraction] | str],
    rows: list[Row],
    counts: _Counts,
    into: list[list[int]],
) -> None:
    """Append ``group``'s players to ``into`` in tied groups, best first: sorted by the
    first step, each run of equal values split by the next steps."""
    if len(group) == 1 or not steps:
        into.append(group)
        return
    step = steps[0]
    values = _head_to_head(group, rows, counts) if isinstance(step, str) else step
    ordered = sorted(group, key=values.__getitem__, reverse=True)  # stable: names stay in order
    for _, tied in groupby(ordered, key=values.__getitem__):
        _split(list(tied), steps[1:], rows, counts, into)


def _head_to_head(group: list[int], rows: list[Row], counts: _Counts) -> dict[int, int]:
    """Each player's net count of games ahead of the others of ``group``, less behind."""
    n, ahead = counts.n, counts.ahead
    values = {}
    for i in group:
        net = sum(ahead[i * n + j] - ahead[j * n + i] for j in group if j != i)
        rows[i].head_to_head = values[i] = net
    return values


def rank_bounds(
    standings: Standings, fixtures: Sequence[FixtureResults], rules: Rules
) -> dict[EntryId, tuple[int, int]]:
    """Each player's best and worst possible final rank, given what is left to play.

    Why they are sound (the true final rank always lies between them). Call a player's
    *merit* their points, negated when the lowest total wins, so that more is better.
    What is left to play moves each player's merit within an interval:

    * cumulative scoring: every game left for them (the games still to play of their
      fixtures not yet complete) adds one game score, which lies within
      ``rules.game_score_bounds`` (the selector derives these from the ruleset: no
      seat of a played game scores more than the value of every tile of the set, nor
      loses more);
    * placement scoring: every fixture not yet complete adds the points of one place,
      at least the fewest and at most the most that any place of it gives (a shared
      place's average lies between too).

    Each player's interval ``[low, high]`` is taken alone, as if the others' games did
    not constrain it (a zero-sum game cannot let everyone gain; ignoring that only
    widens the bounds). A player ``q`` finishes ahead of ``p`` only with a merit at
    least ``p``'s (ahead on points, or level and ahead on tiebreaks), so only if
    ``high(q) >= low(p)``: the worst rank is 1 + the number of such ``q``. A ``q``
    with ``low(q) > high(p)`` finishes ahead of ``p`` whatever happens: the best rank
    is 1 + the number of those. Both hold whatever the tiebreaks say. With nothing
    left to play for anyone, the current rank is final and both bounds are it.

    The bounds assume that what is left ends within the ruleset's limits; a ruling
    that later corrects a finished game can move any standings, as it should.
    """
    rows = standings.rows
    if all(fixture.complete for fixture in fixtures):
        return {row.entry: (row.rank, row.rank) for row in rows}
    sign = -1 if rules.lowest_wins and rules.scoring == CUMULATIVE else 1
    # Whole points stay ints (fast to add and compare); shared placement points are
    # Fractions.
    low: dict[EntryId, int | Fraction] = {
        row.entry: row.points.numerator * sign if row.points.denominator == 1 else row.points
        for row in rows
    }
    high = dict(low)
    left: dict[EntryId, int] = dict.fromkeys(low, 0)
    for fixture in fixtures:
        if fixture.complete:
            continue
        step_low, step_high = _merit_step(fixture, rules, sign)
        for entry in fixture.seats.values():
            if entry in low:
                low[entry] += step_low
                high[entry] += step_high
                left[entry] += 1 if rules.scoring == PLACEMENT else fixture.games_left
    if rules.per_game:
        low, high = _per_game_bounds(rows, low, high, left, rules, sign)
    # Sorted once, each player's counts are two bisections: O(n log n) a division.
    lows, highs = sorted(low.values()), sorted(high.values())
    bounds = {}
    for row in rows:
        p = row.entry
        # Counted among everyone, then ``p`` left out: low(p) > high(p) never holds,
        # high(p) >= low(p) always does.
        certainly_ahead = len(lows) - bisect_right(lows, high[p])
        possibly_ahead = len(highs) - bisect_left(highs, low[p]) - 1
        bounds[p] = (1 + certainly_ahead, 1 + possibly_ahead)
    return bounds


def _per_game_bounds(
    rows: list[Row],
    low: dict[EntryId, int | Fraction],
    high: dict[EntryId, int | Fraction],
    left: dict[EntryId, int],
    rules: Rules,
    sign: int,
) -> tuple[dict[EntryId, int | Fraction], dict[EntryId, int | Fraction]]:
    """The intervals of merit per game (or fixture) played. Of the ``g`` games left a
    player may play any number ``k`` (a fixture settled early plays fewer), each adding
    between the least and the most one game gives; the final merit per game is then
    (merit + added) / (played + k), a weighted mean of the present merit per game (0
    before the first) and the added games' mean, which lies between the extremes at
    ``k = 0`` and ``k = g``."""
    per_low: dict[EntryId, int | Fraction] = {}
    per_high: dict[EntryId, int | Fraction] = {}
    for row in rows:
        p, games = row.entry, left[row.entry]
        played = row.fixtures_played if rules.scoring == PLACEMENT else row.games_played
        merit = row.points * sign
        now = _per(merit, played)
        if games == 0:
            per_low[p] = per_high[p] = now
            continue
        # low/high hold merit plus the least/most the games left add.
        per_low[p] = min(now, Fraction(low[p]) / (played + games))
        per_high[p] = max(now, Fraction(high[p]) / (played + games))
    return per_low, per_high


def _merit_step(fixture: FixtureResults, rules: Rules, sign: int) -> tuple[int, int]:
    """How much what is left of ``fixture`` can lower and raise one seat's merit."""
    if rules.scoring == PLACEMENT:
        points = [rules.place_points(place) for place in range(1, len(fixture.seats) + 1)]
        return min(points), max(points)
    least, most = rules.game_score_bounds
    left = fixture.games_left
    if sign < 0:
        least, most = -most, -least
    return least * left, most * left


def format_points(value: Fraction | None) -> str:
    """A number as the page shows it: whole, or with two decimals at most.

    >>> format_points(Fraction(7, 2)), format_points(Fraction(-12)), format_points(None)
    ('3.5', '-12', '')
    """
    if value is None:
        return ""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")
