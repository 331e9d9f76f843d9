"""What follows in the games app from the facts of play (:mod:`games.signals`).

Connected in :meth:`games.apps.GamesConfig.ready`. Every receiver runs after the commit
of the fact it hears of, in the thread that committed it (a request, a task), so it
reads committed rows and may take its own locks; the fact stands whatever it does.

The line between the two sides:

* In the fact's transaction (written by the service, never here): what the fact itself
  makes true and what a later writer must find under the lock - the move log and the
  state, the clock of the turn that ends and of the one that starts (its deadline is in
  the game row, where the sweeps look), the mover's timeouts in a row and a forfeit
  they lead to, the drafts of the ended turn, the round's score and the next game's
  row, a reminder's notification and its ``turn_reminder_at`` (sent exactly once).
* Here, after commit: reactions that need the fact committed, or that may fail or be
  repeated without harm - pushes to the pages (a page that misses one resyncs), the
  bots' and the clock's tasks (a lost one is found by the sweeps; each checks the turn
  number), the "your turn" notification and the marking read of a finished turn's
  notifications (their emails follow in :mod:`notifications.receivers`), and
  computing a member's deadlines again after a vacation changed.

Receivers take ids and the facts the move knew (who plays the turn that started, and
whether it is to be proven), and load afresh only what they write from: by now the game
may have moved on (a bot's task run at once may already have played the turn), and each
says what it does when the turn it heard of is over.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from games import live, signals, tasks
from games.conf import bot_delay, play_now_bot_seconds
from games.models import Game, Seat, Table
from games.selectors import live as live_games
from games.services import notifications
from games.services.page_versions import round_shown_anew


def seed_snapshot(sender: type, game_id: int, **kwargs: Any) -> None:
    """Before the move's push: the game as its pages show it, read once here
    (:func:`games.selectors.live.snapshot`), kept in this process for the answer and its
    sockets and put in the cache for the other processes', so that none of the renders
    the push sets off reads the game again. Should it fail, they read the database."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is not None:
        live_games.seed(live_games.snapshot(game))


def push_move(sender: type, game_id: int, version: int, page: str = "", **kwargs: Any) -> None:
    """The game's watchers hear that it is at a new version (and from which page it was
    made: that page's answer showed it)."""
    live.publish_changed(game_id, version, page)


def count_turn_ended(sender: type, table_id: int, seat: int, **kwargs: Any) -> None:
    """The member whose turn ended has one game fewer awaiting them: their header gets
    its count. The others at the table are told nothing: their counts did not move."""
    live.publish_counts([_member(table_id, seat, kwargs)])


def count_turn_started(sender: type, table_id: int, seat: int, **kwargs: Any) -> None:
    """The member whose turn began (a game's first turn too) has one game more awaiting
    them: their header gets its count. A bot's seat has no header."""
    live.publish_counts([_member(table_id, seat, kwargs)])


def _member(table_id: int, seat: int, facts: dict[str, Any]) -> int | None:
    """The member playing ``seat`` (``None``: a bot, or nobody): the fact's
    ``member_id`` when the service put it there, else read from the seat."""
    if "member_id" in facts:
        member_id: int | None = facts["member_id"]
        return member_id
    return (
        Seat.objects.filter(table_id=table_id, number=seat, kind=Seat.Kind.PLAYER)
        .values_list("user_id", flat=True)
        .first()
    )


def push_draft(sender: type, game_id: int, seat: int, page: str = "", **kwargs: Any) -> None:
    """The watchers see that ``seat`` is building a move (never what); the builder's other
    tabs see the draft, not the page it was built on (its answer showed it)."""
    live.publish_building(game_id, seat, page)


def push_clock(sender: type, game_id: int, **kwargs: Any) -> None:
    """The game's clock changed without a move (a vacation, a bot taking a seat)."""
    live.publish_clock(game_id)


def push_seat_handed_to_bot(sender: type, game_id: int, user_id: int, **kwargs: Any) -> None:
    """The table's clock shows the bot; the member who left sees the game leave their
    list of games awaiting them (and, given the seat back, come back to it)."""
    live.publish_clock(game_id)
    live.publish_counts([user_id])


def play_for_new_bot(sender: type, table_id: int, seat: int, **kwargs: Any) -> None:
    """A bot took a seat whose turn it is now (the seat was handed over mid-turn, not
    at a timeout): no turn starts for it, so its move is queued here. The task checks
    the turn number, so a second one for the same turn does nothing."""
    game = Game.objects.filter(
        table_id=table_id, status=Game.Status.PLAYING, current_seat=seat
    ).first()
    if (
        game is not None
        and Seat.objects.filter(table_id=table_id, number=seat, kind=Seat.Kind.BOT).exists()
    ):
        tasks.play_bot_turn.apply_async((game.pk, game.turn_number), countdown=bot_delay())


def push_results(sender: type, table_id: int, **kwargs: Any) -> None:
    """A ruling changed a game's result: the pages of the table's games show the round's
    totals (and the game its result) again. No game moved, so no version changed."""
    # Bumped here, after the ruling's commit, not in it: the ruling holds its game and
    # the table, and a move of another game of the round locks that game, then the table.
    round_shown_anew(table_id)
    for game_id in Game.objects.filter(table_id=table_id).values_list("pk", flat=True):
        live.publish_clock(game_id)


def push_user(sender: type, user_id: int, **kwargs: Any) -> None:
    """The member's header (the games awaiting them, the first of them) changed."""
    live.publish_counts([user_id])


def tell_player_turn_started(
    sender: type,
    game_id: int,
    turn_number: int,
    clock: str,
    member_id: int | None,
    **kwargs: Any,
) -> None:
    """A correspondence player is notified that their turn began (live games are played
    with the page open; a bot needs no telling). Nothing if the turn is over already."""
    if clock != Table.Clock.CORRESPONDENCE or member_id is None:
        return
    # One transaction: the notification's own announcement waits for its row's commit.
    with transaction.atomic():
        game = (
            Game.objects.select_related("table")
            .filter(pk=game_id, turn_number=turn_number, status=Game.Status.PLAYING)
            .first()
        )
        if game is not None:
            notifications.turn_started(game, member_id)


def queue_turn_tasks(
    sender: type,
    game_id: int,
    turn_number: int,
    deadline: datetime | None,
    reminder_at: datetime | None,
    kind: str,
    **kwargs: Any,
) -> None:
    """Queue what keeps the turn moving: the bot's move if the seat is a bot's; the
    timeout at the deadline and the reminder if they are due before the next sweep
    (:func:`games.tasks.queue_expiry`; the sweep queues the others as they come near).

    Only now, after commit: a task started earlier could load the game before the move
    that began the turn and find nothing to do. Each task carries the turn number and
    does nothing once the turn is over, so one that arrives late or twice is harmless.
    """
    if kind == Seat.Kind.BOT:
        tasks.play_bot_turn.apply_async((game_id, turn_number), countdown=bot_delay())
    _queue_clock(game_id, turn_number, deadline, reminder_at)


def prove_forced_turn(
    sender: type, game_id: int, turn_number: int, wants_proof: bool, **kwargs: Any
) -> None:
    """A member's turn began: the bots' queue proves whether it has any play (for a
    member who gave the standing order, or who may be offered it: the move that
    started the turn asked :func:`games.selectors.forced.proof_wanted`). Only queued
    here: the solver never runs in the request that made the move, and the task does
    nothing once the turn is over."""
    if wants_proof:
        tasks.prove_forced_turn.delay(game_id, turn_number)


def queue_clock_tasks(
    sender: type,
    game_id: int,
    turn_number: int,
    deadline: datetime | None,
    reminder_at: datetime | None,
    **kwargs: Any,
) -> None:
    """The turn's deadline moved: its timeout and reminder are queued for the new times
    (a task for the old time finds the deadline ahead and does nothing)."""
    _queue_clock(game_id, turn_number, deadline, reminder_at)


def _queue_clock(
    game_id: int, turn_number: int, deadline: datetime | None, reminder_at: datetime | None
) -> None:
    if deadline is not None:
        tasks.queue_expiry(game_id, turn_number, deadline)
    if reminder_at is not None:
        tasks.queue_reminder(game_id, turn_number, reminder_at)


def settle_turn_notifications(
    sender: type, game_id: int, turn_number: int, ended_at: datetime, clock: str, **kwargs: Any
) -> None:
    """The ended turn's notifications need nothing more: they are marked read (a live
    game's turns have none)."""
    if clock != Table.Clock.CORRESPONDENCE:
        return
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is not None:
        with transaction.atomic():
            notifications.turn_ended(game, turn_number, ended_at)


def reclock_member(sender: type, user_id: int, **kwargs: Any) -> None:
    """A member's vacations changed: a task computes their deadlines again."""
    tasks.reclock_player.delay(user_id)


def seat_bot_later(sender: type, table_id: int, **kwargs: Any) -> None:
    """A member waits to play now: a bot sits down if nobody has come by then."""
    tasks.seat_bot_for_waiting_table.apply_async((table_id,), countdown=play_now_bot_seconds())


def push_chat(sender: type, table_id: int, **kwargs: Any) -> None:
    """The pages showing the table's chat render it again, each for its own user."""
    live.publish_chat(table_id)


# (signal, receiver) in the order they run for one fact: the push first (its snapshot
# just before it), so the pages hear of a move before anything slower is done.
RECEIVERS: list[tuple[Signal, Callable[..., None]]] = [
    (signals.move_committed, seed_snapshot),
    (signals.move_committed, push_move),
    (signals.turn_ended, count_turn_ended),
    (signals.turn_ended, settle_turn_notifications),
    (signals.turn_started, count_turn_started),
    (signals.turn_started, tell_player_turn_started),
    (signals.turn_started, queue_turn_tasks),
    (signals.turn_started, prove_forced_turn),
    (signals.turn_reclocked, queue_clock_tasks),
    (signals.turn_reclocked, push_clock),
    (signals.seat_handed_to_bot, push_seat_handed_to_bot),
    (signals.seat_handed_to_bot, play_for_new_bot),
    (signals.seat_given_back, push_seat_handed_to_bot),
    (signals.vacation_changed, reclock_member),
    (signals.vacation_changed, push_user),
    (signals.draft_saved, push_draft),
    (signals.opponent_sought, seat_bot_later),
    (signals.results_superseded, push_results),
    (signals.chat_changed, push_chat),
]


def connect() -> None:
    """Subscribe the games app's receivers (idempotent: each has a dispatch uid)."""
    for signal, receiver in RECEIVERS:
        signal.connect(receiver, dispatch_uid=f"games.receivers.{receiver.__name__}")
