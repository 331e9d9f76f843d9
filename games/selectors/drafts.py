"""The turn in progress as its player sees it: the working table, judged set by set.

The drafts themselves are written by :mod:`games.services.drafts`; reading one locks
nothing and changes nothing, so the game page and every websocket push of it can show
the player's turn in progress (:func:`read_draft`). The writes build on the same reads:
the working table (:func:`working_table`), the view of it (:func:`draft_view`) and the
step an undo would take back (:func:`undo_step`, kept in the cache under
:func:`undo_key`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import redis
from django.core.cache import cache

from accounts.models import User
from engine.actions import Layout, parse_table
from engine.sets import analyse_set
from engine.state import GameState
from engine.tiles import Tile, format_tiles
from engine.verdict import judge_turn
from games.models import Draft, Game
from games.selectors.seats import seat_of

logger = logging.getLogger(__name__)


class Turn(Protocol):
    """What the drafts read of a game: a :class:`~games.models.Game`, or a snapshot of
    one (:class:`games.selectors.live.LiveGame`)."""

    @property
    def pk(self) -> int: ...

    @property
    def turn_number(self) -> int: ...

    @property
    def current_seat(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def created_at(self) -> datetime: ...

    def engine_state(self) -> GameState: ...


@dataclass(frozen=True)
class DraftSet:
    """One set of the working table, judged on its own."""

    index: int
    tiles: tuple[str, ...]
    valid: bool
    problem: str | None
    kinds: tuple[str, ...]
    value: int | None


@dataclass(frozen=True)
class DraftView:
    """What the player sees of their turn in progress (only ever sent to them).

    ``editable`` is False when it is not their turn: ``sets`` are then the table as it
    is. ``rack`` is what is left on the rack (rack before + table before - working
    table); ``played`` the tiles moved from the rack; ``changed`` whether the table
    differs from the one the turn began with. ``ready`` and ``verdict`` give the rules'
    judgement of playing the working table now.
    """

    game_id: int
    seat: int
    turn_number: int
    editable: bool
    sets: tuple[DraftSet, ...]
    rack: tuple[str, ...]
    played: tuple[str, ...]
    changed: bool
    ready: bool
    verdict: str
    can_undo: bool = False


def read_draft(game: Game, user: User, seat: int | None = None) -> DraftView:
    """The turn in progress of ``user``'s seat (read only; takes no lock). ``seat``:
    that seat's number, if the caller knows it already."""
    if seat is None:
        seat = seat_of(game, user)
    return draft_of(game, seat)


def draft_of(game: Turn, seat: int) -> DraftView:
    """The turn in progress of ``seat`` in ``game`` (a game, or a snapshot of one)."""
    state = game.engine_state()
    editable = not game.is_over and seat == game.current_seat
    table = working_table(game, state, seat) if editable else state.table
    return draft_view(game, state, seat, table, editable)


def working_table(game: Turn, state: GameState, seat: int) -> Layout:
    """The table ``seat`` is building this turn: its fresh draft, or the table as it is
    (``state``: the game's engine state)."""
    draft = _fresh_draft(game, seat)
    return state.table if draft is None else parse_table(draft.table)


def draft_view(
    game: Turn,
    state: GameState,
    seat: int,
    table: Layout,
    editable: bool,
    can_undo: bool | None = None,
) -> DraftView:
    """``table`` as ``seat``'s turn in progress, judged by the rules (``can_undo``:
    whether a step can be taken back, if the caller knows; else the cache is asked)."""
    rules = state.ruleset
    sets = []
    for index, tile_set in enumerate(table):
        analysis = analyse_set(tile_set, rules)
        sets.append(
            DraftSet(
                index=index,
                tiles=tuple(format_tiles(tile_set)),
                valid=analysis.valid,
                problem=analysis.problem,
                kinds=analysis.set_types,
                value=analysis.best_value,
            )
        )
    rack = state.racks[seat]
    verdict = judge_turn(state.table, rack, table, state.initial_meld_done[seat], rules)
    if editable and can_undo is None:
        can_undo = undo_step(game, seat) is not None
    return DraftView(
        game_id=game.pk,
        seat=seat,
        turn_number=game.turn_number,
        editable=editable,
        sets=tuple(sets),
        rack=tuple(format_tiles(sorted(remainder(state, seat, table).elements()))),
        played=tuple(format_tiles(verdict.played)),
        changed=tables_differ(state.table, table),
        ready=editable and verdict.valid,
        verdict=verdict.detail,
        can_undo=editable and bool(can_undo),
    )


def undo_step(game: Turn, seat: int) -> list[list[str]] | None:
    """The working table before the last change of ``seat``'s turn, as saved (``None``:
    no step to undo, or the cache cannot be reached: the page works without it)."""
    try:
        step = cache.get(undo_key(game, seat))
    except redis.RedisError:
        logger.exception("could not read the undo step of game %s", game.pk)
        return None
    return step if isinstance(step, list) else None


def undo_key(game: Turn, seat: int) -> str:
    """The cache key of the step to undo in ``seat``'s current turn of ``game``."""
    # The creation time too: a test database reuses ids, a cache outlives it.
    born = game.created_at.timestamp()
    return f"games:draft-undo:{game.pk}:{born}:{seat}:{game.turn_number}"


def remainder(state: GameState, seat: int, sets: Sequence[Sequence[Tile]]) -> Counter[Tile]:
    """Rack before + table before - working table: what is still on the rack."""
    left = Counter(state.racks[seat])
    left.update(tile_bag(state.table))
    left.subtract(tile_bag(sets))
    return +left


def tile_bag(sets: Sequence[Sequence[Tile]]) -> Counter[Tile]:
    """Every tile of ``sets``, counted."""
    bag: Counter[Tile] = Counter()
    for tile_set in sets:
        bag.update(tile_set)
    return bag


def tables_differ(before: Layout, after: Sequence[Sequence[Tile]]) -> bool:
    """Whether two tables differ as multisets of multisets (order never matters)."""
    as_bag = Counter(tuple(sorted(tile_set)) for tile_set in before if tile_set)
    return as_bag != Counter(tuple(sorted(tile_set)) for tile_set in after if tile_set)


def _fresh_draft(game: Turn, seat: int) -> Draft | None:
    """The seat's draft for the game's current turn; an older one counts as none."""
    return Draft.objects.filter(game_id=game.pk, seat=seat, turn_number=game.turn_number).first()
