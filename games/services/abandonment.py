"""Players who stop playing: turns run out in a row, forfeits, resignations.

A correspondence game must not wait for ever on someone who has gone. Each seat counts
its turns that ran out of time in a row (``Seat.timeouts_in_a_row``); any move of the
player resets it. When it reaches the table's ``timeouts_to_forfeit`` the player forfeits
the game, in the table's chosen way: they drop out (engine :class:`~engine.actions.Forfeit`,
scored as a loser, play goes on without them and the last seat in play wins) or a bot
of level ``normal`` takes the seat for the rest of the round. A player may also resign
a game at any moment (engine :class:`~engine.actions.Resign`).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction

from accounts.models import User
from engine import game as engine
from games import live
from games.errors import GameFinished, InvalidMove
from games.models import BotLevel, Game, Move, Seat, Table
from games.services.core import Turn, commit_action, lock_game, seat_of

TAKEOVER_BOT_LEVEL = BotLevel.NORMAL


def resign(game_id: int, user: User) -> Game:
    """``user`` gives up ``game_id``, on their turn or anyone's.

    No version is needed: resigning does not depend on what the player saw. Raises
    :class:`~games.errors.GameFinished`, :class:`~games.errors.NotSeated`, or
    :class:`~games.errors.InvalidMove` when the player has left the game already.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_over:
            raise GameFinished("This game is over.")
        seat = seat_of(game, user)
        state = game.engine_state()
        if seat in state.dropped:
            raise InvalidMove("You have already left this game.")
        return commit_action(Turn(game, state, seat), engine.Resign(), Move.By.USER, user)


def player_moved(game: Game, seat_number: int, user: User, now: datetime) -> None:
    """A move by the player at ``seat_number``: they are here. Their timeouts in a row
    start again from nought and, in a correspondence game, a vacation in progress ends.

    Runs inside the move's transaction, the game locked.
    """
    Seat.objects.filter(table_id=game.table_id, number=seat_number, timeouts_in_a_row__gt=0).update(
        timeouts_in_a_row=0
    )
    if game.table.clock == Table.Clock.CORRESPONDENCE:
        from games.services.vacations import end_vacation_on_move

        end_vacation_on_move(user.pk, now)


def count_timeout(game: Game, seat_number: int) -> Game:
    """Count a turn of ``seat_number`` that just ran out of time; forfeit at the limit.

    Runs in the transaction of the timeout, with the game locked (the seat row is locked
    after it, in the order every writer follows).
    """
    seat = (
        Seat.objects.select_for_update().filter(table_id=game.table_id, number=seat_number).first()
    )
    if seat is None or seat.kind != Seat.Kind.PLAYER:
        return game
    seat.timeouts_in_a_row += 1
    table = game.table
    if seat.timeouts_in_a_row < table.timeouts_to_forfeit:
        seat.save(update_fields=["timeouts_in_a_row"])
        return game
    seat.timeouts_in_a_row = 0
    if table.on_forfeit == Table.OnForfeit.BOT:
        _hand_to_bot(seat)
        transaction.on_commit(partial(live.publish_clock, game.pk), robust=True)
        transaction.on_commit(partial(live.publish_user, seat.replaced_user_id), robust=True)
        return game
    seat.save(update_fields=["timeouts_in_a_row"])
    state = game.engine_state()
    if game.is_over or seat_number in state.dropped:
        return game
    return commit_action(Turn(game, state, seat_number), engine.Forfeit(), Move.By.TIMEOUT)


def _hand_to_bot(seat: Seat) -> None:
    """The seat goes to a bot for the rest of the round; the member is remembered."""
    seat.replaced_user_id = seat.user_id
    seat.user = None
    seat.kind = Seat.Kind.BOT
    seat.bot_level = TAKEOVER_BOT_LEVEL
    seat.save(update_fields=["replaced_user", "user", "kind", "bot_level", "timeouts_in_a_row"])
