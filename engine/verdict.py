"""The turn verdict: is a play turn legal, and if not, why (RULES.md §11).

A turn is judged on its end state only (R6.1, R6.2): the table before, the mover's
rack before, the table after and whether the mover had made the initial meld. All
comparisons are on multisets, so copies of a tile are interchangeable and the order
of sets and of tiles within a set never matters. Empty sets (a list with no tiles)
are ignored on both sides: they put nothing on the table.

Each illegal turn gets one :class:`Reason`, the first that applies in the order of
the table in RULES.md §11.1, and a sentence for the player naming the set or tile at
fault.

The joker options follow §11.3 to the letter. Each before-set S with jokers is
followed into an after-set T holding all of S's numbered tiles (its successor); other
joker sets are judged on their own. Under ``locked`` T must either keep S's jokers
standing for the same tiles (an extension), or show the tiles of the jokers it lost
as real tiles, the jokers it kept standing for what they stood for. So a joker
exactly replaced and then hung back on the same set, where it stands for another
tile (``R5 R6 J`` becoming ``R4 R5 R6 R7 J``), is a change to a locked set.

>>> from engine.tiles import parse_tiles
>>> v = judge_turn([], parse_tiles(["R9", "R10", "R11", "B3"]),
...                [parse_tiles(["R9", "R10", "R11"])], initial_meld_done=False)
>>> v.valid, v.reason, v.detail, v.initial_meld_value
(True, None, 'Plays 3 tiles (initial meld worth 30)', 30)
>>> v = judge_turn([], ["R10", "R11", "B4"], [["R10", "R11", "R12"]], False)
>>> v.reason
<Reason.TILE_NOT_OWNED: 'tile_not_owned'>
>>> print(v.detail)
R12 is not on your rack (a tile drawn this turn cannot be played)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.ruleset import Ruleset
from engine.sets import SetAnalysis, analyse_set, readings, show
from engine.tiles import COLOURS, JOKER, Tile, parse_tile

TileLike = Tile | str
"""A tile, or its notation (``"R7"``, ``"J"``); notation is parsed, and malformed
notation raises :class:`engine.tiles.NotationError`."""


class Reason(enum.StrEnum):
    """Why a turn is illegal; the values are the reason codes of RULES.md §11.1.

    Members are listed in the order of precedence: when several apply, the first is
    reported.
    """

    TILE_NOT_OWNED = "tile_not_owned"
    TILE_REMOVED_FROM_TABLE = "tile_removed_from_table"
    JOKER_NOT_REUSED = "joker_not_reused"
    NO_TILE_PLAYED = "no_tile_played"
    INVALID_SET = "invalid_set"
    INITIAL_MELD_USES_TABLE = "initial_meld_uses_table"
    INITIAL_MELD_BELOW_30 = "initial_meld_below_30"
    JOKER_SET_LOCKED = "joker_set_locked"
    JOKER_REPLACEMENT_NOT_FROM_RACK = "joker_replacement_not_from_rack"
    JOKER_GROUP_NEEDS_BOTH = "joker_group_needs_both"


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """The verdict on one play turn.

    ``played`` is the multiset P of tiles moved from the rack to the table (sorted
    colour by colour); ``initial_meld_value`` is the value the initial meld was
    measured at (R5, §11.2), or None when the turn was not an initial meld or was
    refused before the value was measured; ``goes_out`` is True for a legal turn that
    empties the mover's rack (R8.1).
    """

    valid: bool
    reason: Reason | None
    detail: str
    played: tuple[Tile, ...]
    initial_meld_value: int | None = None
    goes_out: bool = False


def judge_turn(
    table_before: Iterable[Iterable[TileLike]],
    rack_before: Iterable[TileLike],
    table_after: Iterable[Iterable[TileLike]],
    initial_meld_done: bool,
    ruleset: Ruleset | None = None,
) -> TurnVerdict:
    """Judge a play turn by RULES.md §11.

    Tiles may be :class:`~engine.tiles.Tile` values or their notation.

    >>> judge_turn([["R5", "J", "R7"]], ["R6", "K12", "B12"],
    ...            [["R5", "R6", "R7"], ["K12", "B12", "J"]], True).detail
    'Plays 3 tiles and goes out'
    >>> locked = Ruleset(joker_set_rule="locked")
    >>> v = judge_turn([["K1", "K2", "J"], ["R1", "B1", "O1"], ["R2", "B2", "O2"]],
    ...                ["R12", "R13"],
    ...                [["R1", "B1", "O1", "K1"], ["R2", "B2", "O2", "K2"], ["J", "R12", "R13"]],
    ...                True, locked)
    >>> v.reason.value
    'joker_set_locked'
    >>> print(v.detail)
    K1 K2 J was changed: under locked joker rules a set with a joker may only be extended or ...
    """
    turn = _Turn(
        before=tuple(tiles for tiles in _sets(table_before) if tiles),
        rack=_tiles(rack_before),
        # An empty set in table_after is still a set of fewer than 3 tiles (R2.1):
        # it is judged, not dropped.
        after=_sets(table_after),
        meld_done=bool(initial_meld_done),
        rules=ruleset if ruleset is not None else Ruleset(),
    )
    return turn.verdict()


def _tiles(tiles: Iterable[TileLike]) -> tuple[Tile, ...]:
    return tuple(tile if isinstance(tile, Tile) else parse_tile(tile) for tile in tiles)


def _sets(sets: Iterable[Iterable[TileLike]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(_tiles(tiles) for tiles in sets)


def _key(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """A set as a multiset, hashable: its tiles sorted."""
    return tuple(sorted(tiles))


def _union(sets: Iterable[Sequence[Tile]]) -> Counter[Tile]:
    total: Counter[Tile] = Counter()
    for tiles in sets:
        total.update(tiles)
    return total


def _jokers(tiles: Iterable[Tile]) -> int:
    return sum(1 for tile in tiles if tile.is_joker)


class _Fault(Exception):
    """Raised inside the judge to stop at the first rule broken."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class _Turn:
    """One turn under judgement; :meth:`verdict` runs the checks in precedence order."""

    def __init__(
        self,
        before: tuple[tuple[Tile, ...], ...],
        rack: tuple[Tile, ...],
        after: tuple[tuple[Tile, ...], ...],
        meld_done: bool,
        rules: Ruleset,
    ) -> None:
        self.before = before
        self.rack = Counter(rack)
        self.after = after
        self.meld_done = meld_done
        self.rules = rules
        self.before_tiles = _union(before)
        self.after_tiles = _union(after)
        self.played = self.after_tiles - self.before_tiles
        self.lost = self.before_tiles - self.after_tiles
        self.meld_value: int | None = None
        self.analyses: list[SetAnalysis] = []

    def verdict(self) -> TurnVerdict:
        played = tuple(sorted(self.played.elements()))
        try:
            self._check_ownership()
            self._check_conservation()
            if not self.played:
                raise _Fault(Reason.NO_TILE_PLAYED, self._nothing_played())
            self._check_sets()
            if self.meld_done:
                _JokerChecks(self).run()
            else:
                self._check_initial_meld()
        except _Fault as fault:
            return TurnVerdict(False, fault.reason, fault.detail, played, self.meld_value)
        goes_out = self.played == self.rack
        return TurnVerdict(True, None, self._summary(goes_out), played, self.meld_value, goes_out)

    # -- R4.2, R4.5, R2.1: every tile added comes from the mover's rack ---------------

    def _check_ownership(self) -> None:
        for tile in sorted(self.played):
            if self.played[tile] <= self.rack[tile]:
                continue
            before, rack = self.before_tiles[tile], self.rack[tile]
            if before == 0 and rack == 0:
                name = "the joker" if tile.is_joker else str(tile)
                detail = f"{name} is not on your rack (a tile drawn this turn cannot be played)"
            else:
                detail = (
                    f"{tile} appears {self.after_tiles[tile]} times on the table, but there "
                    f"{'was' if before == 1 else 'were'} {before or 'none'} on the table and "
                    f"{rack or 'none'} on your rack"
                )
            raise _Fault(Reason.TILE_NOT_OWNED, detail)

    # -- R4.4: nothing leaves the table -------------------------------------------------

    def _check_conservation(self) -> None:
        for tile in sorted(self.lost):
            if tile.is_joker:
                continue
            source = next(tiles for tiles in self.before if tile in tiles)
            raise _Fault(
                Reason.TILE_REMOVED_FROM_TABLE,
                f"{tile} from {show(source)} is no longer on the table: "
                "tiles on the table must stay on the table",
            )
        jokers = self.lost[JOKER]
        if jokers == 1:
            source = next(tiles for tiles in self.before if JOKER in tiles)
            raise _Fault(
                Reason.JOKER_NOT_REUSED,
                f"the joker from {show(source)} was not played again: a joker taken from "
                "the table must go back on the table in the same turn",
            )
        if jokers > 1:
            raise _Fault(
                Reason.JOKER_NOT_REUSED,
                f"{jokers} jokers taken from the table were not played again: a joker taken "
                "from the table must go back on the table in the same turn",
            )

    def _nothing_played(self) -> str:
        if Counter(map(_key, self.before)) == Counter(map(_key, self.after)):
            return "Nothing was played: play at least one tile from your rack, or draw"
        return (
            "No tile was played from your rack: rearranging the table is not a turn "
            "without at least one tile from your rack"
        )

    # -- R2, R4.3: every set on the table is valid ----------------------------------

    def _check_sets(self) -> None:
        self.analyses = [analyse_set(tiles, self.rules) for tiles in self.after]
        for analysis in self.analyses:
            if not analysis.valid:
                raise _Fault(Reason.INVALID_SET, analysis.problem or "")

    # -- R5, §11.2: the initial meld --------------------------------------------------

    def _check_initial_meld(self) -> None:
        minimum = self.rules.initial_meld_min
        single = self.rules.initial_meld_single_set
        if self.rules.initial_meld_same_turn_manipulation:
            self.meld_value = self._best_rack_only_value(single)
            what = "the sets made only of tiles from your rack are worth"
        else:
            self.meld_value = self._new_sets_value(single)
            what = "your new sets are worth"
        if single:
            what = "your best new set made of tiles from your rack is worth"
        if self.meld_value < minimum:
            needs = "one set worth at least" if single else "at least"
            raise _Fault(
                Reason.INITIAL_MELD_BELOW_30,
                f"Initial meld too low: {what} {self.meld_value}, and the initial meld "
                f"needs {needs} {minimum}",
            )

    def _new_sets_value(self, single: bool) -> int:
        """Default mode: the table stays as it was; the new sets are what was added."""
        remaining = Counter(map(_key, self.after))
        for tiles in self.before:
            if remaining[_key(tiles)] == 0:
                raise _Fault(
                    Reason.INITIAL_MELD_USES_TABLE,
                    f"{show(tiles)} on the table was changed: before your initial meld is "
                    "down you may only lay new sets from your rack and leave the table alone",
                )
            remaining[_key(tiles)] -= 1
        values = []
        for analysis in self.analyses:
            key = _key(analysis.tiles)
            if remaining[key] > 0:  # a set that was not on the table before: a new set
                remaining[key] -= 1
                values.append(analysis.best_value or 0)
        return max(values, default=0) if single else sum(values)

    def _best_rack_only_value(self, single: bool) -> int:
        """Same-turn manipulation: the best collection of sets made only of played tiles."""
        candidates = sorted(
            (
                (analysis.best_value or 0, Counter(analysis.tiles))
                for analysis in self.analyses
                if Counter(analysis.tiles) <= self.played
            ),
            key=lambda candidate: -candidate[0],
        )
        if single:
            return max((value for value, _ in candidates), default=0)
        return _best_packing(candidates, self.played)

    def _summary(self, goes_out: bool) -> str:
        count = self.played.total()
        text = f"Plays {count} tile{'' if count == 1 else 's'}"
        if self.meld_value is not None:
            text += f" (initial meld worth {self.meld_value})"
        return text + " and goes out" if goes_out else text


def _best_packing(candidates: Sequence[tuple[int, Counter[Tile]]], budget: Counter[Tile]) -> int:
    """The largest total value of candidates whose tiles fit together into ``budget``.

    ``candidates`` are sorted by value, highest first, so the bound prunes early.
    """
    suffix = [0] * (len(candidates) + 1)
    for i in range(len(candidates) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + candidates[i][0]
    best = 0

    def search(i: int, left: Counter[Tile], total: int) -> None:
        nonlocal best
        best = max(best, total)
        if i == len(candidates) or total + suffix[i] <= best:
            return
        value, tiles = candidates[i]
        if tiles <= left:
            search(i + 1, left - tiles, total + value)
        search(i + 1, left, total)

    search(0, budget, 0)
    return best


# -- §11.3: joker variants after the initial meld -------------------------------------


@dataclass(frozen=True, slots=True)
class _Succession:
    """One way a before-set S with jokers lives on in an after-set T (R7.6).

    ``released`` are the tiles of S's jokers that now lie in T as real tiles (an exact
    replacement); the rest of S's jokers keep their tiles in T.
    """

    after: tuple[Tile, ...]
    released: tuple[Tile, ...]


class _JokerChecks:
    """The checks of §11.3, for the options that are on."""

    def __init__(self, turn: _Turn) -> None:
        self.turn = turn
        self.rules = turn.rules

    def run(self) -> None:
        joker_sets = [tiles for tiles in self.turn.before if JOKER in tiles]
        if self.rules.joker_set_rule == "locked":
            successions = {tiles: self._successions(tiles) for tiles in joker_sets}
            for tiles in joker_sets:
                if not successions[tiles]:
                    raise _Fault(
                        Reason.JOKER_SET_LOCKED,
                        f"{show(tiles)} was changed: under locked joker rules a set with a "
                        "joker may only be extended or have its joker replaced",
                    )
            if self.rules.joker_replacement_source == "rack_only":
                for tiles in joker_sets:
                    self._check_replaced_from_rack(tiles, successions[tiles])
        if self.rules.joker_group_retrieval == "both_missing":
            for tiles in joker_sets:
                self._check_group_kept_whole(tiles)

    def _successors(self, tiles: Sequence[Tile]) -> list[tuple[Tile, ...]]:
        """The after-sets holding every numbered tile of ``tiles``."""
        numbered = Counter(tile for tile in tiles if not tile.is_joker)
        return [after for after in self.turn.after if numbered <= Counter(after)]

    def _successions(self, before: tuple[Tile, ...]) -> list[_Succession]:
        """Every way ``before`` was merely extended or had jokers exactly replaced."""
        numbered = Counter(tile for tile in before if not tile.is_joker)
        jokers = _jokers(before)
        found = []
        for after in self._successors(before):
            extra = Counter(after) - numbered
            del extra[JOKER]
            after_jokers = [Counter(r.jokers) for r in readings(after, self.rules)]
            released_count = max(0, jokers - _jokers(after))
            for reading in readings(before, self.rules):
                for released in set(combinations(sorted(reading.jokers), released_count)):
                    kept = Counter(reading.jokers) - Counter(released)
                    if Counter(released) <= extra and any(kept <= js for js in after_jokers):
                        found.append(_Succession(after, released))
        return found

    def _check_replaced_from_rack(
        self, before: tuple[Tile, ...], successions: list[_Succession]
    ) -> None:
        if any(Counter(s.released) <= self.turn.played for s in successions):
            return
        released = Counter(successions[0].released)
        tile = next(iter(released - self.turn.played))
        raise _Fault(
            Reason.JOKER_REPLACEMENT_NOT_FROM_RACK,
            f"the joker in {show(before)} was replaced by {tile} taken from the table: under "
            "these rules the tile replacing a joker must come from your rack",
        )

    def _check_group_kept_whole(self, before: tuple[Tile, ...]) -> None:
        if len(before) != 3 or _jokers(before) != 1:
            return
        if not any(r.kind == "group" for r in readings(before, self.rules)):
            return
        for after in self._successors(before):
            if JOKER in after:
                return
            if len(after) == len(COLOURS) and _is_group(analyse_set(after, self.rules)):
                return
        number = next(tile.number for tile in before if not tile.is_joker)
        present = {tile.colour for tile in before}
        missing = [Tile(c, number) for c in COLOURS if c not in present]
        raise _Fault(
            Reason.JOKER_GROUP_NEEDS_BOTH,
            f"the joker left the group {show(before)}: under these rules a joker leaves a "
            f"3-tile group only when both missing tiles ({show(missing)}) join it",
        )


def _is_group(analysis: SetAnalysis) -> bool:
    return "group" in analysis.set_types
