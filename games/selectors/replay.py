"""A finished game, turn by turn.

The replay rebuilds each position with the engine's :class:`~engine.game.Timeline`
over the move log, so it shows exactly what happened, the turns a moderator's rewind
undid aside (they are for the case's moderators: :mod:`games.selectors.move_log` says
why). It opens only once the game is over: from then on every rack is public (RULES.md:
racks are shown at the end), but the pool's order never is: a frame carries the pool's
size only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence, Set
from dataclasses import dataclass
from datetime import datetime

from engine.actions import Layout
from engine.game import GameError, Timeline, new_game
from engine.ruleset import Ruleset
from engine.sets import in_reading_order
from engine.state import GameState, Outcome
from engine.tiles import Tile, format_tiles, parse_tiles
from games.errors import NotFound
from games.models import Game, Move
from games.selectors.move_log import describe_for
from games.selectors.players import Names, game_players, names_at


@dataclass(frozen=True)
class ShownTile:
    tile: str
    is_new: bool


@dataclass(frozen=True)
class ShownSet:
    tiles: tuple[ShownTile, ...]
    changed: bool


@dataclass(frozen=True)
class ReplaySeat:
    number: int
    name: str
    rack: tuple[str, ...]
    is_mover: bool


@dataclass(frozen=True)
class TurnStart:
    """What the mover of a replayed turn had in hand as it began: enough for the solver
    to say what the best play was (:mod:`games.selectors.analysis`). Public once the
    game is over, like every rack; the pool is not part of it."""

    seat: int
    table: Layout
    rack: tuple[Tile, ...]
    initial_meld_done: bool
    ruleset: Ruleset
    played: tuple[Tile, ...]
    """The rack tiles the mover laid this turn."""


@dataclass(frozen=True)
class ReplayFrame:
    """The game after ``step`` turns (0: the deal), out of ``steps``."""

    game_id: int
    table_id: int
    number: int
    step: int
    steps: int
    events: tuple[str, ...]
    sets: tuple[ShownSet, ...]
    river: tuple[str, ...]
    pool_size: int
    seats: tuple[ReplaySeat, ...]
    outcome: Outcome | None
    turn_start: TurnStart | None = None
    played_at: datetime | None = None
    """When the step's turn was played (its last move); ``None`` for the deal."""
    """The mover's position as the turn began (none for the deal, or a turn that was a
    resignation, a forfeit or the game stopped)."""

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.steps else None


def replay_frame(game: Game, step: int) -> ReplayFrame:
    """The position of a finished ``game`` after ``step`` turns (clamped to the game).

    The steps are the moves that stand: the turns a moderator's rewind undid are no
    steps of their own (their tiles were taken back; the case's evidence keeps them),
    they are played out inside the rewind's step, which shows the game as it went on."""
    if not game.is_over:
        raise NotFound("The replay opens when the game is over.")
    players = game_players(game)
    moves = list(game.moves.order_by("seq"))
    timeline = Timeline(
        new_game(game.engine_ruleset(), game.seed, None if game.start_drawn else game.starting_seat)
    )
    befores = [timeline.state]
    try:
        for move in moves:
            befores.append(timeline.apply(move.engine_action(), move.seat))
    except GameError:
        # Only a game whose state was changed by hand (a test position) gets here.
        raise NotFound("This game's record cannot be replayed.") from None
    standing = frozenset(timeline.standing)
    groups = turn_steps(moves, standing)
    steps = groups[-1] if groups else 0
    step = max(0, min(step, steps))
    in_step = [index for index, group in enumerate(groups) if group == step]
    told = [index for index in in_step if index in standing]
    state = befores[sum(1 for group in groups if group <= step)]
    start = befores[in_step[0]] if in_step else state
    mover = moves[told[-1]].seat if told else None
    kind = moves[told[0]].action.get("type") if told else ""
    events = [describe(moves[i], befores[i], befores[i + 1], players) for i in told]
    if step == 0:
        events.append(f"The tiles are dealt; {players.names_at(1)[state.current_player]} starts.")
    played: Counter[Tile] = Counter()
    if mover is not None:
        played = Counter(start.racks[mover]) + Counter(start.river) - Counter(state.racks[mover])
        played -= Counter(state.river)
    return ReplayFrame(
        game_id=game.pk,
        table_id=game.table_id,
        number=game.number,
        step=step,
        steps=steps,
        events=tuple(events),
        sets=mark_new(
            start.table if mover is not None else state.table, state.table, played, state.ruleset
        ),
        river=tuple(format_tiles(state.river)),
        pool_size=len(state.pool),
        seats=tuple(
            ReplaySeat(seat, players.names[seat], tuple(format_tiles(rack)), seat == mover)
            for seat, rack in enumerate(state.racks)
        ),
        outcome=state.outcome if step == steps else None,
        played_at=moves[told[-1]].created_at if told else None,
        turn_start=None
        if mover is None or kind in NOT_A_CHOICE
        else TurnStart(
            seat=mover,
            table=start.table,
            rack=start.racks[mover],
            initial_meld_done=start.initial_meld_done[mover],
            ruleset=start.ruleset,
            played=tuple(sorted(_laid(start.racks[mover], state.racks[mover]))),
        ),
    )


def _laid(before: Sequence[Tile], after: Sequence[Tile]) -> list[Tile]:
    return list((Counter(before) - Counter(after)).elements())


NOT_A_CHOICE = frozenset({"resign", "forfeit", "adjudicate", "rewind", "restore"})
"""Moves that are no play of the tiles (or a moderator's): the analysis has nothing to
say about them."""


def turn_steps(moves: Sequence[Move], standing: Set[int]) -> list[int]:
    """The replay's step (from 1) of each move: a step is a turn's moves in a row, and
    a moderator's rewind, or the restore that takes one back, is a step of its own
    (turn numbers repeat after one). Only the moves that stand (``standing``: their
    indexes) make steps; a move a rewind undid belongs to the step of the next one that
    stands (that rewind, or a later one that undid it too)."""
    steps = [0] * len(moves)
    step, turn, after_rewind = 0, None, False
    undone: list[int] = []
    for index, move in enumerate(moves):
        if index not in standing:
            undone.append(index)
            continue
        rewind = move.action.get("type") in {"rewind", "restore"}
        if rewind or after_rewind or move.turn_number != turn:
            step += 1
        turn, after_rewind = move.turn_number, rewind
        for earlier in [*undone, index]:
            steps[earlier] = step
        undone.clear()
    return steps


def describe(move: Move, before: GameState, after: GameState, names: Names) -> str:
    """One move in words (for a finished game: it names the tiles drawn)."""
    who = names_at(names, move.seq)
    return describe_for(None, move.seat, move.engine_action(), before, after, who, reveal=True)


def mark_new(
    before: Layout, after: Layout, played: Counter[Tile], ruleset: Ruleset | None = None
) -> tuple[ShownSet, ...]:
    """The sets of ``after`` in reading order; sets not on ``before`` are changed, and
    ``played`` tiles new."""
    rules = ruleset or Ruleset()
    unchanged = Counter(tuple(sorted(tile_set)) for tile_set in before)
    new_left = Counter(played)
    shown = []
    for laid in after:
        tile_set = parse_tiles(in_reading_order(format_tiles(laid), rules))
        key = tuple(sorted(tile_set))
        if unchanged[key] > 0:
            unchanged[key] -= 1
            shown.append(ShownSet(tuple(ShownTile(str(t), False) for t in tile_set), False))
            continue
        tiles = []
        for tile in tile_set:
            is_new = new_left[tile] > 0
            new_left[tile] -= is_new
            tiles.append(ShownTile(str(tile), is_new))
        shown.append(ShownSet(tuple(tiles), True))
    return tuple(shown)


def _tiles(tiles: Counter[Tile]) -> str:
    return " ".join(format_tiles(sorted(tiles.elements())))
