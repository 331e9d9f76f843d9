"""Celery tasks that keep games moving: bots' turns, the turn clock, notifications.

A task takes ids and a turn number, loads the game afresh and calls a service; it does
nothing when the game is gone or over, or when that turn has already ended. Tasks may
therefore run late, early or twice (a broker redelivers unacknowledged tasks) without
harm. Deadlines live in the database (``Game.turn_deadline``), so the periodic sweeps
(:mod:`games.services.sweeps`, run by Celery beat: ``CELERY_BEAT_SCHEDULE`` in the
settings) find any turn whose task was lost or never queued.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone

from games import mail
from games.conf import eta_horizon_seconds
from games.errors import NotFound
from games.models import Game
from games.services import notifications as notices
from games.services import play_bot_move, sweeps, time_out_turn
from games.services.vacations import reclock_games_of

logger = logging.getLogger(__name__)

# A River turn takes two bot moves (draw, then discard); a bot never needs more.
MAX_BOT_MOVES_PER_TURN = 4


def queue_expiry(game_id: int, turn_number: int, deadline: datetime) -> bool:
    """Queue the timeout of a turn for its deadline, if that is near enough (else the
    sweep queues it when it comes near). Returns whether it was queued."""
    if deadline - timezone.now() > timedelta(seconds=eta_horizon_seconds()):
        return False
    expire_turn.apply_async((game_id, turn_number), eta=deadline)
    return True


def queue_reminder(game_id: int, turn_number: int, moment: datetime) -> bool:
    """Queue the "time is running out" reminder of a turn, like :func:`queue_expiry`."""
    if moment - timezone.now() > timedelta(seconds=eta_horizon_seconds()):
        return False
    remind_turn.apply_async((game_id, turn_number), eta=moment)
    return True


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
    game = time_out_turn(game_id, turn_number)
    if game is not None:
        return
    # Not done: the turn ended already, or the deadline is still ahead (a task run
    # eagerly, a worker whose clock is ahead, or a vacation moved the deadline). A
    # broker delivers ``eta`` tasks at their time, so only the second case needs a new
    # try, and only outside eager mode.
    request = getattr(self, "request", None)
    current = Game.objects.filter(pk=game_id, turn_number=turn_number, status="playing").first()
    if current is None or current.turn_deadline is None or getattr(request, "is_eager", False):
        return
    queue_expiry(game_id, turn_number, current.turn_deadline)


@shared_task(ignore_result=True)
def remind_turn(game_id: int, turn_number: int) -> None:
    """Tell the player that a quarter of turn ``turn_number``'s time is left."""
    notices.remind_turn(game_id, turn_number)


@shared_task(ignore_result=True)
def sweep_expired_turns() -> int:
    """Celery beat: end the turns past their deadline whose task did not; queue the
    tasks of those due before the next sweep. Returns how many turns it ended."""
    result = sweeps.sweep_deadlines(
        lambda game_id, turn: time_out_turn(game_id, turn, wait=False),
        queue_expiry,
        timezone.now(),
    )
    if result.due:
        logger.info("sweep: %s turns past their deadline, %s ended", result.due, result.done)
    return result.done


@shared_task(ignore_result=True)
def sweep_turn_reminders() -> int:
    """Celery beat: the same for the "time is running out" reminders."""
    result = sweeps.sweep_reminders(
        lambda game_id, turn: notices.remind_turn(game_id, turn, wait=False),
        queue_reminder,
        timezone.now(),
    )
    return result.done


@shared_task(
    ignore_result=True,
    autoretry_for=(OSError,),
    retry_backoff=30,
    max_retries=5,
)
def send_notification_email(notification_id: int) -> str:
    """Email one notification, if it still needs it when the task runs."""
    return mail.send_notification_email(notification_id)


@shared_task(ignore_result=True)
def send_daily_digests() -> int:
    """Celery beat, daily: one digest task per member with notifications waiting."""
    users = mail.users_awaiting_digest()
    for user_id in users:
        send_digest.delay(user_id)
    return len(users)


@shared_task(ignore_result=True, autoretry_for=(OSError,), retry_backoff=30, max_retries=5)
def send_digest(user_id: int) -> int:
    """Email one member their digest."""
    return mail.send_digest(user_id)


@shared_task(ignore_result=True)
def reclock_player(user_id: int) -> int:
    """A member's vacations changed: compute their correspondence deadlines again."""
    return len(reclock_games_of(user_id))
