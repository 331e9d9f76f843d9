"""What a bot knows on its turn, and a candidate play.

:class:`BotTurn` is built from a :class:`~engine.views.PlayerView` only; with a River key
tile it describes the turn as the verdict will judge it (the rack plus the key tile).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from engine.actions import Layout
from engine.ruleset import Ruleset
from engine.scoring import rack_total
from engine.solver import Budget, Meter, Objective, OutOfBudget, Solution, arrange, solve
from engine.tiles import Tile, format_tiles, full_set
from engine.verdict import judge_turn
from engine.views import PlayerView


@dataclass(frozen=True, slots=True)
class BotTurn:
    """The mover's knowledge: rules, table, own rack, and the public counts.

    ``opponents`` are the other players' rack sizes in the order they play next;
    ``key`` is a River key tile being considered (already on ``rack``) and
    ``plunder`` the number of newer River tiles that would come with it.

    ``meter`` bounds the solver: every solver call of the turn spends the turn's
    steps from it in turn, so a level that calls it several times still keeps to one
    overall budget, and the same turn gets the same move on any machine (unless the
    turn's wall-time ceiling cuts it short). Once the steps are spent a call answers
    at once with what it has, often nothing. None: no bound.
    """

    rules: Ruleset
    table: Layout
    rack: tuple[Tile, ...]
    meld_done: bool
    opponents: tuple[int, ...]
    pool_size: int
    final_round: bool
    river: tuple[Tile, ...] = ()
    opponents_melded: tuple[bool, ...] = ()
    key: Tile | None = None
    plunder: int = 0
    meter: Meter | None = None

    @classmethod
    def from_view(cls, view: PlayerView, budget: Budget | None = None) -> BotTurn:
        """The turn of the viewer of ``view`` (who must be the player to move), with
        ``budget`` for all its solver calls together.

        >>> from engine.game import new_game
        >>> from engine.views import view_for
        >>> turn = BotTurn.from_view(view_for(new_game(Ruleset(players=3), 5, 1), 1))
        >>> len(turn.rack), turn.opponents, turn.pool_size, turn.meld_done
        (14, (14, 14), 64, False)
        """
        if view.player is None or view.rack is None:
            raise ValueError("a spectator has no turn")
        seat, players = view.player, len(view.rack_sizes)
        step = 1 if view.ruleset.direction == "clockwise" else -1
        order = [(seat + step * k) % players for k in range(1, players)]
        return cls(
            rules=view.ruleset,
            table=view.table,
            rack=view.rack,
            meld_done=view.initial_meld_done[seat],
            opponents=tuple(view.rack_sizes[other] for other in order),
            pool_size=view.pool_size,
            final_round=view.final_turns_left is not None,
            river=view.river,
            opponents_melded=tuple(view.initial_meld_done[other] for other in order),
            meter=Meter(budget) if budget is not None else None,
        )

    def budget(self) -> Meter | None:
        """What is left of the turn's budget, for one more solver call (None: no bound)."""
        return self.meter

    def with_key(self, key: Tile, plunder: int) -> BotTurn:
        """The same turn with a River key tile on the rack and ``plunder`` tiles to come."""
        return replace(self, rack=(*self.rack, key), key=key, plunder=plunder)

    def melded_opponents(self) -> list[int]:
        """Rack sizes of the opponents who have made their initial meld (all of them
        when ``opponents_melded`` is not given)."""
        melded = self.opponents_melded or (True,) * len(self.opponents)
        return [size for size, done in zip(self.opponents, melded, strict=True) if done]

    def unseen(self) -> list[Tile]:
        """The tiles this player cannot see: in the pool or on other racks (sorted).

        >>> from engine.tiles import parse_tiles
        >>> turn = BotTurn(Ruleset(), (), parse_tiles(["R1"]), True, (14,), 40, False)
        >>> len(turn.unseen())
        105
        """
        hidden = Counter(full_set())
        hidden.subtract(self.rack)
        for tile_set in self.table:
            hidden.subtract(tile_set)
        hidden.subtract(self.river)
        if self.key is not None:
            hidden[self.key] += 1  # on the rack here and still in the River
        return sorted(hidden.elements())

    def solve(
        self,
        table: Layout | None = None,
        rack: tuple[Tile, ...] | None = None,
        objective: Objective = "tiles",
    ) -> Solution:
        """The solver on this turn's rules and meld state (table and rack default to the
        turn's own).

        With ``initial_meld_same_turn_manipulation``, a player yet to meld lays the
        meld from the rack first and then works the rest of the rack into the old
        table, leaving the meld's sets as they are. That can miss a play that mixes
        both, but the solver's search over both at once can take minutes on a big
        rack, and the two steps take milliseconds.
        """
        table = self.table if table is None else table
        rack = self.rack if rack is None else rack
        if self.meld_done or not self.rules.initial_meld_same_turn_manipulation:
            return solve(table, rack, self.meld_done, self.rules, objective, self.budget())
        rack_only = replace(self.rules, initial_meld_same_turn_manipulation=False)
        meld = solve((), rack, False, rack_only, objective, self.budget())
        if not meld.n:
            return Solution((), table, 0, 0, meld.exact, meld.steps, meld.cut_short)
        rest = Counter(rack)
        rest.subtract(meld.played)
        more = solve(table, tuple(rest.elements()), True, self.rules, objective, self.budget())
        played = tuple(sorted((*meld.played, *more.played)))
        return Solution(
            played,
            (*more.table_after, *meld.table_after),
            len(played),
            meld.value + more.value,
            meld.exact and more.exact,
            meld.steps + more.steps,
            more.cut_short,
        )

    def goes_out(self, table: Layout, rack: tuple[Tile, ...]) -> bool:
        """Whether a player holding ``rack``, melded, can lay it all on ``table`` (as
        far as the solver can tell in what is left of the budget)."""
        return solve(table, rack, True, self.rules, budget=self.budget()).n == len(rack)

    def arrange(self, table: Layout, tiles: tuple[Tile, ...]) -> Layout | None:
        """A legal layout of ``table`` plus ``tiles``, or None (also when the budget
        runs out before the solver can tell)."""
        try:
            return arrange(table, tiles, self.meld_done, self.rules, self.budget())
        except OutOfBudget:
            return None

    def move(self, table_after: Layout, played: tuple[Tile, ...]) -> Candidate:
        """A candidate play of ``played`` (rack tiles) leaving ``table_after``."""
        net = len(played) - self.plunder - (1 if self.key is not None else 0)
        return Candidate(tuple(table_after), tuple(sorted(played)), net)

    def from_solution(self, solution: Solution) -> Candidate | None:
        """The solver's play as a move; None when it lays nothing."""
        if not solution.n:
            return None
        return self.move(solution.table_after, solution.played)

    def is_legal(self, move: Candidate, require_key: bool = True) -> bool:
        """Whether the turn verdict accepts ``move`` and, with a key tile (unless not
        ``require_key``), the key tile is laid."""
        if require_key and self.key is not None and self.key not in move.played:
            return False
        verdict = judge_turn(self.table, self.rack, move.table_after, self.meld_done, self.rules)
        return verdict.valid

    def rack_left(self, move: Candidate | None) -> tuple[Tile, ...]:
        """The rack after ``move`` (None: nothing played), not counting any plunder."""
        left = Counter(self.rack)
        if move is not None:
            left.subtract(move.played)
        return tuple(sorted(left.elements()))

    def penalty_left(self, move: Candidate | None) -> int:
        """What the rack left after ``move`` would cost if the game ended now."""
        return rack_total(self.rack_left(move), self.rules)

    def describe(self) -> str:
        """The table and rack in notation, for messages."""
        sets = " | ".join(" ".join(format_tiles(s)) for s in self.table) or "(empty)"
        return f"{sets}; rack {' '.join(format_tiles(self.rack))}"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate play: the whole table after it, the rack tiles laid, and ``net``: how
    many tiles fewer the rack holds after it (a River take counts the key tile coming
    and going and the plunder)."""

    table_after: Layout
    played: tuple[Tile, ...]
    net: int

    @property
    def size(self) -> int:
        """The number of rack tiles laid."""
        return len(self.played)

    def describe(self) -> str:
        """The table after the move, in notation."""
        return " | ".join(" ".join(format_tiles(s)) for s in self.table_after)
