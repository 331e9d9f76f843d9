"""Celery tasks that keep games moving: bots' turns, the turn clock and its reminders.

A task takes ids and a turn number, loads the game afresh and calls a service; it does
nothing when the game is gone or over, or when that turn has already ended. Tasks may
therefore run late, early or twice (a broker redelivers unacknowledged tasks) without
harm. Deadlines live in the database (``Game.turn_deadline``), so the periodic sweeps
(:mod:`games.services.sweeps`, run by Celery beat: ``CELERY_BEAT_SCHEDULE`` in the
settings) find any turn whose task was lost or never queued.

Bots' turns run on a queue of their own ("bots"), everything else on "main" (the CELERY_*
settings), so a bot that thinks long never holds up a clock. Every task has time limits:
the settings' defaults, or its own below where it needs others.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import page_connections
from games.conf import eta_horizon_seconds
from games.errors import NotFound
from games.models import Game
from games.services import forced, lobby, play_bot_move, sweeps, time_out_turn
from games.services import notifications as notices
from games.services.vacations import reclock_games_of

logger = logging.getLogger(__name__)

# A River turn takes two bot moves (draw, then discard); a bot never needs more.
MAX_BOT_MOVES_PER_TURN = 4


@shared_task(ignore_result=True)
def seat_bot_for_waiting_table(table_id: int) -> None:
    """Play now: nobody came in time, so a bot sits down (nothing if someone did)."""
    lobby.seat_bot_if_still_waiting(table_id)


def queue_expiry(game_id: int, turn_number: int, deadline: datetime) -> bool:
    """Queue the timeout of a turn for its deadline, if that is within the sweeps'
    look-ahead (else a sweep queues it when it comes near: most turns end by a move long
    before, and their task would only find them over). Returns whether it was queued."""
    if not _near(deadline):
        return False
    expire_turn.apply_async((game_id, turn_number), eta=deadline)
    return True


def queue_reminder(game_id: int, turn_number: int, moment: datetime) -> bool:
    """Queue the "time is running out" reminder of a turn, like :func:`queue_expiry`."""
    if not _near(moment):
        return False
    remind_turn.apply_async((game_id, turn_number), eta=moment)
    return True


def _near(moment: datetime) -> bool:
    # The horizon of queued tasks stays the cap (a Redis broker hands out again what it
    # held past its visibility timeout), should the sweeps ever be set further apart.
    ahead = min(sweeps.look_ahead(), timedelta(seconds=eta_horizon_seconds()))
    return moment - timezone.now() <= ahead


# The engine gives a bot about 5 s per decision and a River turn takes two: past 20 s
# something is wrong, and the bot gives up (the turn's clock then ends it as anyone's).
BOT_SOFT_TIME_LIMIT = 20
BOT_TIME_LIMIT = 30


@shared_task(
    ignore_result=True,
    soft_time_limit=BOT_SOFT_TIME_LIMIT,
    time_limit=BOT_TIME_LIMIT,
)
def play_bot_turn(game_id: int, turn_number: int) -> None:
    """Play turn ``turn_number`` of a game for the bot whose turn it is.

    Past its soft time limit the bot gives up: the move it was committing rolls back
    (it is written in one transaction), nothing else was written, and the turn's
    deadline ends the turn later as it would a person's.
    """
    try:
        _stall_for_drills(game_id)
        _play_bot_turn(game_id, turn_number)
    except SoftTimeLimitExceeded:
        logger.warning(
            "game %s: the bot gave up turn %s after %s s; its clock will end it",
            game_id,
            turn_number,
            BOT_SOFT_TIME_LIMIT,
        )
        # The limit may have struck inside a query: the connection's state is unknown,
        # so it is dropped (the server rolls back whatever it held).
        connection.close()


def _stall_for_drills(game_id: int) -> None:
    """``GAMES_BOT_STALL_SECONDS`` (0 unless set): a bot that sits on its worker this long
    before it thinks, like one lost in a huge position. Only the tests' and drills'
    settings set it (tests/slow_bot_settings.py), to show that such a bot delays no
    clock and gives up at its time limit."""
    stall = float(getattr(settings, "GAMES_BOT_STALL_SECONDS", 0))
    if stall > 0:
        logger.warning("game %s: the bot stalls for %s s (GAMES_BOT_STALL_SECONDS)", game_id, stall)
        time.sleep(stall)


def _play_bot_turn(game_id: int, turn_number: int) -> None:
    for _ in range(MAX_BOT_MOVES_PER_TURN):
        try:
            game = play_bot_move(game_id, turn_number)
        except NotFound:
            return
        if game is None or game.turn_number != turn_number:
            return
    logger.error("game %s: the bot did not finish turn %s", game_id, turn_number)


@shared_task(
    ignore_result=True,
    soft_time_limit=BOT_SOFT_TIME_LIMIT,
    time_limit=BOT_TIME_LIMIT,
)
def prove_forced_turn(game_id: int, turn_number: int) -> None:
    """On the bots' queue, as the solver may think for seconds: prove whether a member's
    turn has no play, and for a member who gave the standing order queue its draw after
    a delay like the table's turns. A proof cut short by its time limit draws nothing."""
    try:
        proof = forced.prove_turn(game_id, turn_number)
        if proof is None:
            return
        delay = forced.plan_draw(game_id, proof, random.Random(), timezone.now())
    except SoftTimeLimitExceeded:
        logger.warning("game %s: the proof of turn %s ran out of time", game_id, turn_number)
        connection.close()
        return
    # A wait beyond the horizon is not queued (a Redis broker would deliver it again
    # every hour): the sweep makes that draw when its moment comes.
    if delay is not None and delay <= eta_horizon_seconds():
        draw_forced_turn.apply_async((game_id, turn_number, proof.version), countdown=delay)


@shared_task(ignore_result=True)
def draw_forced_turn(game_id: int, turn_number: int, version: int) -> None:
    """Draw for the member by their standing order, if the game is still as proven."""
    forced.draw_for_member(game_id, turn_number, version)


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
    current = Game.objects.active().filter(pk=game_id, turn_number=turn_number).first()
    if current is None or current.turn_deadline is None or getattr(request, "is_eager", False):
        return
    queue_expiry(game_id, turn_number, current.turn_deadline)


@shared_task(ignore_result=True)
def prune_page_connections() -> int:
    """Celery beat, daily: forget connections to game pages older than the retention."""
    return page_connections.prune()


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


@worker_ready.connect
def _catch_up_on_start(**kwargs: object) -> None:
    """A worker that has just started (after a crash, a deploy) sweeps at once: turns
    that came due while no worker ran are ended now, not at beat's next sweep (whose
    message, sent while no worker ran, may have expired)."""
    sweep_expired_turns.delay()


@shared_task(ignore_result=True)
def sweep_turn_reminders() -> int:
    """Celery beat: the same for the "time is running out" reminders."""
    result = sweeps.sweep_reminders(
        lambda game_id, turn: notices.remind_turn(game_id, turn, wait=False),
        queue_reminder,
        timezone.now(),
    )
    return result.done


@shared_task(ignore_result=True)
def sweep_forced_draws() -> int:
    """Celery beat: the standing orders' draws that are due and were not made."""
    return forced.sweep_draws(timezone.now())


@shared_task(ignore_result=True)
def reclock_player(user_id: int) -> int:
    """A member's vacations changed: compute their correspondence deadlines again."""
    return len(reclock_games_of(user_id))
