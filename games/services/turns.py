"""The moves of a turn: by a player, by a bot, and by the turn clock.

Each public function is one transaction: lock the game row, check, let the engine judge,
save, log, and announce after commit (:mod:`games.services.move`). Players send back
the ``version`` they were shown; a stale or repeated submission changes nothing; and the
id of the page that sent the move (``page``), whose answer shows it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.actions import Layout, parse_table
from engine.bots import choose_action
from engine.solver import Budget
from engine.tiles import NotationError, parse_tile
from engine.views import view_for
from games.conf import bot_seconds, bot_steps
from games.errors import IllegalPlay, InvalidMove
from games.models import Game, Move, Seat
from games.selectors.drafts import working_table
from games.services.abandonment import count_timeout
from games.services.drafts import draft_changed
from games.services.locking import LockedTurn, lock_game, lock_game_if_free
from games.services.move import load_for_player, loaded, make_move

logger = logging.getLogger("games.services")

TableNotation = Sequence[Sequence[str]]
"""A table as sets of tile notation: ``[["R7", "R8", "R9"], ["K1", "B1", "O1"]]``."""


def play(
    game_id: int,
    user: User,
    version: int,
    table: TableNotation | None = None,
    *,
    page: str = "",
) -> Game:
    """Play the turn in progress (``table=None``) or the explicit ``table`` given.

    Raises a :class:`~games.errors.GameActionError`: ``IllegalPlay`` carries the
    rules' sentence (``"R5 B6 R7 is neither a run ..."``). ``page``, here and in the
    other moves of a player: the page the move was sent from
    (:func:`~games.services.move.make_move`).
    """
    with transaction.atomic():
        load, seat = load_for_player(game_id, user, version)
        sets = working_table(load.game, load.state, seat) if table is None else _parse(table)
        return make_move(load, seat, engine.Play(sets), Move.By.USER, user, page=page)


def draw(game_id: int, user: User, version: int, *, page: str = "") -> Game:
    """Draw from the pool (two with the River: then :func:`discard` one)."""
    return _simple(game_id, user, version, engine.Draw(), page)


def pass_turn(game_id: int, user: User, version: int, *, page: str = "") -> Game:
    """Let the turn go by; only allowed when the pool is empty."""
    return _simple(game_id, user, version, engine.Pass(), page)


def discard(game_id: int, user: User, version: int, tile: str, *, page: str = "") -> Game:
    """River: put one of the two tiles just drawn on the River, keeping the other."""
    try:
        action = engine.Discard(parse_tile(tile))
    except NotationError as err:
        raise InvalidMove(str(err)) from None
    return _simple(game_id, user, version, action, page)


def take_from_river(
    game_id: int,
    user: User,
    version: int,
    index: int,
    table: TableNotation,
    *,
    page: str = "",
) -> Game:
    """River: take the tile at ``index`` and every newer one, playing ``table``."""
    with transaction.atomic():
        load, seat = load_for_player(game_id, user, version)
        action = engine.TakeFromRiver(index, _parse(table))
        return make_move(load, seat, action, Move.By.USER, user, page=page)


def _simple(game_id: int, user: User, version: int, action: engine.Action, page: str) -> Game:
    with transaction.atomic():
        load, seat = load_for_player(game_id, user, version)
        return make_move(load, seat, action, Move.By.USER, user, page=page)


def _parse(table: TableNotation) -> Layout:
    try:
        return parse_table(table)
    except engine.InvalidAction as err:
        raise InvalidMove(str(err)) from None


def time_out_turn(game_id: int, turn_number: int, wait: bool = True) -> Game | None:
    """End turn ``turn_number`` if its deadline has passed; else do nothing.

    The player draws the failed-turn penalty if their turn in progress had changed the
    table, the overtime penalty otherwise (engine ``Timeout``); after the table's number
    of such turns in a row, they forfeit (:mod:`games.services.abandonment`). Returns the
    game, or ``None`` when there was nothing to do (the turn ended, the clock has not run
    out).

    Exactly once: the row lock makes a move and the clock for the same turn take turns,
    and whichever comes second finds the turn number moved on (a player's move is then
    refused as stale, the clock does nothing). ``wait=False`` (the sweep) passes over a
    game that another writer holds.
    """
    with transaction.atomic():
        game = lock_game_if_free(game_id, wait)
        if game is None or game.is_over or game.turn_number != turn_number:
            return None
        if game.current_seat is None:
            return None
        if game.turn_deadline is None or timezone.now() < game.turn_deadline:
            return None
        # The seats are read only now: a sweep's passing visit reads nothing more.
        load, seat = loaded(game), game.current_seat
        action = engine.Timeout(changed=draft_changed(LockedTurn(game, load.state, seat)))
        make_move(load, seat, action, Move.By.TIMEOUT)
        return count_timeout(load, seat)


def play_bot_move(game_id: int, turn_number: int, rng: random.Random | None = None) -> Game | None:
    """Make one move for the bot whose turn ``turn_number`` is; ``None`` if there is none.

    The bot thinks on a snapshot, without the lock: a strong bot may take a while, and
    holding the row that long would block the turn clock. The move is then committed
    like anyone's, under the lock, only if the game is still at the version the bot saw.
    """
    snapshot = Game.objects.filter(pk=game_id).first()
    if snapshot is None or snapshot.current_seat is None or snapshot.turn_number != turn_number:
        return None
    seat = Seat.objects.filter(
        table_id=snapshot.table_id, number=snapshot.current_seat, kind=Seat.Kind.BOT
    ).first()
    if seat is None:
        return None
    action = choose_bot_action(
        snapshot.engine_state(), seat.number, seat.bot_level, rng or random.Random()
    )
    with transaction.atomic():
        game = lock_game(game_id)
        if game.version != snapshot.version or game.held_at is not None:
            return None  # moved on, or paused by a moderator (the release re-announces)
        load = loaded(game)
        try:
            return make_move(load, seat.number, action, Move.By.BOT)
        except (IllegalPlay, InvalidMove):
            # The engine refuses before writing anything, so the transaction is clean
            # and the loaded game as it was. A bot's mistake must not stall a live game:
            # it takes the clock's way out, which is legal in every state (draw, or
            # pass, or finish a River draw).
            logger.exception("game %s: bot at seat %s chose a refused move", game_id, seat.number)
            return make_move(load, seat.number, engine.Timeout(changed=False), Move.By.BOT)


def choose_bot_action(
    state: engine.GameState, seat: int, level: str, rng: random.Random
) -> engine.Action:
    """The bot's decision, from :mod:`engine.bots`, seeing only its own seat's view."""
    # Seat.bot_level only holds the engine's levels (BotLevel choices, a check constraint).
    # The budget bounds the bot's whole search: past it, it plays the best it found, so a
    # crafted table cannot hold the bot worker (its turn clock runs on another worker).
    # It is counted in steps, so the move is the same whatever the load; the seconds are
    # only a last stop.
    budget = Budget(steps=bot_steps(level), seconds=bot_seconds())
    action: engine.Action = choose_action(view_for(state, seat), cast(Any, level), rng, budget)
    return action
