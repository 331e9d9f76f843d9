"""A moderator's hold on a running game: its clocks stop while a case about it is open.

While a game is held nobody moves (players are told why, bots wait) and no deadline can
pass: the turn's deadline and reminder are cleared, so neither the sweeps nor a task
already queued finds anything due, and what was left of the turn's clock is kept on
the game. Releasing the hold gives the player exactly that time again, from the moment
of the release (time their clock would have stood still in, a weekend or a vacation,
stops it after the release too: :func:`~games.services.clock.resumed_deadline`), and
announces the turn anew (its tasks are queued again). A reminder
not yet sent when the game was held is not sent: the player sees the game resume.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.errors import GameFinished, InvalidRuling
from games.models import Game
from games.services.clock import announce_turn, resumed_deadline
from games.services.locking import lock_game
from games.services.move import load_game
from games.services.page_versions import game_shown_anew


def hold_clocks(game_id: int, now: datetime | None = None) -> Game:
    """Stop ``game_id``'s clocks. Raises :class:`GameFinished` for a game that is over
    and :class:`InvalidRuling` for one held already."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        game = lock_game(game_id)
        if game.is_over:
            raise GameFinished("This game is over: there is no clock to hold.")
        if game.held_at is not None:
            raise InvalidRuling("This game's clocks are held already.")
        left = None
        if game.turn_deadline is not None:
            left = max(0, round((game.turn_deadline - now).total_seconds()))
        game.held_at, game.held_seconds = now, left
        game.turn_deadline = game.turn_reminder_at = None
        game.save(update_fields=["held_at", "held_seconds", "turn_deadline", "turn_reminder_at"])
        game_shown_anew(game)
    return game


def release_clocks(game_id: int, now: datetime | None = None) -> Game | None:
    """Start ``game_id``'s clocks again where they stopped; ``None`` when it was not held
    (or has ended meanwhile, by a ruling)."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        load = load_game(game_id)
        game = load.game
        if game.held_at is None:
            return None
        seat = load.seat(game.current_seat) if game.current_seat is not None else None
        if game.held_seconds is not None and not game.is_over:
            game.turn_deadline = resumed_deadline(game, seat, game.held_seconds, now)
        # The turn's start moves on by the time held, so the time the player has used
        # (and their time bank's settling) counts none of the hold.
        game.turn_started_at += now - game.held_at
        game.held_at = game.held_seconds = None
        game.save(update_fields=["held_at", "held_seconds", "turn_deadline", "turn_started_at"])
        game_shown_anew(game)
        if not game.is_over:
            announce_turn(game, seat)
    return game
