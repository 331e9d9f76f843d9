"""The notices of games, made through the notifications app
(:func:`notifications.services.notices.create`; their kinds: :mod:`games.notices`):

- "your turn" when a correspondence turn starts (:func:`turn_started`, from a receiver
  of :data:`games.signals.turn_started`, right after the turn's commit) and "time is
  running out" when a quarter of its time is left (:func:`remind_turn`, from the
  clock's task or sweep): one per member, game, kind and turn, marked read when the
  turn ends (:func:`turn_ended`);
- "you are invited to a table" when a seat is reserved for a member (:func:`invited`),
  marked read once they take it or it is no longer theirs (:func:`seats_changed`).

What decides they are still current (for the list, for an email) is
:mod:`games.selectors.notifications`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat, Table
from games.selectors.notifications import TURN_KINDS, GameNotice, turn_key
from games.selectors.players import game_players
from games.services.locking import lock_game_if_free
from notifications.models import Notification
from notifications.services.notices import about, create, settle

# --- turns -----------------------------------------------------------------------------


def turn_text(kind: str, game: Game, user_id: int) -> str:
    """The notice's sentence: which turn, against whom, where ("Your turn 7 against
    Nina in game 1 of table 5.")."""
    players = game_players(game)
    mine = players.seat_of(user_id)
    others = [name for seat, name in enumerate(players.names) if seat != mine]
    against = " and ".join(others)
    where = f"turn {game.turn_number} against {against} in game {game.number}"
    where += f" of table {game.table_id}"
    if kind == GameNotice.TIME_RUNNING_OUT:
        return f"Time is running out for your {where}."
    return f"Your {where}."


def notify(user_id: int, game: Game, kind: str) -> Notification | None:
    """Notify ``user_id`` of ``kind`` for the game's current turn, once.

    Returns the new notification, or ``None`` if it existed already (a task delivered
    twice, a sweep and a task). Must run inside the transaction that made it true.
    """
    text, deadline = turn_text(kind, game, user_id), game.turn_deadline
    settles_at = game.table.settles_at
    if settles_at is not None and (deadline is None or settles_at < deadline):
        # The table's round is settled first (a league fixture's deadline): that is the
        # moment the player must know.
        text += f" {SETTLED_FIRST}"
        deadline = settles_at
    return create(
        user_id,
        kind,
        text,
        reverse("games:game", args=[game.pk]),
        subject=game,
        key=turn_key(kind, game.pk, game.turn_number),
        deadline=deadline,
    )


SETTLED_FIRST = "Its fixture is due before your turn ends: the game is settled then."


def turn_started(game: Game, user_id: int) -> Notification | None:
    """A correspondence turn of ``user_id`` has started."""
    return notify(user_id, game, GameNotice.YOUR_TURN)


def remind_turn(game_id: int, turn_number: int, wait: bool = True) -> Notification | None:
    """Warn the player that a quarter of turn ``turn_number``'s time is left, once.

    Does nothing (returns ``None``) if the turn is over, the warning was given, or its
    moment has not come (a task delivered early, or a vacation moved it). ``wait=False``
    (the sweep) passes over a game another writer holds instead of queueing behind it.
    """
    with transaction.atomic():
        game = lock_game_if_free(game_id, wait)
        if game is None or game.is_over or game.turn_number != turn_number:
            return None
        if game.turn_reminder_at is None or timezone.now() < game.turn_reminder_at:
            return None
        if game.current_seat is None:
            return None
        game.turn_reminder_at = None
        game.save(update_fields=["turn_reminder_at"])
        seat = Seat.objects.filter(
            table_id=game.table_id, number=game.current_seat, kind=Seat.Kind.PLAYER
        ).first()
        if seat is None or seat.user_id is None:
            return None
        return notify(seat.user_id, game, GameNotice.TIME_RUNNING_OUT)


def turn_ended(game: Game, turn_number: int, now: datetime) -> None:
    """Turn ``turn_number`` of ``game`` is over: its notifications need nothing more."""
    if game.table.clock != Table.Clock.CORRESPONDENCE:
        return  # live games are not notified
    keys = [turn_key(kind, game.pk, turn_number) for kind in TURN_KINDS]
    settle(Notification.objects.filter(about(game), key__in=keys, read_at=None), now)


# --- invitations -----------------------------------------------------------------------


def invitation_key(table_id: int) -> str:
    return f"{GameNotice.TABLE_INVITATION}:table-{table_id}"


def invited(table: Table, inviter: User) -> list[Notification]:
    """Tell every member with a seat reserved at ``table`` that ``inviter`` invited them,
    once per member and table. Must run inside the transaction that reserved the seats."""
    reserved = Seat.objects.filter(table=table, kind=Seat.Kind.RESERVED, user__isnull=False)
    text = f"{inviter} invited you to play at table {table.pk}."
    link = reverse("games:table", args=[table.pk])
    created = (
        create(
            user_id,
            GameNotice.TABLE_INVITATION,
            text,
            link,
            subject=table,
            key=invitation_key(table.pk),
        )
        for user_id in reserved.values_list("user_id", flat=True)
    )
    return [notification for notification in created if notification is not None]


def seats_changed(table: Table, now: datetime) -> None:
    """``table``'s seats changed: an invitation whose member took the seat, or whose
    seat is no longer kept for them, needs nothing more."""
    still_invited = Seat.objects.filter(table=table, kind=Seat.Kind.RESERVED).values("user_id")
    answered = Notification.objects.filter(
        about(table), kind=GameNotice.TABLE_INVITATION, read_at=None
    ).exclude(user_id__in=still_invited)
    settle(answered, now)
