"""The one path by which a move reaches a game: lock, check, apply, log, then announce.

Every writer (a player's request, the bot task, the turn clock) ends in
:func:`commit_action` while holding the lock taken by
:func:`~games.services.locking.lock_game`. Keeping one path is what makes the
guarantees hold for all of them: the cached state always equals the replay of the move
log, ``version`` counts the moves, and watchers and tasks only hear of a move once it is
committed.

What the move itself makes true is written here, in its transaction: the log entry, the
state, the clock of the turn it ends and of the one it starts, the mover's record (their
timeouts in a row, a vacation their move ends), the turn's drafts, and when the game
ends its result rows and the next game's row. Everything that merely follows from it
(pushes, tasks, notifications) hears of it through :mod:`games.signals` after commit.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.state import GameState
from games import signals
from games.errors import GameFinished, IllegalPlay, InvalidMove, NotYourTurn
from games.models import Draft, Game, Move, Seat, Table
from games.services.clock import announce_turn, end_turn_clock, start_turn_clock
from games.services.locking import (
    LockedTurn,
    lock_for_player,
    lock_game,
    lock_game_if_free,
)
from games.services.results import record_played
from games.services.vacations import end_vacation_on_move

__all__ = [
    # The locks lived here once; code written against that still finds them.
    "LockedTurn",
    "commit_action",
    "lock_for_player",
    "lock_game",
    "lock_game_if_free",
    "store_state",
]

logger = logging.getLogger("games.services")


def commit_action(
    turn: LockedTurn,
    action: engine.Action,
    by: Move.By,
    user: User | None = None,
    *,
    page: str = "",
) -> Game:
    """Apply ``action`` for ``turn.seat``, save the state, log the move and announce it.

    Must run inside ``transaction.atomic()`` with ``turn.game`` locked by
    :func:`~games.services.locking.lock_game`. The engine judges first: a refused action
    raises before anything is written, so the transaction has nothing to roll back.
    ``page``: the id of the page the move was made from (its answer shows the move, so
    that page's socket is not sent it again), or empty.
    """
    game, state = turn.game, turn.state
    try:
        after = engine.apply(state, action, turn.seat)
    except engine.IllegalMove as err:
        raise IllegalPlay(err.detail, err.reason) from None
    except engine.InvalidAction as err:
        raise InvalidMove(_sentence(str(err))) from None
    except engine.OutOfTurn:
        raise NotYourTurn("It is not your turn.") from None
    except engine.GameOver:
        raise GameFinished("This game is over.") from None
    now = timezone.now()
    game.version += 1
    # The log entry and the cached state are written in the same transaction, so the
    # cache can never get ahead of (or behind) the log it must replay from.
    Move.objects.create(
        game=game,
        seq=game.version,
        seat=turn.seat,
        action=action.to_dict(),
        turn_number=state.turn_number,
        by=by,
        user=user,
    )
    turn_changed = after.turn_number != state.turn_number
    if turn_changed:
        # Before store_state: the bank is settled from the ended turn's own start.
        end_turn_clock(game, state.current_player, now)
    if by == Move.By.USER and user is not None:
        _player_is_here(game, turn.seat, user, now)
    store_state(game, after, now)
    game.save()
    logger.info(
        "game %s: move %s, seat %s %s (%s)", game.pk, game.version, turn.seat, action.type, by
    )
    # Announced in this order after commit: the watchers hear of the move first.
    signals.send_about_game(
        signals.move_committed,
        game,
        version=game.version,
        seat=turn.seat,
        turn_number=state.turn_number,
        by=str(by),
        page=page,
    )
    if turn_changed:
        # The turn is over: whatever was being built for it is gone with it.
        Draft.objects.filter(game=game, turn_number__lt=after.turn_number).delete()
        signals.send_about_game(
            signals.turn_ended,
            game,
            turn_number=state.turn_number,
            seat=state.current_player,
            ended_at=now,
            clock=game.table.clock,
        )
    if after.is_over:
        winner = after.outcome.winner if after.outcome is not None else None
        signals.send_about_game(signals.game_finished, game, number=game.number, winner_seat=winner)
        # The result rows, then the round: the next game, or the table finished.
        record_played(game, after, now)
    elif turn_changed:
        announce_turn(game)
    return game


def _player_is_here(game: Game, seat_number: int, user: User, now: datetime) -> None:
    """A move by the player at ``seat_number``: they are here. Their timeouts in a row
    start again from nought (:mod:`.abandonment` counts them) and, in a correspondence
    game, a vacation in progress ends.

    In the move's transaction: the next timeout of this seat must find the count the
    move left, whatever happens after commit.
    """
    Seat.objects.filter(table_id=game.table_id, number=seat_number, timeouts_in_a_row__gt=0).update(
        timeouts_in_a_row=0
    )
    if game.table.clock == Table.Clock.CORRESPONDENCE:
        end_vacation_on_move(user.pk, now)


def store_state(game: Game, state: GameState, now: datetime) -> None:
    """Copy ``state`` and what queries need of it onto ``game`` (not saved)."""
    turn_changed = state.turn_number != game.turn_number
    game.set_engine_state(state)
    game.turn_number = state.turn_number
    if state.outcome is not None:
        game.status = Game.Status.FINISHED
        game.current_seat = None
        game.turn_deadline = game.turn_reminder_at = None
        game.outcome = state.outcome.to_dict()
        game.finished_at = now
    elif turn_changed:
        game.current_seat = state.current_player
        start_turn_clock(game, now)


def _sentence(text: str) -> str:
    """An engine message as a sentence for the page: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return "That cannot be done now."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
