"""Cutting a season's seeding into divisions, and season lengths that are fair to all.

Pure Python, like :mod:`leagues.promotion` and the scheduler. :func:`split` cuts the
players, in seed order, into divisions that can all play: each holds at least a table
(``seats`` players) and at most :func:`size_bounds`' maximum, their sizes differ by at
most one (the larger ones on top), and there are as many as bring the average size
nearest the league's division size. Players left over sit out in turn (byes), so no
remainder division is made that cannot play:

>>> [len(d) for d in split(range(7), seats=3, target=3).divisions]
[4, 3]
>>> [len(d) for d in split(range(6), seats=3, target=4).divisions]
[3, 3]
>>> [len(d) for d in split(range(10), seats=3, target=3).divisions]
[4, 3, 3]

**A size change never undoes a promotion.** A player promoted at the close of the
last season is never cut into a lower division than the one they went up to; a
relegated one is kept below too when the sizes allow. When no balanced cut keeps a
promotion, the divisions' sizes give way (they may then differ by more than one, or
pass the maximum), never the promoted player's place; :attr:`Split.notes` says so:

>>> cut = split(["ann", "bob", "cy", "eve", "dan", "fay"], 3, 4, promoted={"eve": 1},
...             relegated={"dan": 2})
>>> cut.divisions
[['ann', 'bob', 'cy', 'eve', 'dan', 'fay']]
>>> print(cut.notes(str, seats=3)[0])  # doctest: +NORMALIZE_WHITESPACE
One division of 6 players rather than divisions of 3 + 3 players, so that eve keeps
the division the last close moved them to (more than the 5 a division holds otherwise).

**Season lengths.** Byes go round in a fixed order, ``n % seats`` places a matchday
(see :mod:`leagues.scheduling`), so every player of a division of ``n`` has the same
number of fixtures exactly when the season's length is a multiple of
:func:`fixture_period`; :func:`equal_lengths` lists the lengths that do so for every
division at once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


def size_bounds(seats: int, target: int) -> tuple[int, int]:
    """The fewest and the most players of a division: a table, and the league's size or
    ``2 * seats - 1`` if that is more (the least that lets any number of players from a
    table up be cut into divisions: 7 at 3 seats are 4 + 3, never 3 + 3 + 1).

    >>> size_bounds(3, 3), size_bounds(4, 10), size_bounds(2, 2)
    ((3, 5), (4, 10), (2, 3))
    """
    return seats, max(target, 2 * seats - 1)


@dataclass(frozen=True)
class Split(Generic[P]):
    """The divisions (top first, each in seed order) and what gave way to make them."""

    divisions: list[list[P]]
    maximum: int
    even: list[int] = field(default_factory=list)
    """The sizes the divisions would have without the last close's moves."""
    kept: list[P] = field(default_factory=list)
    """Players whose move the sizes gave way for: the even cut would have put them
    back in the division they left."""
    undone: list[tuple[P, int, int]] = field(default_factory=list)
    """Relegated players the sizes put higher than they went down to: (player, the
    level they went down to, the level they play in)."""

    @property
    def sizes(self) -> list[int]:
        return [len(players) for players in self.divisions]

    def notes(self, name: Callable[[P], str], seats: int) -> list[str]:
        """What an organiser should know about the cut, in words."""
        notes = []
        names = division_names(len(self.divisions))
        if self.kept:
            who = ", ".join(name(p) for p in self.kept)
            over = (
                f" (more than the {self.maximum} a division holds otherwise)"
                if max(self.sizes) > self.maximum
                else ""
            )
            notes.append(
                f"{_sizes(self.sizes).capitalize()} rather than {_sizes(self.even)}, so that {who} "
                f"keep{'s' * (len(self.kept) == 1)} the division the last close moved "
                f"them to{over}."
            )
        for player, down_to, plays in self.undone:
            notes.append(
                f"{name(player)} went down to Division {down_to}, but there is only one division."
                if len(self.divisions) == 1
                else f"{name(player)} went down to Division {down_to} but plays in "
                f"{names[plays - 1]}: the divisions are "
                f"{' + '.join(map(str, self.sizes))} players."
            )
        for level, size in enumerate(self.sizes):
            byes = size % seats
            if size >= seats and byes:
                notes.append(
                    f"{names[level]} has {size} players at {seats} seats: "
                    f"{_sitting_out(byes)} out each matchday."
                )
        return notes


def division_names(count: int) -> list[str]:
    """'Division' for a league of one, else 'Division 1', 'Division 2', ..."""
    return ["Division"] if count == 1 else [f"Division {level}" for level in range(1, count + 1)]


def _sizes(sizes: list[int]) -> str:
    if len(sizes) == 1:
        return f"one division of {sizes[0]} players"
    return f"divisions of {' + '.join(map(str, sizes))} players"


def _sitting_out(byes: int) -> str:
    if byes == 1:
        return "one player sits"
    return f"{ {2: 'two', 3: 'three'}.get(byes, str(byes)) } players sit"


def split(
    order: Sequence[P],
    seats: int,
    target: int | None,
    promoted: Mapping[P, int] | None = None,
    relegated: Mapping[P, int] | None = None,
) -> Split[P]:
    """``order`` cut into divisions (see the module's docstring). ``target``: the
    league's division size (``None``: one division); ``promoted`` and ``relegated``:
    the level (from 1) each player moved to at the last close."""
    players = list(order)
    n = len(players)
    if not players:
        return Split([], maximum=0)
    position = {p: i for i, p in enumerate(players)}
    up = {position[p]: level for p, level in (promoted or {}).items() if p in position}
    down = {position[p]: level for p, level in (relegated or {}).items() if p in position}
    if target is None or n < 2 * seats:
        # One division: a second one could not hold a table.
        return _made(players, [n], [n], max(n, target or n), up, down)
    minimum, maximum = size_bounds(seats, target)
    counts = sorted(range(1, n // minimum + 1), key=lambda k: (abs(n / k - target), -k))
    even = next(c for k in counts if (c := _cuts(n, k, minimum, maximum, {}, {})) is not None)
    # Every promotion and relegation kept within the bounds; then promotions only; then
    # promotions only in divisions up to twice the maximum (the work of a cut grows with
    # the span of sizes tried); at last one division, which keeps every promotion.
    for keep_down, most in ((True, maximum), (False, maximum), (False, 2 * maximum)):
        for k in counts:
            cuts = _cuts(n, k, minimum, most, up, down if keep_down else {})
            if cuts is not None:
                return _made(players, cuts, even, maximum, up, down)
    return _made(players, [n], even, maximum, up, down)


def _made(
    players: list[P],
    cuts: list[int],
    even: list[int],
    maximum: int,
    up: dict[int, int],
    down: dict[int, int],
) -> Split[P]:
    bounds = [0, *cuts]
    groups = [players[a:b] for a, b in itertools.pairwise(bounds)]
    kept = [players[i] for i, to in sorted(up.items()) if _level(even, i) > to]
    kept += [
        players[i] for i, to in sorted(down.items()) if _level(even, i) < to <= _level(cuts, i)
    ]
    undone = [
        (players[i], to, _level(cuts, i)) for i, to in sorted(down.items()) if _level(cuts, i) < to
    ]
    sizes = [b - a for a, b in itertools.pairwise([0, *even])]
    return Split(groups, maximum, sizes, kept, undone)


def _level(cuts: list[int], index: int) -> int:
    """The level (from 1) of the player at ``index`` when divisions end at ``cuts``."""
    return next(level for level, cut in enumerate(cuts, start=1) if index < cut)


def _cuts(
    n: int, k: int, minimum: int, maximum: int, up: dict[int, int], down: dict[int, int]
) -> list[int] | None:
    """The ends of ``k`` divisions (cumulative sizes, the last ``n``) with sizes in
    bounds that keep the players at ``up`` positions at their level or higher and those
    at ``down`` at theirs or lower, as even as possible (least sum of squared sizes),
    the larger on top; ``None`` if there are none. Dynamic programming over the ends."""
    low = [0] * (k + 1)
    high = [n] * (k + 1)
    for index, level in up.items():
        if level < k:
            low[level] = max(low[level], index + 1)
    for index, level in down.items():
        if level > k:
            return None
        high[level - 1] = min(high[level - 1], index)
    low[k] = high[k] = n
    # best[end] for divisions so far: (sum of squares, minus the sum of ends), path.
    best: dict[int, tuple[tuple[int, int], list[int]]] = {0: ((0, 0), [])}
    for level in range(1, k + 1):
        step: dict[int, tuple[tuple[int, int], list[int]]] = {}
        for start, ((squares, ends), path) in best.items():
            for end in range(start + minimum, min(start + maximum, n) + 1):
                if not low[level] <= end <= high[level]:
                    continue
                cost = (squares + (end - start) ** 2, ends - end)
                if end not in step or cost < step[end][0]:
                    step[end] = (cost, [*path, end])
        best = step
    return best[n][1] if n in best else None


def fixture_period(players: int, seats: int) -> int:
    """The season lengths after which every player of a division of ``players`` has had
    the same number of byes, hence of fixtures: multiples of this.

    >>> fixture_period(4, 3), fixture_period(6, 3), fixture_period(7, 4), fixture_period(7, 2)
    (4, 1, 7, 7)
    """
    byes = players % seats
    return players // math.gcd(players, byes) if byes else 1


def equal_lengths(sizes: Iterable[int], seats: int, longest: int) -> list[int]:
    """The season lengths up to ``longest`` matchdays in which every player of each
    division of ``sizes`` plays the same number of fixtures as the others of theirs.

    >>> equal_lengths([4, 3], 3, 8), equal_lengths([9, 10], 4, 12)
    ([4, 8], [])
    """
    period = math.lcm(1, *(fixture_period(size, seats) for size in sizes))
    return list(range(period, longest + 1, period))
