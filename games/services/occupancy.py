"""The record of who plays each seat of a game (:class:`~games.models.SeatOccupancy`).

Written in the transaction of whatever changes a seat, with the game locked: a game that
starts records its seats (:func:`record_start`), and a seat that changes hands in a game
in play records its new player from the game's next move (:func:`record_change`). Only
the services that start games and hand seats over call these, so every change of a seat
(a substitute, a bot taking over for any reason) is recorded in one place.
"""

from __future__ import annotations

from games.models import Game, Seat, SeatOccupancy


def record_start(game: Game) -> None:
    """``game`` starts: each seat's player is recorded from its first move, for whom the
    seat says they play (a substitute or a bot seated by an authority for a member,
    :attr:`Seat.plays_for`). A seat whose player goes on from the round's previous game
    keeps whom they play for there (a substitute stays "Hank for Frank" game after game)."""
    seats = list(game.table.seats.order_by("number"))
    before = {
        row.seat: row
        for row in SeatOccupancy.objects.filter(
            game__table_id=game.table_id, game__number=game.number - 1
        ).order_by("seat", "from_move", "pk")
    }
    SeatOccupancy.objects.bulk_create(
        _first(game, seat, before.get(seat.number)) for seat in seats if seat.is_filled
    )


def record_change(game: Game, seat: Seat) -> SeatOccupancy:
    """``seat`` (saved, with its new player) changed hands while ``game`` is in play: its
    new player plays it from the game's next move, for the member it was taken from."""
    last = (
        SeatOccupancy.objects.filter(game=game, seat=seat.number).order_by("from_move", "pk").last()
    )
    earlier = (
        SeatOccupancy.objects.filter(game=game, seat=seat.number, member_id=seat.user_id)
        .order_by("from_move", "pk")
        .last()
        if seat.kind == Seat.Kind.PLAYER
        else None
    )
    if seat.kind == Seat.Kind.BOT:
        # A bot plays for the member who left the seat to it.
        plays_for = seat.replaced_user_id
    elif earlier is not None:
        # A member back at the seat (a bot gave it back) sits as they sat before.
        plays_for = earlier.plays_for_id
    elif last is None:
        plays_for = None
    else:
        # A substitute plays for the seat's first member (Ivan after Hank: "for Frank").
        plays_for = last.plays_for_id or last.member_id
    return SeatOccupancy.objects.create(
        game=game,
        seat=seat.number,
        from_move=game.version + 1,
        member_id=seat.user_id if seat.kind == Seat.Kind.PLAYER else None,
        bot_level=seat.bot_level if seat.kind == Seat.Kind.BOT else "",
        plays_for_id=plays_for,
    )


def record_change_at_table(game: Game | None, seat: Seat) -> None:
    """:func:`record_change` for the game in play at ``seat``'s table, as
    :func:`~games.services.locking.lock_seat_of_table` found it (``None``: none in play,
    the next game to start records the seat as it then is). A game that ended while the
    lock was awaited has left the round's next game in play, which started with the
    seat's former player: the change is that game's."""
    if game is not None and game.is_over:
        game = Game.objects.filter(table_id=seat.table_id, status=Game.Status.PLAYING).first()
    if game is not None:
        record_change(game, seat)


def _first(game: Game, seat: Seat, before: SeatOccupancy | None) -> SeatOccupancy:
    member = seat.user_id if seat.kind == Seat.Kind.PLAYER else None
    level = seat.bot_level if seat.kind == Seat.Kind.BOT else ""
    plays_for = seat.plays_for_id
    if seat.kind == Seat.Kind.BOT and seat.replaced_user_id is not None:
        plays_for = seat.replaced_user_id
    if before is not None and (before.member_id, before.bot_level) == (member, level):
        plays_for = before.plays_for_id
    return SeatOccupancy(
        game=game,
        seat=seat.number,
        from_move=1,
        member_id=member,
        bot_level=level,
        plays_for_id=plays_for,
    )
