"""Your move: every game where it is the member's turn, the soonest deadline first.

The page lists :func:`your_move_games`; the header shows how many :func:`your_move_ids`
(through :mod:`games.context_processors`); "next game" is :func:`next_your_move`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts.models import User
from games.models import Game, Seat, Table


@dataclass(frozen=True)
class YourMoveGame:
    """A game awaiting the member's move (plain values: no model reaches a page)."""

    id: int
    table_id: int
    number: int
    games_in_round: int
    turn_number: int
    turn_started_at: datetime
    deadline: datetime | None
    clock: str
    clock_label: str
    opponents: tuple[str, ...]

    @property
    def is_correspondence(self) -> bool:
        return self.clock == Table.Clock.CORRESPONDENCE


def your_move_games(user: User, limit: int | None = None) -> list[YourMoveGame]:
    """Games where it is ``user``'s turn, the soonest deadline first."""
    games = (
        Game.objects.your_move(user)
        .select_related("table")
        .prefetch_related("table__seats__user", "table__seats__replaced_user")
    )
    if limit is not None:
        games = games[:limit]
    return [_entry(game, user) for game in games]


def your_move_ids(user: User) -> list[int]:
    """The ids of the games awaiting ``user``'s move, in the list's order."""
    return list(Game.objects.your_move(user).values_list("pk", flat=True))


def next_your_move(
    user: User, current_game_id: int | None = None, ids: list[int] | None = None
) -> int | None:
    """The game to turn to next: the one after ``current_game_id`` in the list (round
    to the first), or the first if that game is not in it; ``None`` when no other game
    awaits the member. ``ids``: :func:`your_move_ids`, if already read."""
    ids = your_move_ids(user) if ids is None else ids
    if current_game_id in ids:
        at = ids.index(current_game_id)
        ids = ids[at + 1 :] + ids[:at]
    return ids[0] if ids else None


def _entry(game: Game, user: User) -> YourMoveGame:
    seats = sorted(game.table.seats.all(), key=lambda seat: seat.number)
    return YourMoveGame(
        id=game.pk,
        table_id=game.table_id,
        number=game.number,
        games_in_round=game.table.games_in_round,
        turn_number=game.turn_number,
        turn_started_at=game.turn_started_at,
        deadline=game.turn_deadline,
        clock=game.table.clock,
        clock_label=game.table.get_clock_display(),
        opponents=tuple(
            seat.occupant_name
            for seat in seats
            if not (seat.kind == Seat.Kind.PLAYER and seat.user_id == user.pk)
        ),
    )
