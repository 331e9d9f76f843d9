"""A table's seats in order, as every read that names the players takes them."""

from __future__ import annotations

from accounts.models import User
from games.errors import NotSeated
from games.models import Game, Seat, Table


def in_seat_order(table: Table) -> list[Seat]:
    """``table``'s seats by number: from its prefetched seats when a list loaded them all
    at once (``prefetch_related("table__seats__user")``), else in one query."""
    return sorted(table.seats.all(), key=lambda seat: seat.number)


def table_seats(game: Game) -> list[Seat]:
    """The seats of ``game``'s table in order, with their members, in one query: what
    the game page's partials need of them."""
    return list(
        game.table.seats.select_related("user", "replaced_user", "plays_for").order_by("number")
    )


def seat_of(game: Game, user: User) -> int:
    """The seat ``user`` plays in ``game``, or :class:`~games.errors.NotSeated`."""
    number = (
        Seat.objects.filter(table_id=game.table_id, user=user, kind=Seat.Kind.PLAYER)
        .values_list("number", flat=True)
        .first()
    )
    if number is None:
        raise NotSeated("You are not playing in this game.")
    return number
