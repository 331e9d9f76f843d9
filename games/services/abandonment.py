"""Players who stop playing: turns run out in a row, forfeits, resignations.

A correspondence game must not wait for ever on someone who has gone. Each seat counts
its turns that ran out of time in a row (``Seat.timeouts_in_a_row``); any move of the
player resets it (:func:`games.services.move.make_move` sees to that, in the move's
transaction). When it reaches the table's ``timeouts_to_forfeit`` the player forfeits
the game, in the table's chosen way: they drop out (engine :class:`~engine.actions.Forfeit`,
scored as a loser, play goes on without them and the last seat in play wins) or a bot
of level ``normal`` takes the seat for the rest of the round. A player may also resign
a game at any moment (engine :class:`~engine.actions.Resign`).

An authority above the table (a league whose player withdrew, a suspension) may do
either to a seat at any moment: :func:`hand_seat_to_bot` and :func:`forfeit_seat`, and
give a bot's seat back to the member it replaced (:func:`give_seat_back`); or have the
seat forfeit the game in play and every later game of the round as it is dealt
(:func:`forfeit_for_the_round`). Games knows nothing of why; the caller says which seat.
"""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from engine import game as engine
from games import signals
from games.errors import GameFinished, InvalidMove, TableError
from games.models import BotLevel, Game, Move, Seat, Table
from games.services.locking import lock_seat_of_table
from games.services.move import LoadedGame, load_game, loaded, make_move
from games.services.occupancy import record_change_at_table
from games.services.page_versions import game_shown_anew

TAKEOVER_BOT_LEVEL = BotLevel.NORMAL


def resign(game_id: int, user: User, *, page: str = "") -> Game:
    """``user`` gives up ``game_id``, on their turn or anyone's.

    No version is needed: resigning does not depend on what the player saw. Raises
    :class:`~games.errors.GameFinished`, :class:`~games.errors.NotSeated`, or
    :class:`~games.errors.InvalidMove` when the player has left the game already.
    """
    with transaction.atomic():
        load = load_game(game_id)
        if load.game.is_over:
            raise GameFinished("This game is over.")
        seat = load.seat_of(user)
        if seat in load.state.dropped:
            raise InvalidMove("You have already left this game.")
        return make_move(load, seat, engine.Resign(), Move.By.USER, user, page=page)


def count_timeout(load: LoadedGame, seat_number: int) -> Game:
    """Count a turn of ``seat_number`` that just ran out of time; forfeit at the limit.

    Runs in the transaction of the timeout, with the game loaded: the seat is the loaded
    row, which no other writer changes while the game is locked
    (:mod:`games.services.move`). The count and the forfeit it leads to are part of the
    timeout, not reactions to it: made in its transaction, a forfeit happens exactly
    once, and never to a seat whose count a later move has reset.
    """
    game, seat = load.game, load.seat(seat_number)
    if seat is None or seat.kind != Seat.Kind.PLAYER:
        return game
    seat.timeouts_in_a_row += 1
    table = game.table
    if seat.timeouts_in_a_row < table.timeouts_to_forfeit:
        seat.save(update_fields=["timeouts_in_a_row"])
        return game
    seat.timeouts_in_a_row = 0
    if table.on_forfeit == Table.OnForfeit.BOT:
        _hand_to_bot(seat, game)
        return game
    seat.save(update_fields=["timeouts_in_a_row"])
    if game.is_over or seat_number in load.state.dropped:
        return game
    return make_move(load, seat_number, engine.Forfeit(), Move.By.TIMEOUT)


def hand_seat_to_bot(table_id: int, seat_number: int) -> bool:
    """A bot of level ``normal`` takes seat ``seat_number`` of ``table_id`` for the rest
    of the round, at once (in the game in play too, on its turn or anyone's).

    Returns ``False`` when there is nothing to hand over: the seat is no member's (a bot
    sits there already) or the round is over. Raises :class:`~games.errors.TableError`
    for a seat the table does not have.
    """
    with transaction.atomic():
        locked = _members_seat_in_the_round(table_id, seat_number)
        if locked is None:
            return False
        game, seat = locked
        seat.timeouts_in_a_row = 0
        _hand_to_bot(seat, game)
    return True


def _members_seat_in_the_round(table_id: int, seat_number: int) -> tuple[Game | None, Seat] | None:
    """The game in play (if any) and seat ``seat_number``, locked; ``None`` when the
    round is over or no member plays the seat. Raises :class:`~games.errors.TableError`
    for a seat the table does not have."""
    game, table, seat = lock_seat_of_table(table_id, seat_number)
    if table.status == Table.Status.FINISHED:
        return None
    if seat is None:
        raise TableError(f"There is no seat {seat_number} at this table.")
    if seat.kind != Seat.Kind.PLAYER:
        return None
    return game, seat


def forfeit_for_the_round(table_id: int, seat_number: int) -> bool:
    """Seat ``seat_number`` of ``table_id`` forfeits the game in play (on its turn or
    anyone's) and every later game of the round as it is dealt
    (:attr:`Seat.forfeits_each_game`); its member keeps it, and its results are theirs.

    Returns ``False`` when the round is over or the seat is no member's (a bot plays
    it). Raises :class:`~games.errors.TableError` for a seat the table does not have.
    """
    while True:
        try:
            return _forfeit_for_the_round(table_id, seat_number)
        except _EndedMeanwhile:
            # The game ended while its lock was awaited and dealt the round's next one:
            # start again, locking that one first (game, then table, then seat), rather
            # than lock a game while holding the table, which a move on it would not do.
            # Each turn of this ends a game of the round, so it ends with the round.
            continue


class _EndedMeanwhile(Exception):
    """The game in play ended while the forfeit waited for its lock."""


def _forfeit_for_the_round(table_id: int, seat_number: int) -> bool:
    with transaction.atomic():
        locked = _members_seat_in_the_round(table_id, seat_number)
        if locked is None:
            return False
        game, seat = locked
        if game is not None and game.is_over:
            raise _EndedMeanwhile
        seat.forfeits_each_game = True
        seat.save(update_fields=["forfeits_each_game"])
        if game is not None:
            # Loaded after the seat's write: the move sees the seat as it now is.
            load = loaded(game)
            if seat_number not in load.state.dropped:
                make_move(load, seat_number, engine.Forfeit(), Move.By.RULING)
    return True


def give_seat_back(table_id: int, seat_number: int, user_id: int) -> bool:
    """The member ``user_id``, whom a bot replaced at seat ``seat_number`` of
    ``table_id``, sits there again for the rest of the round (in the game in play too,
    on its turn or anyone's: the bot's moves stand).

    Returns ``False`` when the seat is no longer theirs to take back: the round is
    over, or the seat is not a bot playing for them.
    """
    with transaction.atomic():
        game, table, seat = lock_seat_of_table(table_id, seat_number)
        if table.status == Table.Status.FINISHED or seat is None:
            return False
        if seat.kind != Seat.Kind.BOT or seat.replaced_user_id != user_id:
            return False
        seat.user_id, seat.replaced_user_id = user_id, None
        seat.kind, seat.bot_level, seat.timeouts_in_a_row = Seat.Kind.PLAYER, "", 0
        seat.save(update_fields=["replaced_user", "user", "kind", "bot_level", "timeouts_in_a_row"])
        record_change_at_table(game, seat)
        if game is not None:
            game_shown_anew(game)
            signals.send_about_game(
                signals.seat_given_back, game, sender=Seat, seat=seat.number, user_id=user_id
            )
    return True


def forfeit_seat(game_id: int, seat_number: int) -> Game:
    """Seat ``seat_number`` forfeits ``game_id`` by a ruling, on its turn or anyone's: it
    drops out and play goes on without it (the last seat in play wins).

    Raises :class:`~games.errors.GameFinished`, or :class:`~games.errors.InvalidMove`
    when the seat has left the game already (or the table has no such seat).
    """
    with transaction.atomic():
        load = load_game(game_id)
        if load.game.is_over:
            raise GameFinished("This game is over.")
        if seat_number in load.state.dropped:
            raise InvalidMove("That seat has already left this game.")
        return make_move(load, seat_number, engine.Forfeit(), Move.By.RULING)


def _hand_to_bot(seat: Seat, game: Game | None) -> None:
    """The seat goes to a bot for the rest of the round; the member is remembered. The
    watchers of ``game``, the one in play, hear of it (no game: nobody watches yet)."""
    seat.replaced_user_id = seat.user_id
    seat.user = None
    seat.kind = Seat.Kind.BOT
    seat.bot_level = TAKEOVER_BOT_LEVEL
    seat.save(update_fields=["replaced_user", "user", "kind", "bot_level", "timeouts_in_a_row"])
    record_change_at_table(game, seat)
    if game is not None:
        game_shown_anew(game)
        signals.send_about_game(
            signals.seat_handed_to_bot,
            game,
            sender=Seat,
            seat=seat.number,
            user_id=seat.replaced_user_id,
        )


def forfeit_at_the_deal(
    sender: object, game: Game, table: Table, seats: list[Seat], **_: object
) -> None:
    """The seats that forfeit every game (:attr:`Seat.forfeits_each_game`) forfeit this
    one as it is dealt, in the deal's transaction (:data:`games.signals.game_dealing`):
    no turn of theirs is announced or clocked, and a worker lost after the commit leaves
    nobody waiting for them. A forfeit that ends the game deals the round's next one,
    which does the same."""
    load = LoadedGame(game, seats)
    numbers = [seat.number for seat in seats if seat.forfeits_each_game]
    for number in numbers:
        if game.is_over:
            return
        make_move(load, number, engine.Forfeit(), Move.By.RULING)


signals.game_dealing.connect(forfeit_at_the_deal, sender=Game, dispatch_uid="forfeit_at_the_deal")
