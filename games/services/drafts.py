"""The turn in progress: the table a player builds, saved on the server as they work.

A correspondence player may build a move over several visits, so the working table
lives in a :class:`~games.models.Draft` row per (game, seat), tied to one turn number.
Edits move tiles (:func:`move_tiles`, the one path every tile move takes): from the
rack or from sets, to a set, to a new set, or back to the rack (only tiles that came
from the rack: what was on the table when the turn began stays on the table). Copies
of a tile are interchangeable, so tiles are named by their notation.

Drafts never change the game's ``version``: they are not moves. Saving one tells the
other players that this seat is building a move, without saying what.

Each save remembers the working table it replaced, so the player can take back their
last step (:func:`undo_draft`). One step only, and only within the turn: the step is
kept in the cache (Redis) under the turn's number, not in the database, because it is
a convenience of the page and not part of the game; should the cache lose it, the undo
button is simply gone.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import redis
from django.core.cache import cache
from django.db import transaction

from accounts.models import User
from common.signals import send_after_commit
from engine.actions import InvalidAction, Layout, parse_table, table_to_json
from engine.ruleset import Ruleset
from engine.sets import analyse_set, in_reading_order, lay_in_order
from engine.state import GameState
from engine.tiles import NotationError, Tile, format_tiles, parse_tile
from engine.verdict import judge_turn
from games import signals
from games.errors import DraftError, NotYourTurn
from games.models import Draft, Game
from games.services.locking import LockedTurn, ensure_may_play, lock_game, seat_of

RACK: Literal["rack"] = "rack"
"""Where a tile comes from or goes to: the player's rack."""
NEW_SET: Literal["new"] = "new"
"""Where a tile goes: a new set at the end of the table."""

logger = logging.getLogger("games.services")

Source = int | Literal["rack"]
Target = int | Literal["rack", "new"]

_T = TypeVar("_T")


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


def working_table(turn: LockedTurn) -> Layout:
    """The table the seat is building this turn: its fresh draft, or the table as it is."""
    draft = _fresh_draft(turn.game, turn.seat)
    return turn.state.table if draft is None else parse_table(draft.table)


def draft_changed(turn: LockedTurn) -> bool:
    """True when the seat's draft differs from the table the turn began with."""
    return _changed(turn.state.table, working_table(turn))


def read_draft(game: Game, user: User, seat: int | None = None) -> DraftView:
    """The turn in progress of ``user``'s seat (read only; takes no lock). ``seat``:
    that seat's number, if the caller knows it already."""
    if seat is None:
        seat = seat_of(game, user)
    state = game.engine_state()
    turn = LockedTurn(game, state, seat)
    editable = not game.is_over and seat == game.current_seat
    return _view(turn, working_table(turn) if editable else state.table, editable)


def move_tiles(
    game_id: int,
    user: User,
    picks: Sequence[tuple[str, Source]],
    target: Target,
    position: int | None = None,
) -> DraftView:
    """Move tiles, each from its source (``RACK`` or a set index, from 0), to one
    ``target`` (a set index, ``NEW_SET`` or ``RACK``), in the order given, at
    ``position`` in the target set. Without a position, tiles joining a run of their
    colour go where their numbers belong; others go to the end.

    A set the move touches is first put in its reading order
    (:func:`engine.sets.in_reading_order`): that is the order the page shows, so a
    position means what the player saw. Set indices are those of the working table
    before the move: sets left empty are only dropped at the end. The whole move is
    checked like any saved draft, and refused as a whole.
    """
    if not picks:
        raise DraftError("Choose a tile to move.")
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        rules = turn.state.ruleset
        working = working_table(turn)
        sets = [format_tiles(tile_set) for tile_set in working]
        read: set[object] = set()
        rack = _remainder(turn.state, turn.seat, working)
        taken = [_take_pick(sets, text, source, rack, rules, read) for text, source in picks]
        if target == RACK and all(source == RACK for _, source in picks):
            raise DraftError(f"{taken[0]} is already on your rack.")
        if target == NEW_SET:
            sets.append(taken)
        elif target != RACK:
            destination = _touch(sets, target, rules, read)
            if position is None:
                destination[:] = lay_in_order(destination, taken)
            else:
                at = max(0, min(position, len(destination)))
                destination[at:at] = taken
        # Checks what the steps above do not: table tiles stay on the table.
        laid = [list(tile_set) for tile_set in parse_table(sets) if tile_set]
        _check_tiles(turn, laid)
        return _save(turn, laid)


def move_tile(
    game_id: int,
    user: User,
    tile: str,
    source: Source,
    target: Target,
    position: int | None = None,
) -> DraftView:
    """Move one ``tile``: :func:`move_tiles` with one pick."""
    return move_tiles(game_id, user, [(tile, source)], target, position)


def reset_draft(game_id: int, user: User) -> DraftView:
    """Start the turn over: the working table becomes the table as it is."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        return _save(turn, [list(tile_set) for tile_set in turn.state.table])


def undo_draft(game_id: int, user: User) -> DraftView:
    """Take back the last change of the turn in progress: the working table becomes what
    it was before it. One step: the undone change cannot be undone in turn."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        previous = _undo_step(turn)
        if previous is None:
            raise DraftError("There is nothing to undo in this turn.")
        try:
            sets = [list(tile_set) for tile_set in parse_table(previous) if tile_set]
        except InvalidAction:
            raise DraftError("There is nothing to undo in this turn.") from None
        # Checked like any saved draft: the step was taken in this very turn, but the
        # cache is not the database and proves nothing.
        _check_tiles(turn, sets)
        return _save(turn, sets, remember=False)


def save_draft(game_id: int, user: User, table: Sequence[Sequence[str]]) -> DraftView:
    """Replace the working table with ``table`` (sets of notation), checked: every tile
    of the table stays on it, and the tiles added come from the player's rack."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        try:
            sets = [list(tile_set) for tile_set in parse_table(table) if tile_set]
        except InvalidAction as err:
            raise DraftError(str(err)) from None
        _check_tiles(turn, sets)
        return _save(turn, sets)


# --- helpers -----------------------------------------------------------------------


def _lock_own_turn(game_id: int, user: User) -> LockedTurn:
    # The game row is locked like for a move: a draft edit waits for a move being
    # committed and then sees the new turn, instead of saving work for a turn that ended.
    game = lock_game(game_id)
    seat = seat_of(game, user)
    ensure_may_play(user, game.table)
    if game.is_over or seat != game.current_seat:
        raise NotYourTurn("It is not your turn: you can build a move on your turn.")
    return LockedTurn(game, game.engine_state(), seat)


def _fresh_draft(game: Game, seat: int) -> Draft | None:
    """The seat's draft for the game's current turn; an older one counts as none."""
    return Draft.objects.filter(game=game, seat=seat, turn_number=game.turn_number).first()


def _save(turn: LockedTurn, sets: list[list[Tile]], remember: bool = True) -> DraftView:
    game = turn.game
    _keep_undo_step(turn, table_to_json(working_table(turn)) if remember else None)
    Draft.objects.update_or_create(
        game=game,
        seat=turn.seat,
        defaults={"turn_number": game.turn_number, "table": table_to_json(_as_table(sets))},
    )
    send_after_commit(signals.draft_saved, Game, game_id=game.pk, seat=turn.seat)
    return _view(turn, _as_table(sets), editable=True, can_undo=remember)


_UNDO_SECONDS = 2 * 24 * 3600
"""How long a step can be taken back: a correspondence turn may last a day or two."""


def _undo_step(turn: LockedTurn) -> list[list[str]] | None:
    """The working table before the last change, as saved (``None``: no step to undo,
    or the cache cannot be reached: the page works without it)."""
    try:
        step = cache.get(_undo_key(turn))
    except redis.RedisError:
        logger.exception("could not read the undo step of game %s", turn.game.pk)
        return None
    return step if isinstance(step, list) else None


def _keep_undo_step(turn: LockedTurn, table: list[list[str]] | None) -> None:
    """Remember ``table`` as the step to undo (``None``: forget it). Written at once
    rather than after commit: nothing fails between here and the commit but the commit
    itself, and a step is checked like any draft before it is used."""
    try:
        if table is None:
            cache.delete(_undo_key(turn))
        else:
            cache.set(_undo_key(turn), table, _UNDO_SECONDS)
    except redis.RedisError:
        logger.exception("could not keep the undo step of game %s", turn.game.pk)


def _undo_key(turn: LockedTurn) -> str:
    # The creation time too: a test database reuses ids, a cache outlives it.
    game = turn.game
    born = game.created_at.timestamp()
    return f"games:draft-undo:{game.pk}:{born}:{turn.seat}:{game.turn_number}"


def _view(
    turn: LockedTurn, table: Layout, editable: bool, can_undo: bool | None = None
) -> DraftView:
    state, rules = turn.state, turn.state.ruleset
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
    rack = state.racks[turn.seat]
    verdict = judge_turn(state.table, rack, table, state.initial_meld_done[turn.seat], rules)
    return DraftView(
        game_id=turn.game.pk,
        seat=turn.seat,
        turn_number=turn.game.turn_number,
        editable=editable,
        sets=tuple(sets),
        rack=tuple(format_tiles(sorted(_remainder(state, turn.seat, table).elements()))),
        played=tuple(format_tiles(verdict.played)),
        changed=_changed(state.table, table),
        ready=editable and verdict.valid,
        verdict=verdict.detail,
        can_undo=editable and (_undo_step(turn) is not None if can_undo is None else can_undo),
    )


def _remainder(state: GameState, seat: int, sets: Sequence[Sequence[Tile]]) -> Counter[Tile]:
    """Rack before + table before - working table: what is still on the rack."""
    left = Counter(state.racks[seat])
    left.update(_bag(state.table))
    left.subtract(_bag(sets))
    return +left


def _take_pick(
    sets: list[list[str]],
    text: str,
    source: Source,
    rack: Counter[Tile],
    rules: Ruleset,
    read: set[object],
) -> str:
    """Take one picked tile from its source: from ``rack`` (what is left on the rack,
    counted down) or from a set of ``sets``."""
    tile = _parse_tile(text)
    if source == RACK:
        if not rack[tile]:
            raise DraftError(f"{tile} is not on your rack.")
        rack[tile] -= 1
    else:
        tile_set = _touch(sets, source, rules, read)
        if str(tile) not in tile_set:
            raise DraftError(f"Set {source + 1} has no {tile}.")
        tile_set.remove(str(tile))
    return str(tile)


def _touch(sets: list[list[str]], index: object, rules: Ruleset, read: set[object]) -> list[str]:
    """The set at ``index``, put in its reading order the first time a move touches it
    (``read``: the indices already put in order)."""
    tile_set = _set_at(sets, index)
    if index not in read:
        read.add(index)
        tile_set[:] = in_reading_order(tile_set, rules)
    return tile_set


def _set_at(sets: list[list[_T]], index: object) -> list[_T]:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(sets):
        raise DraftError(f"There is no set {index!r} on the table.")
    return sets[index]


def _check_tiles(turn: LockedTurn, sets: list[list[Tile]]) -> None:
    before, after = _bag(turn.state.table), _bag(sets)
    missing = before - after
    if missing:
        raise DraftError(
            f"{min(missing)} was on the table when your turn began: it stays on the table."
        )
    extra = (after - before) - Counter(turn.state.racks[turn.seat])
    if extra:
        raise DraftError(f"{min(extra)} is not on your rack.")


def _parse_tile(text: str) -> Tile:
    return tiles_named([text])[0]


def tiles_named(texts: Sequence[str]) -> list[Tile]:
    """The tiles of ``texts`` (notation); a text that is no tile is refused."""
    try:
        return [parse_tile(text) for text in texts]
    except (NotationError, TypeError) as err:
        raise DraftError(str(err)) from None


def _bag(sets: Sequence[Sequence[Tile]]) -> Counter[Tile]:
    bag: Counter[Tile] = Counter()
    for tile_set in sets:
        bag.update(tile_set)
    return bag


def _changed(before: Layout, after: Sequence[Sequence[Tile]]) -> bool:
    """Whether two tables differ as multisets of multisets (order never matters)."""
    as_bag = Counter(tuple(sorted(tile_set)) for tile_set in before if tile_set)
    return as_bag != Counter(tuple(sorted(tile_set)) for tile_set in after if tile_set)


def _as_table(sets: Sequence[Sequence[Tile]]) -> Layout:
    return tuple(tuple(tile_set) for tile_set in sets)
