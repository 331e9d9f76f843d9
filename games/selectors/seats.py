"""A table's seats in order, as every read that names the players takes them."""

from __future__ import annotations

from games.models import Game, Seat, Table


def in_seat_order(table: Table) -> list[Seat]:
    """``table``'s seats by number: from its prefetched seats when a list loaded them all
    at once (``prefetch_related("table__seats__user")``), else in one query."""
    return sorted(table.seats.all(), key=lambda seat: seat.number)


def table_seats(game: Game) -> list[Seat]:
    """The seats of ``game``'s table in order, with their members, in one query: what
    the game page's partials need of them."""
    return list(game.table.seats.select_related("user", "replaced_user").order_by("number"))
