"""Your move: every game where it is the member's turn, the soonest deadline first.

The page lists :func:`your_move_games`; the header shows how many :func:`your_move_ids`
(through :mod:`games.selectors.header`); "next game" is :func:`next_your_move`.
"""

from __future__ import annotations

from accounts.models import User
from games.models import Game
from games.selectors.rows import GameRow, game_rows


def your_move_games(user: User, limit: int | None = None) -> list[GameRow]:
    """Games where it is ``user``'s turn, the soonest deadline first."""
    return game_rows(Game.objects.your_move(user), user, limit)


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
