"""A move, from the locked read to the announcement: the one path every writer takes.

Every move - a player's request, a bot's task, the turn clock, a ruling, a standing
order - is, in this order:

1. :func:`load_game` (or :func:`load_for_player`, with a player's checks): the game row
   locked, with its table, and the table's seats, read once;
2. :func:`make_move`: the engine judges (a refused action raises before anything is
   written), the clock ends the turn and starts the next from the loaded rows, the move
   is logged and the state stored, in the lock's transaction;
3. the facts announced after commit (:mod:`games.signals`), carrying what the
   receivers need so that they read nothing again.

Keeping one path is what makes the guarantees hold for all writers: the cached state
always equals the replay of the move log, ``version`` counts the moves, and watchers and
tasks only hear of a move once it is committed.

Why the seats may be read once, without a lock of their own: every writer of a seat
while a game of its table is in play locks that game first
(:func:`~games.services.locking.lock_seat_of_table`: a seat handed to a bot, given back,
forfeiting for the round; a member replaced), so under the game's lock the seat rows
cannot change but through this module, which keeps the loaded rows as it writes them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.clock import Pause
from engine.state import GameState
from games import signals
from games.errors import GameFinished, IllegalPlay, InvalidMove, NotFound, NotSeated, NotYourTurn
from games.models import Draft, Game, Move, Seat, Table
from games.selectors.seats import table_seats
from games.selectors.sight import may_see
from games.services.clock import (
    announce_turn,
    settle_bank,
    stopping,
    turn_clock_for,
    vacations_of,
)
from games.services.locking import ensure_in_play, ensure_may_move, lock_game
from games.services.results import record_played
from games.services.vacations import end_vacation_on_move

logger = logging.getLogger("games.services")


@dataclass
class LoadedGame:
    """A game locked for one writer, with its table and its table's seats in order.

    The seats are the rows as this transaction leaves them: a write to a seat in the
    move's path updates the loaded row too, so a second move in the same transaction (a
    timeout then a forfeit, a forfeit then the stop of a round) sees it.
    """

    game: Game
    seats: list[Seat]

    @property
    def state(self) -> GameState:
        """The game's state as it stands now (after the moves made through this load)."""
        return self.game.engine_state()

    def seat(self, number: int) -> Seat | None:
        """Seat ``number`` of the table (``None``: the table has no such seat)."""
        return next((seat for seat in self.seats if seat.number == number), None)

    def seat_of(self, user: User) -> int:
        """The seat ``user`` plays, or :class:`~games.errors.NotSeated`; no query."""
        for seat in self.seats:
            if seat.kind == Seat.Kind.PLAYER and seat.user_id == user.pk:
                return seat.number
        raise NotSeated("You are not playing in this game.")


def loaded(game: Game) -> LoadedGame:
    """``game``, locked (or just inserted) by the caller, with its table's seats."""
    return LoadedGame(game, table_seats(game))


def load_game(game_id: int) -> LoadedGame:
    """The game locked (:func:`~games.services.locking.lock_game`) with its seats: two
    queries. Raises :class:`~games.errors.NotFound`."""
    return loaded(lock_game(game_id))


def load_for_player(game_id: int, user: User, version: int) -> tuple[LoadedGame, int]:
    """The game locked and loaded, and the seat ``user`` moves from, once every check of
    a player's move passed (:func:`~games.services.locking.ensure_may_move`).

    An outsider of a private table is told that there is no such game before anything
    else: to them it does not exist. A player of the table is found among the loaded
    seats, so the question costs no query for them (nor at a public table).
    """
    load = load_game(game_id)
    if not _may_see(load, user):
        raise NotFound("There is no such game.")
    ensure_in_play(load.game)
    seat = load.seat_of(user)
    ensure_may_move(load.game, seat, user, version)
    return load, seat


def _may_see(load: LoadedGame, user: User) -> bool:
    table = load.game.table
    if not table.private:
        return True
    if any(user.pk in (seat.user_id, seat.replaced_user_id) for seat in load.seats):
        return True
    return may_see(user, table)


def make_move(
    load: LoadedGame,
    seat: int,
    action: engine.Action,
    by: Move.By,
    user: User | None = None,
    *,
    page: str = "",
) -> Game:
    """Apply ``action`` for ``seat``, log it, store the state and announce the move.

    Must run inside ``transaction.atomic()`` with the game loaded by :func:`load_game`
    (or inserted in this transaction: a game's forfeits at the deal). ``page`` is the id
    of the page that sent the move, if any: its answer shows the move, so the page's
    socket need not be sent it again. Returns the game.
    """
    game, before = load.game, load.state
    after = _judge(before, action, seat)
    now = timezone.now()
    game.version += 1
    # The log entry and the cached state are written in the same transaction, so the
    # cache can never get ahead of (or behind) the log it must replay from.
    Move.objects.create(
        game=game,
        seq=game.version,
        seat=seat,
        action=action.to_dict(),
        turn_number=before.turn_number,
        by=by,
        user=user,
    )
    vacations = _vacations(load, before, after, user if by == Move.By.USER else None)
    if after.turn_number != before.turn_number:
        # Before the state is stored: the bank is settled from the ended turn's start.
        _settle_bank(load, before.current_player, vacations, now)
    if by == Move.By.USER and user is not None:
        _player_is_here(load, seat, user, vacations, now)
    # Only the columns a move changes: the row holds the seed, the ruleset and the
    # round's facts too, which no move touches.
    game.save(update_fields=store_state(load, after, now, vacations))
    if after.is_over:
        # Drafts of earlier turns are never shown (a draft counts only for the turn it
        # was saved in: games.selectors.drafts), so they are left until the game ends.
        Draft.objects.filter(game=game).delete()
    logger.info("game %s: move %s, seat %s %s (%s)", game.pk, game.version, seat, action.type, by)
    _announce(load, before, after, seat, by, now, page)
    return game


def _judge(state: GameState, action: engine.Action, seat: int) -> GameState:
    """The engine's verdict: the state after ``action``, or the player's sentence."""
    try:
        return engine.apply(state, action, seat)
    except engine.IllegalMove as err:
        raise IllegalPlay(err.detail, err.reason) from None
    except engine.InvalidAction as err:
        raise InvalidMove(_sentence(str(err))) from None
    except engine.OutOfTurn:
        raise NotYourTurn("It is not your turn.") from None
    except engine.GameOver:
        raise GameFinished("This game is over.") from None


def _vacations(
    load: LoadedGame, before: GameState, after: GameState, mover: User | None
) -> dict[int, list[Pause]]:
    """The vacations the move's clock needs, by member, in one query, at correspondence
    tables only (a live clock never stops for them): the ended turn's player's (their
    bank is settled without them), the next player's (their clock stops for them), and
    the moving member's (one in progress ends with the move)."""
    game = load.game
    if game.table.clock != Table.Clock.CORRESPONDENCE:
        return {}
    members: set[int] = set() if mover is None else {mover.pk}
    if after.turn_number != before.turn_number:
        ended = load.seat(before.current_player)
        if game.table.time_bank_seconds and ended is not None and ended.user_id is not None:
            members.add(ended.user_id)
        starts = None if after.is_over else load.seat(after.current_player)
        if starts is not None and starts.kind == Seat.Kind.PLAYER and starts.user_id is not None:
            members.add(starts.user_id)
    # Since the ended turn's start: what stops its clock, and all that is to come.
    return vacations_of(members, game.turn_started_at) if members else {}


def _settle_bank(
    load: LoadedGame, number: int, vacations: dict[int, list[Pause]], now: datetime
) -> None:
    """Seat ``number``'s turn ended: its bank settled, written only if it changed."""
    game, seat = load.game, load.seat(number)
    if seat is None:
        return
    away = vacations.get(seat.user_id, []) if seat.user_id is not None else []
    bank = settle_bank(game, seat, stopping(away, game.turn_started_at), now)
    if bank != seat.bank_seconds:
        Seat.objects.filter(pk=seat.pk).update(bank_seconds=bank)
        seat.bank_seconds = bank


def _player_is_here(
    load: LoadedGame,
    seat_number: int,
    user: User,
    vacations: dict[int, list[Pause]],
    now: datetime,
) -> None:
    """A move by the player at ``seat_number``: they are here. Their timeouts in a row
    start again from nought (:mod:`.abandonment` counts them) and, in a correspondence
    game, a vacation in progress ends.

    In the move's transaction: the next timeout of this seat must find the count the
    move left, whatever happens after commit. Each is written only when there is
    something to write (a count above nought, a vacation in progress among the loaded).
    """
    seat = load.seat(seat_number)
    if seat is not None and seat.timeouts_in_a_row > 0:
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_a_row=0)
        seat.timeouts_in_a_row = 0
    if any(start <= now < end for start, end in vacations.get(user.pk, [])):
        end_vacation_on_move(user.pk, now)


def store_state(
    load: LoadedGame,
    state: GameState,
    now: datetime,
    vacations: dict[int, list[Pause]] | None = None,
) -> list[str]:
    """Copy ``state`` and what queries need of it onto the loaded game (not saved); a
    turn that starts gets its clock from the loaded seat (``vacations``: as
    :func:`_vacations` read them; ``None``: read for the seat if they may stop it).
    Returns the columns of the game that changed, with ``version`` (the caller counts
    the move)."""
    game = load.game
    turn_changed = state.turn_number != game.turn_number
    game.set_engine_state(state)
    game.turn_number = state.turn_number
    if state.outcome is not None:
        game.status = Game.Status.FINISHED
        game.current_seat = None
        game.turn_deadline = game.turn_reminder_at = None
        game.outcome = state.outcome.to_dict()
        game.finished_at = now
        return [*_STORED, *_ENDED]
    if turn_changed:
        game.current_seat = state.current_player
        seat = load.seat(state.current_player)
        pauses = None
        if vacations is not None:
            away = vacations.get(seat.user_id, []) if seat and seat.user_id is not None else []
            pauses = stopping(away, now)
        turn_clock_for(game, seat, now, pauses)
        return [*_STORED, *_STARTED]
    return [*_STORED]


_STORED = ["state", "version", "turn_number"]
"""The columns of the game every move writes."""
_STARTED = ["current_seat", "turn_started_at", "turn_deadline", "turn_reminder_at", "turn_zone"]
"""And those of a move that starts a turn (its clock)."""
_ENDED = ["status", "current_seat", "turn_deadline", "turn_reminder_at", "outcome", "finished_at"]
"""And those of a move that ends the game."""


def _announce(
    load: LoadedGame,
    before: GameState,
    after: GameState,
    seat: int,
    by: Move.By,
    now: datetime,
    page: str,
) -> None:
    """The move's facts, sent after commit in this order: the watchers hear of the move
    first; then the turn that ended, and the game's end or the turn that started."""
    game = load.game
    signals.send_about_game(
        signals.move_committed,
        game,
        version=game.version,
        seat=seat,
        turn_number=before.turn_number,
        by=str(by),
        page=page,
    )
    turn_changed = after.turn_number != before.turn_number
    if turn_changed:
        ended = load.seat(before.current_player)
        signals.send_about_game(
            signals.turn_ended,
            game,
            turn_number=before.turn_number,
            seat=before.current_player,
            ended_at=now,
            clock=game.table.clock,
            member_id=ended.user_id if ended and ended.kind == Seat.Kind.PLAYER else None,
        )
    if after.is_over:
        winner = after.outcome.winner if after.outcome is not None else None
        signals.send_about_game(signals.game_finished, game, number=game.number, winner_seat=winner)
        # The result rows, then the round: the next game, or the table finished.
        record_played(game, after, now, load.seats)
    elif turn_changed:
        announce_turn(game, load.seat(after.current_player))


def _sentence(text: str) -> str:
    """An engine message as a sentence for the page: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return "That cannot be done now."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
