"""Celery tasks that keep games moving: bots' turns and the turn clock.

A task takes ids and a turn number, loads the game afresh and calls a service; it does
nothing when the game is gone or over, or when that turn has already ended. Tasks may
therefore run late, early or twice (a broker redelivers unacknowledged tasks) without
harm. Deadlines live in the database (``Game.turn_deadline``), so a periodic sweep can
find any turn whose task was lost.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.errors import NotFound
from games.models import Game
from games.services import play_bot_move, time_out_turn

logger = logging.getLogger(__name__)

# A River turn takes two bot moves (draw, then discard); a bot never needs more.
MAX_BOT_MOVES_PER_TURN = 4


@shared_task(ignore_result=True)
def play_bot_turn(game_id: int, turn_number: int) -> None:
    """Play turn ``turn_number`` of a game for the bot whose turn it is."""
    for _ in range(MAX_BOT_MOVES_PER_TURN):
        try:
            game = play_bot_move(game_id, turn_number)
        except NotFound:
            return
        if game is None or game.turn_number != turn_number:
            return
    logger.error("game %s: the bot did not finish turn %s", game_id, turn_number)


@shared_task(ignore_result=True, bind=True)
def expire_turn(self: object, game_id: int, turn_number: int) -> None:
    """End turn ``turn_number`` with a timeout once its deadline has passed."""
    try:
        game = time_out_turn(game_id, turn_number)
    except NotFound:
        return
    if game is not None:
        return
    # Not done: the turn ended already, or the deadline is still ahead (a task run
    # eagerly, or a worker whose clock is ahead). A broker delivers ``eta`` tasks at
    # their time, so only the second case needs a new try, and only outside eager mode.
    request = getattr(self, "request", None)
    current = Game.objects.filter(pk=game_id, turn_number=turn_number, status="playing").first()
    if current is None or current.turn_deadline is None or getattr(request, "is_eager", False):
        return
    expire_turn.apply_async((game_id, turn_number), eta=current.turn_deadline)
