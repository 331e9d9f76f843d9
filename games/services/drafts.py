"""The turn in progress: the table a player builds, saved on the server as they work.

A correspondence player may build a move over several visits, so the working table
lives in a :class:`~games.models.Draft` row per (game, seat), tied to one turn number.
Edits move tiles (:func:`move_tiles`, the one path every tile move takes): from the
rack or from sets, to a set, to a new set, or back to the rack (only tiles that came
from the rack: what was on the table when the turn began stays on the table). Copies
of a tile are interchangeable, so tiles are named by their notation.

Drafts never change the game's ``version``: they are not moves. Saving one tells the
other players that this seat is building a move, without saying what.

What the player sees of their turn in progress is read by :mod:`games.selectors.drafts`
(the game page and its pushes read it without a lock); every write here answers with it.

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
from typing import Literal, TypeVar

import redis
from django.core.cache import cache
from django.db import transaction

from accounts.models import User
from common.signals import send_after_commit
from engine.actions import InvalidAction, Layout, parse_table, table_to_json
from engine.ruleset import Ruleset
from engine.sets import in_reading_order, lay_in_order
from engine.tiles import NotationError, Tile, format_tiles, parse_tile
from games import signals
from games.errors import DraftError, NotYourTurn
from games.models import Draft, Game
from games.selectors.drafts import (
    DraftView,
    draft_view,
    remainder,
    tables_differ,
    tile_bag,
    undo_key,
    undo_step,
    working_table,
)
from games.selectors.seats import seat_of
from games.services.locking import LockedTurn, ensure_may_play, lock_game

RACK: Literal["rack"] = "rack"
"""Where a tile comes from or goes to: the player's rack."""
NEW_SET: Literal["new"] = "new"
"""Where a tile goes: a new set at the end of the table."""

logger = logging.getLogger("games.services")

Source = int | Literal["rack"]
Target = int | Literal["rack", "new"]

_T = TypeVar("_T")


def draft_changed(turn: LockedTurn) -> bool:
    """True when the seat's draft differs from the table the turn began with."""
    return tables_differ(turn.state.table, _working(turn))


def move_tiles(
    game_id: int,
    user: User,
    picks: Sequence[tuple[str, Source]],
    target: Target,
    position: int | None = None,
    *,
    page: str = "",
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
        working = _working(turn)
        sets = [format_tiles(tile_set) for tile_set in working]
        read: set[object] = set()
        rack = remainder(turn.state, turn.seat, working)
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
        return _save(turn, laid, page=page)


def reset_draft(game_id: int, user: User, *, page: str = "") -> DraftView:
    """Start the turn over: the working table becomes the table as it is."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        return _save(turn, [list(tile_set) for tile_set in turn.state.table], page=page)


def undo_draft(game_id: int, user: User, *, page: str = "") -> DraftView:
    """Take back the last change of the turn in progress: the working table becomes what
    it was before it. One step: the undone change cannot be undone in turn."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        previous = undo_step(turn.game, turn.seat)
        if previous is None:
            raise DraftError("There is nothing to undo in this turn.")
        try:
            sets = [list(tile_set) for tile_set in parse_table(previous) if tile_set]
        except InvalidAction:
            raise DraftError("There is nothing to undo in this turn.") from None
        # Checked like any saved draft: the step was taken in this very turn, but the
        # cache is not the database and proves nothing.
        _check_tiles(turn, sets)
        return _save(turn, sets, remember=False, page=page)


def save_draft(
    game_id: int, user: User, table: Sequence[Sequence[str]], *, page: str = ""
) -> DraftView:
    """Replace the working table with ``table`` (sets of notation), checked: every tile
    of the table stays on it, and the tiles added come from the player's rack.
    ``page``, here and in the other edits: the page the edit was sent from (its answer
    shows the draft, so that page's socket is not sent it again)."""
    with transaction.atomic():
        turn = _lock_own_turn(game_id, user)
        try:
            sets = [list(tile_set) for tile_set in parse_table(table) if tile_set]
        except InvalidAction as err:
            raise DraftError(str(err)) from None
        _check_tiles(turn, sets)
        return _save(turn, sets, page=page)


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


def _working(turn: LockedTurn) -> Layout:
    return working_table(turn.game, turn.state, turn.seat)


def _save(
    turn: LockedTurn, sets: list[list[Tile]], remember: bool = True, page: str = ""
) -> DraftView:
    game, table = turn.game, _as_table(sets)
    _keep_undo_step(turn, table_to_json(_working(turn)) if remember else None)
    Draft.objects.update_or_create(
        game=game,
        seat=turn.seat,
        defaults={"turn_number": game.turn_number, "table": table_to_json(table)},
    )
    send_after_commit(signals.draft_saved, Game, game_id=game.pk, seat=turn.seat, page=page)
    return draft_view(game, turn.state, turn.seat, table, editable=True, can_undo=remember)


_UNDO_SECONDS = 2 * 24 * 3600
"""How long a step can be taken back: a correspondence turn may last a day or two."""


def _keep_undo_step(turn: LockedTurn, table: list[list[str]] | None) -> None:
    """Remember ``table`` as the step to undo (``None``: forget it). Written at once
    rather than after commit: nothing fails between here and the commit but the commit
    itself, and a step is checked like any draft before it is used."""
    try:
        if table is None:
            cache.delete(undo_key(turn.game, turn.seat))
        else:
            cache.set(undo_key(turn.game, turn.seat), table, _UNDO_SECONDS)
    except redis.RedisError:
        logger.exception("could not keep the undo step of game %s", turn.game.pk)


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
    before, after = tile_bag(turn.state.table), tile_bag(sets)
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


def _as_table(sets: Sequence[Sequence[Tile]]) -> Layout:
    return tuple(tuple(tile_set) for tile_set in sets)
