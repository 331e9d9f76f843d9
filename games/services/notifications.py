"""Notifications: "your turn" and "time is running out", in the app and by email.

A correspondence player is notified when a turn of theirs starts (:func:`turn_started`,
from a receiver of :data:`games.signals.turn_started`) and when a quarter of its time is left
(:func:`remind_turn`, from the clock's task or sweep). Each notification is a row, one
per member, game, kind and turn, created in one transaction with what made it true
(the reminder's) or right after the commit of the turn that did (the turn's start);
after commit the member's open pages are told (their header count) and, if they want
that kind at once, an email task is queued (:mod:`games.mail` decides at sending time
whether it is still worth sending). Notifications of a turn are marked read when the
turn ends: there is nothing left to do about them.

Email preferences are per kind: at once, in a daily digest, or never
(:class:`~games.models.NotificationPreference`; no row means the default).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import live, signals
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    Seat,
    Table,
)
from games.services.locking import lock_game_if_free

DEFAULT_DELIVERY: dict[str, str] = {
    NotificationKind.YOUR_TURN: Delivery.IMMEDIATE,
    NotificationKind.TIME_RUNNING_OUT: Delivery.IMMEDIATE,
}
EMAIL_STATE: dict[str, str] = {
    Delivery.IMMEDIATE: Notification.Email.PENDING,
    Delivery.DIGEST: Notification.Email.DIGEST,
    Delivery.NEVER: Notification.Email.OFF,
}
LIST_LIMIT = 50


# --- preferences ---------------------------------------------------------------------


def preferences(user: User) -> dict[str, str]:
    """``{kind: delivery}`` for every kind, defaults filled in."""
    chosen = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind: chosen.get(kind, DEFAULT_DELIVERY[kind]) for kind in NotificationKind.values}


def set_preference(user: User, kind: str, delivery: str) -> None:
    """How ``user`` wants ``kind`` emailed: ``immediate``, ``digest`` or ``never``."""
    if kind not in NotificationKind.values or delivery not in Delivery.values:
        raise ValueError(f"no notification preference {kind!r}: {delivery!r}")
    NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"delivery": delivery}
    )


def delivery_for(user_id: int, kind: str) -> str:
    chosen = (
        NotificationPreference.objects.filter(user_id=user_id, kind=kind)
        .values_list("delivery", flat=True)
        .first()
    )
    return chosen or DEFAULT_DELIVERY[kind]


# --- creating them ---------------------------------------------------------------------


def notify(user_id: int, game: Game, kind: str) -> Notification | None:
    """Notify ``user_id`` of ``kind`` for the game's current turn, once.

    Returns the new notification, or ``None`` if it existed already (a task delivered
    twice, a sweep and a task). Must run inside the transaction that made it true.
    """
    email = EMAIL_STATE[delivery_for(user_id, kind)]
    notification, created = Notification.objects.get_or_create(
        user_id=user_id,
        game=game,
        kind=kind,
        turn_number=game.turn_number,
        defaults={"deadline": game.turn_deadline, "email": email},
    )
    if not created:
        return None
    # After commit the member's pages are told and, if they want it now, it is emailed.
    signals.send_after_commit(
        signals.notification_created,
        Notification,
        notification_id=notification.pk,
        user_id=user_id,
        email_now=email == Notification.Email.PENDING,
    )
    return notification


def turn_started(game: Game, user_id: int) -> Notification | None:
    """A correspondence turn of ``user_id`` has started."""
    return notify(user_id, game, NotificationKind.YOUR_TURN)


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
        return notify(seat.user_id, game, NotificationKind.TIME_RUNNING_OUT)


def turn_ended(game: Game, turn_number: int, now: datetime) -> None:
    """Turn ``turn_number`` of ``game`` is over: its notifications need nothing more."""
    if game.table.clock != Table.Clock.CORRESPONDENCE:
        return  # live games are not notified
    unread = Notification.objects.filter(game=game, turn_number=turn_number, read_at=None)
    users = list(unread.values_list("user_id", flat=True).distinct())
    if users and unread.update(read_at=now):
        for user_id in users:
            transaction.on_commit(partial(live.publish_user, user_id), robust=True)


# --- reading them ----------------------------------------------------------------------


@dataclass(frozen=True)
class NotificationItem:
    """A notification in the member's list (plain values: no model reaches a page)."""

    id: int
    kind: str
    kind_label: str
    text: str
    game_id: int
    game_number: int
    table_id: int
    turn_number: int
    deadline: datetime | None
    created_at: datetime
    read: bool
    url: str


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


def notification_list(user: User, limit: int = LIST_LIMIT) -> list[NotificationItem]:
    """The member's notifications, newest first."""
    rows = Notification.objects.filter(user=user).select_related("game")[:limit]
    return [_item(row) for row in rows]


def mark_read(user: User, ids: Iterable[int] | None = None) -> int:
    """Mark ``ids`` (all of them if ``None``) of ``user``'s notifications read; returns
    how many were unread. Other members' notifications are never touched."""
    unread = Notification.objects.filter(user=user, read_at=None)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    count = unread.update(read_at=timezone.now())
    if count:
        transaction.on_commit(partial(live.publish_user, user.pk), robust=True)
    return count


def describe(notification: Notification) -> str:
    """One line about a notification, for the list and the emails."""
    where = f"game {notification.game.number} of table {notification.game.table_id}"
    if notification.kind == NotificationKind.TIME_RUNNING_OUT:
        return f"Time is running out for your turn in {where}."
    return f"It is your turn in {where}."


def _item(row: Notification) -> NotificationItem:
    return NotificationItem(
        id=row.pk,
        kind=row.kind,
        kind_label=row.get_kind_display(),
        text=describe(row),
        game_id=row.game_id,
        game_number=row.game.number,
        table_id=row.game.table_id,
        turn_number=row.turn_number,
        deadline=row.deadline,
        created_at=row.created_at,
        read=row.read_at is not None,
        url=reverse("games:game", args=[row.game_id]),
    )
