"""What the one path of a move was called before it had a module of its own.

:func:`commit_action` is kept, as a wrapper of :func:`games.services.move.make_move`,
for code written against it; the services themselves load their game with
:func:`~games.services.move.load_game` and move with
:func:`~games.services.move.make_move` (:mod:`games.services.move` says why in that
order).
"""

from __future__ import annotations

from accounts.models import User
from engine import game as engine
from games.models import Game, Move
from games.services.locking import (
    LockedTurn,
    lock_for_player,
    lock_game,
    lock_game_if_free,
)
from games.services.move import loaded, make_move, store_state

__all__ = [
    # The locks lived here once; code written against that still finds them.
    "LockedTurn",
    "commit_action",
    "lock_for_player",
    "lock_game",
    "lock_game_if_free",
    "store_state",
]


def commit_action(
    turn: LockedTurn, action: engine.Action, by: Move.By, user: User | None = None
) -> Game:
    """:func:`~games.services.move.make_move` for a turn locked the old way (its seats
    are read here)."""
    return make_move(loaded(turn.game), turn.seat, action, by, user)
