"""A game replayed turn by turn for a case's moderator, every rack revealed.

Pure: :func:`replay_turns` takes the deal (the engine's state before the first move) and
the move log as plain records and rebuilds each turn through an
:class:`engine.game.Timeline`, so the evidence is exactly what happened, a moderator's
rewind and the restore that takes one back included (each a step of its own). It is for
a case's moderator only: it holds every rack, and the tiles each draw took from the pool
(never the order of what is left).

>>> from datetime import datetime, timezone
>>> from engine.actions import Draw
>>> from engine.game import new_game
>>> from engine.ruleset import Ruleset
>>> at = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> start = new_game(Ruleset(players=2), seed=5, starting_player=0)
>>> turns = replay_turns(start, [MoveRecord(1, 0, Draw(), 1, "user", at)], ["Ann", "Ben"])
>>> turns[0].mover, turns[0].kind, len(turns[0].racks_after[0]) - len(turns[0].racks_before[0])
(0, 'draw', 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.actions import (
    Action,
    Discard,
    Draw,
    InHistory,
    Pass,
    Play,
    Restore,
    Rewind,
    TakeFromRiver,
    Timeout,
)
from engine.game import Timeline
from engine.ruleset import Ruleset
from engine.sets import meld_value, readings
from engine.state import GameState
from engine.tiles import Tile, format_tiles
from games.models import Move
from games.selectors.players import Names, names_at
from games.selectors.replay import describe
from moderation.selectors.movement import Movement, movement

BY_CLOCK = "timeout"
BY_ORDER = "order"


@dataclass(frozen=True)
class MoveRecord:
    """One row of the move log, as the evidence needs it."""

    seq: int
    seat: int
    action: Action
    turn_number: int
    by: str
    created_at: datetime


@dataclass(frozen=True)
class TurnReplay:
    """One turn: who moved, what they did, and every rack before and after it.

    ``step`` counts turns from 1; ``turn_number`` is the game's own number of the turn.
    ``kind`` sums up the mover's action: ``play``, ``draw``, ``pass``, ``timeout``,
    ``river`` (a River take), ``discard`` (drew two, kept one), ``rewind`` (a
    moderator's ruling took the game back to the start of an earlier turn, or took such
    a rewind back: the racks after it are those the ruling restored) or ``other`` (a
    resignation, a forfeit, a stop).
    """

    step: int
    turn_number: int
    mover: int
    kind: str
    by: tuple[str, ...]
    events: tuple[str, ...]
    table_before: tuple[tuple[str, ...], ...]
    racks_before: tuple[tuple[str, ...], ...]
    racks_after: tuple[tuple[str, ...], ...]
    meld_done_before: bool
    moved: Movement
    played: int
    played_value: int
    pool_before: int
    pool_after: int
    ended_at: datetime
    state_before: GameState
    mover_name: str = ""

    @property
    def timed_out(self) -> bool:
        return BY_CLOCK in self.by

    @property
    def by_standing_order(self) -> bool:
        """Drawn for the player by their standing order: the solver proved no play (the
        others were shown an ordinary draw; the evidence says what it was)."""
        return BY_ORDER in self.by

    @property
    def is_choice(self) -> bool:
        """A turn the mover decided (the solver has something to say about it)."""
        return self.kind not in NOT_CHOICES


NOT_CHOICES = frozenset({"other", "rewind"})


def replay_turns(
    start: GameState, moves: Sequence[MoveRecord], names: Names
) -> tuple[TurnReplay, ...]:
    """Every turn of the game from ``start`` (the deal) through ``moves`` (in order).

    A step is one turn's moves in a row; a rewind is a step of its own, and the turns
    after it (their numbers repeat) are new steps, as :func:`games.selectors.replay.
    turn_steps` counts them."""
    turns: list[TurnReplay] = []
    timeline = Timeline(start)
    group: list[MoveRecord] = []
    for move in moves:
        if group and _starts_step(group[-1], move):
            _close(turns, timeline, group, names)
            group = []
        group.append(move)
    if group:
        _close(turns, timeline, group, names)
    return tuple(turns)


def _starts_step(last: MoveRecord, move: MoveRecord) -> bool:
    return (
        isinstance(move.action, InHistory)
        or isinstance(last.action, InHistory)
        or move.turn_number != last.turn_number
    )


def _close(
    turns: list[TurnReplay], timeline: Timeline, group: Sequence[MoveRecord], names: Names
) -> None:
    """Apply one turn's moves to ``timeline`` and append its replay."""
    before = state = timeline.state
    mover = before.current_player
    events = []
    for move in group:
        after = timeline.apply(move.action, move.seat)
        # The replay's words for a move; evidence only ever shows them to the moderator.
        events.append(
            describe(
                Move(seq=move.seq, seat=move.seat, action=move.action.to_dict()),
                state,
                after,
                names,
            )
        )
        state = after
    moved = movement(
        before.table,
        state.table,
        before.racks[mover],
        state.racks[mover],
        before.river,
        state.river,
    )
    laid: Counter[Tile] = Counter(before.racks[mover]) - Counter(state.racks[mover])
    on_table = sum(len(s) for s in state.table) - sum(len(s) for s in before.table)
    played = max(0, on_table)
    turns.append(
        TurnReplay(
            step=len(turns) + 1,
            turn_number=group[0].turn_number,
            mover=mover,
            kind=_kind(
                [m.action for m in group if m.seat == mover or isinstance(m.action, InHistory)]
            ),
            by=tuple(dict.fromkeys(m.by for m in group)),
            events=tuple(events),
            mover_name=names_at(names, group[-1].seq)[mover],
            table_before=tuple(tuple(format_tiles(s)) for s in before.table),
            racks_before=tuple(tuple(format_tiles(r)) for r in before.racks),
            racks_after=tuple(tuple(format_tiles(r)) for r in state.racks),
            meld_done_before=before.initial_meld_done[mover],
            moved=moved,
            played=played,
            played_value=laid_value(state.table, laid, before.ruleset) if played else 0,
            pool_before=len(before.pool),
            pool_after=len(state.pool),
            ended_at=group[-1].created_at,
            state_before=before,
        )
    )


def laid_value(table_after: Sequence[Sequence[Tile]], laid: Counter[Tile], ruleset: Ruleset) -> int:
    """The table value of the rack tiles ``laid`` in a turn, a joker worth the tile it
    stands for in its set (as the initial meld counts it, R3.1), so that a play and the
    solver's answer are weighed alike.

    >>> from engine.tiles import parse_tiles as p
    >>> laid_value([p(["R5", "J", "R7"])], Counter(p(["J", "R7"])), Ruleset())
    13
    """
    left = Counter(laid)
    value = 0
    for tile_set in table_after:
        found = readings(tile_set, ruleset)
        jokers = list(found[0].jokers) if found else []
        for tile in tile_set:
            if left[tile] <= 0:
                continue
            left[tile] -= 1
            if not tile.is_joker:
                value += meld_value(tile, ruleset)
            elif jokers:
                value += meld_value(jokers.pop(0), ruleset)
    return value


def _kind(actions: Sequence[Action]) -> str:
    kinds: dict[type, str] = {
        Rewind: "rewind",
        Restore: "rewind",
        Play: "play",
        TakeFromRiver: "river",
        Discard: "discard",
        Draw: "draw",
        Timeout: "timeout",
        Pass: "pass",
    }
    for action_type, kind in kinds.items():
        if any(isinstance(action, action_type) for action in actions):
            return kind
    return "other"
