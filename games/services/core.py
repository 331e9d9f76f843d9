"""The one path by which a move reaches a game: lock, check, apply, log, then announce.

Every writer (a player's request, the bot task, the turn clock) ends in
:func:`commit_action` while holding the lock taken by :func:`lock_game`. Keeping one
path is what makes the guarantees hold for all of them: the cached state always equals
the replay of the move log, ``version`` counts the moves, and watchers and tasks only
hear of a move once it is committed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.state import GameState
from games import live
from games.errors import (
    GameFinished,
    IllegalPlay,
    InvalidMove,
    NotFound,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    TimeUp,
)
from games.models import Draft, Game, Move, Seat, Table
from games.services import notifications
from games.services.clock import end_turn_clock, start_turn_clock

logger = logging.getLogger("games.services")


@dataclass(frozen=True)
class Turn:
    """A game locked for one writer, with its state and the seat that acts."""

    game: Game
    state: GameState
    seat: int


def lock_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends.

    ``SELECT ... FOR UPDATE`` makes writers to one game queue up: the second of two
    simultaneous moves waits here, then reads the version the first one committed and
    is refused as stale instead of applying a move to a state that no longer exists.
    Checks made before taking the lock prove nothing, so callers lock first.
    """
    try:
        return _locking().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("There is no such game.") from None


def lock_game_if_free(game_id: int, wait: bool = True) -> Game | None:
    """The game row locked, or ``None`` if it is gone - or, with ``wait=False``, if
    another writer holds it: a sweep passes such a game by rather than queue behind a
    move that is about to end the turn anyway (the next sweep comes back if not)."""
    return _locking(skip_locked=not wait).filter(pk=game_id).first()


def _locking(skip_locked: bool = False) -> QuerySet[Game]:
    # The table comes along (its clock settings are read on every turn) but only the
    # game row is locked: writers to other games of the table need not wait.
    return Game.objects.select_related("table").select_for_update(
        skip_locked=skip_locked, of=("self",)
    )


def seat_of(game: Game, user: User) -> int:
    """The seat ``user`` plays in ``game``, or :class:`NotSeated`."""
    number = (
        Seat.objects.filter(table_id=game.table_id, user=user, kind=Seat.Kind.PLAYER)
        .values_list("number", flat=True)
        .first()
    )
    if number is None:
        raise NotSeated("You are not playing in this game.")
    return number


def lock_for_player(game_id: int, user: User, version: int) -> Turn:
    """Lock the game and check that ``user`` may move now on the ``version`` they saw."""
    game = lock_game(game_id)
    if game.is_over:
        raise GameFinished("This game is over.")
    seat = seat_of(game, user)
    # The version comes before the turn: a move sent twice, or from a page that missed
    # a move, is told to reload rather than that it is somebody else's turn.
    if version != game.version:
        raise StaleVersion(
            "The game has changed since your page was loaded (or this move was already "
            "sent). Nothing was done: look at the table again."
        )
    if seat != game.current_seat:
        raise NotYourTurn("It is not your turn.")
    # A clock is only fair if it is exact: once the deadline has passed the turn belongs
    # to the timeout (which may simply not have run yet), so a late move is refused
    # rather than slipped in ahead of it. At the deadline itself both may still try;
    # the row lock lets exactly one of them end the turn.
    if game.turn_deadline is not None and timezone.now() > game.turn_deadline:
        raise TimeUp(
            "Your time for this turn ran out, so this move was not played: the turn ends "
            "as the rules say for a turn out of time."
        )
    return Turn(game, game.engine_state(), seat)


def commit_action(turn: Turn, action: engine.Action, by: Move.By, user: User | None = None) -> Game:
    """Apply ``action`` for ``turn.seat``, save the state, log the move and announce it.

    Must run inside ``transaction.atomic()`` with ``turn.game`` locked by
    :func:`lock_game`. The engine judges first: a refused action raises before anything
    is written, so the transaction has nothing to roll back.
    """
    game, state = turn.game, turn.state
    try:
        after = engine.apply(state, action, turn.seat)
    except engine.IllegalMove as err:
        raise IllegalPlay(err.detail, err.reason) from None
    except engine.InvalidAction as err:
        raise InvalidMove(_sentence(str(err))) from None
    except engine.NotYourTurn:
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
        from games.services.abandonment import player_moved

        player_moved(game, turn.seat, user, now)
    store_state(game, after, now)
    game.save()
    if turn_changed:
        # The turn is over: whatever was being built for it is gone with it, and so is
        # what the notifications about it asked for.
        Draft.objects.filter(game=game, turn_number__lt=after.turn_number).delete()
        notifications.turn_ended(game, state.turn_number, now)
    logger.info(
        "game %s: move %s, seat %s %s (%s)", game.pk, game.version, turn.seat, action.type, by
    )
    next_game = None
    if after.is_over:
        from games.services.results import record_played

        next_game = record_played(game, after, now)
    announce_move(game, turn_changed=after.turn_number != state.turn_number)
    if next_game is not None:
        announce_new_game(next_game)
    return game


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


def announce_move(game: Game, turn_changed: bool) -> None:
    """After commit: push the new version; if a new turn began, start its clock and bot.

    A new turn (or the end of the game) also changes whose move it is: each player's own
    channel hears of it, for the "your move" count in their header.
    """
    if turn_changed:
        push = partial(live.publish_turn, game.pk, game.version, game.table_id)
    else:
        push = partial(live.publish_changed, game.pk, game.version)
    transaction.on_commit(push, robust=True)
    if turn_changed and not game.is_over:
        schedule_turn(game)


def announce_new_game(game: Game) -> None:
    """After commit: start the clock (and the bot) of a game's first turn."""
    transaction.on_commit(partial(live.publish_players, game.table_id), robust=True)
    schedule_turn(game)


def schedule_turn(game: Game) -> None:
    """After commit, queue the tasks that keep the current turn moving.

    They are queued only once the turn is committed: a task that started earlier could
    load the game before the move that created the turn and find nothing to do. Each
    task carries the turn number and does nothing if the turn is over when it runs, so
    a task that arrives late, twice, or for a game that moved on is harmless.
    """
    if game.current_seat is None:
        return
    seat = Seat.objects.filter(table_id=game.table_id, number=game.current_seat).first()
    seat_is_bot = seat is not None and seat.kind == Seat.Kind.BOT
    if (
        seat is not None
        and seat.kind == Seat.Kind.PLAYER
        and seat.user_id is not None
        and game.table.clock == Table.Clock.CORRESPONDENCE
    ):
        # Live games are played with the page open; a correspondence player is told.
        notifications.turn_started(game, seat.user_id)
    _queue_after_commit(game, seat_is_bot)


def schedule_turn_clock(game: Game) -> None:
    """After commit, queue the clock's tasks again: the current turn's deadline moved."""
    _queue_after_commit(game, seat_is_bot=False)


def _queue_after_commit(game: Game, seat_is_bot: bool) -> None:
    callback = partial(
        _queue_turn_tasks,
        game.pk,
        game.turn_number,
        game.turn_deadline,
        game.turn_reminder_at,
        seat_is_bot,
    )
    transaction.on_commit(callback, robust=True)


def _queue_turn_tasks(
    game_id: int,
    turn_number: int,
    deadline: datetime | None,
    reminder_at: datetime | None,
    seat_is_bot: bool,
) -> None:
    from games import tasks
    from games.conf import bot_delay

    if seat_is_bot:
        tasks.play_bot_turn.apply_async((game_id, turn_number), countdown=bot_delay())
    if deadline is not None:
        tasks.queue_expiry(game_id, turn_number, deadline)
    if reminder_at is not None:
        tasks.queue_reminder(game_id, turn_number, reminder_at)


def _sentence(text: str) -> str:
    """An engine message as a sentence for the page: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return "That cannot be done now."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
