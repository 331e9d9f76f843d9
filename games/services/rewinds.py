"""A moderator's rewind of a running game to the start of one of its turns.

The move log stays append-only: the rewind is one more logged move (the engine's
:class:`~engine.actions.Rewind`, by ``ruling``), and the state is rebuilt by replaying
the log with it, so the cache still equals the replay and the game's history shows
both what was played and that it was undone. The undrawn pool is shuffled afresh from a
new random seed logged with the rewind (the undone turns showed tiles of the old order,
a draw to its drawer above all), so the replay stays exact and nobody knows their next
draw. Players are told the rewind, not the undone turns
(:mod:`games.selectors.move_log`). Play resumes at that turn, with a fresh clock for its
player; drafts of the undone turns go. The time banks stay as they are
(the time spent on undone turns is not given back).

A rewind regretted at once can be taken back (:func:`restore`): when nobody has moved
since, one more logged move (the engine's :class:`~engine.actions.Restore`) returns the
game to exactly the state it had just before the rewind. Its clock is restarted fairly
rather than put back as it was: the player whose turn it is again gets a fresh turn
clock (the rewind gave the other player one, and the time that passed between the two
rulings was nobody's to spend); the time banks stay as they are.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from engine import game as engine
from games import signals
from games.errors import GameFinished, InvalidRuling
from games.models import Draft, Game, Move
from games.services.clock import announce_turn
from games.services.move import LoadedGame, load_game, store_state


def rewind(
    game_id: int, turn: int, now: datetime | None = None, *, after: int | None = None
) -> Game:
    """Take ``game_id`` back to the start of turn ``turn``. Raises
    :class:`GameFinished` for a game that is over and :class:`InvalidRuling` for a
    turn that is not an earlier one of the game, or when ``after`` (a move's seq: a
    rewind redone after its restore) is no longer the game's last move."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        load = load_game(game_id)
        game = load.game
        if after is not None and not _is_last(game, after, "restore"):
            raise InvalidRuling(
                "The game has been played on since the rewind was taken back: "
                "it cannot be rewound as it was."
            )
        if game.is_over:
            raise GameFinished("This game is over: a finished game is not rewound.")
        if not 1 <= turn < game.turn_number:
            raise InvalidRuling(
                f"Rewind to an earlier turn than the present one ({game.turn_number})."
            )
        _log_ruling(load, engine.Rewind(turn, seed=secrets.token_hex(16)), now)
    return game


def restore(game_id: int, rewind_seq: int, now: datetime | None = None) -> Game:
    """Take back the rewind logged as move ``rewind_seq`` of ``game_id``: the game is
    again as it was just before it. Raises :class:`InvalidRuling` once any move was
    made since (the rewind is no longer the game's last move)."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        load = load_game(game_id)
        if not _is_last(load.game, rewind_seq, "rewind"):
            raise InvalidRuling(
                "The game has been played on since the rewind: it can no longer be taken back."
            )
        _log_ruling(load, engine.Restore(), now)
    return load.game


def _is_last(game: Game, seq: int, kind: str) -> bool:
    """Whether move ``seq`` of ``game``, a ``kind`` action, is its latest move."""
    last = game.moves.order_by("-seq").first()
    return last is not None and last.seq == seq and last.action.get("type") == kind


def _log_ruling(load: LoadedGame, action: engine.Action, now: datetime) -> None:
    """Log ``action`` as a ruling's move of the loaded game, store the replayed state,
    restart the turn's clock (or keep it waiting while the game is held), forget the
    drafts and tell the table."""
    game = load.game
    state = game.engine_state()
    game.version += 1
    Move.objects.create(
        game=game,
        seq=game.version,
        seat=state.current_player,
        action=action.to_dict(),
        turn_number=state.turn_number,
        by=Move.By.RULING,
    )
    store_state(load, game.replay_state(), now)
    if game.held_at is not None:
        # Still held by the case's pause: the clock waits, with the whole turn to come.
        left = game.turn_deadline - now if game.turn_deadline is not None else None
        game.held_seconds = None if left is None else round(left.total_seconds())
        game.turn_deadline = game.turn_reminder_at = None
    game.save()
    Draft.objects.filter(game=game).delete()
    signals.send_about_game(
        signals.move_committed,
        game,
        version=game.version,
        seat=state.current_player,
        turn_number=state.turn_number,
        by=str(Move.By.RULING),
        page="",
    )
    if game.held_at is None and game.current_seat is not None:
        announce_turn(game, load.seat(game.current_seat))
