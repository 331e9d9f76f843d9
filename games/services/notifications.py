"""Notifications: what a member should know, in the app and by email.

A notification is a member, a kind, a line of text written when it is created, a link
and maybe a subject (a game, a table; apps above ``games`` add their own). Any app
creates one with :func:`create`, inside the transaction that made it true; after
commit :data:`games.signals.notification_created` tells the member's open pages (their
header count) and, if they want that kind at once, queues an email task
(:mod:`games.mail` decides at sending time whether it is still worth sending). Email
preferences are per kind: at once, in a daily digest, or never
(:class:`~games.models.NotificationPreference`; no row means the default).

The kinds of ``games``:

- "your turn" when a correspondence turn starts (:func:`turn_started`, from a receiver
  of :data:`games.signals.turn_started`, right after the turn's commit) and "time is
  running out" when a quarter of its time is left (:func:`remind_turn`, from the
  clock's task or sweep): one per member, game, kind and turn, marked read when the
  turn ends (:func:`turn_ended`);
- "you are invited to a table" when a seat is reserved for a member (:func:`invited`),
  marked read once they take it or it is no longer theirs (:func:`seats_changed`).

Pages read the list, the unread count and the preferences from
:mod:`games.selectors.notifications`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import partial

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from common.publish import publish_user
from common.signals import send_after_commit
from games import signals
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    Seat,
    Table,
)
from games.selectors.notifications import TURN_KINDS as TURN_KINDS
from games.selectors.notifications import delivery_for
from games.selectors.players import game_players
from games.services.locking import lock_game_if_free

EMAIL_STATE: dict[str, str] = {
    Delivery.IMMEDIATE: Notification.Email.PENDING,
    Delivery.DIGEST: Notification.Email.DIGEST,
    Delivery.NEVER: Notification.Email.OFF,
}


# --- preferences ---------------------------------------------------------------------


def set_preference(user: User, kind: str, delivery: str) -> None:
    """How ``user`` wants ``kind`` emailed: ``immediate``, ``digest`` or ``never``."""
    if kind not in NotificationKind.values or delivery not in Delivery.values:
        raise ValueError(f"no notification preference {kind!r}: {delivery!r}")
    NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"delivery": delivery}
    )


# --- creating them ---------------------------------------------------------------------


def create(
    user_id: int,
    kind: str,
    text: str,
    link: str,
    *,
    subject: models.Model | None = None,
    key: str = "",
    deadline: datetime | None = None,
    mail: bool = True,
) -> Notification | None:
    """Notify ``user_id`` of ``kind``: ``text`` (plain text) leading to ``link`` (a path).

    With a ``key`` the member gets it once: returns ``None`` if one with that key exists
    already (a task delivered twice, a sweep and a task). ``mail=False``: in the app
    only, whatever the member's e-mail preference (one they were mailed about lately).
    Must run inside the transaction that made it true: the header push and the email
    wait for its commit.
    """
    if kind not in NotificationKind.values:
        raise ValueError(f"unknown kind of notification {kind!r}")
    fields = {
        "kind": kind,
        "text": text,
        "link": link,
        "subject": subject,
        "deadline": deadline,
        "email": EMAIL_STATE[delivery_for(user_id, kind)] if mail else Notification.Email.OFF,
    }
    if key:
        notification, created = Notification.objects.get_or_create(
            user_id=user_id, key=key, defaults=fields
        )
        if not created:
            return None
    else:
        notification = Notification.objects.create(user_id=user_id, **fields)
    send_after_commit(
        signals.notification_created,
        Notification,
        notification_id=notification.pk,
        user_id=user_id,
        email_now=notification.email == Notification.Email.PENDING,
    )
    return notification


def about(subject: models.Model) -> models.Q:
    """Notifications whose subject is ``subject`` (a filter)."""
    subject_type = ContentType.objects.get_for_model(subject)
    return models.Q(subject_type=subject_type, subject_id=subject.pk)


# --- turns -----------------------------------------------------------------------------


def turn_key(kind: str, game_id: int, turn_number: int) -> str:
    """The key of a turn's notification: one per member, game, kind and turn."""
    return f"{kind}:game-{game_id}:turn-{turn_number}"


def turn_text(kind: str, game: Game, user_id: int) -> str:
    """The notice's sentence: which turn, against whom, where ("Your turn 7 against
    Nina in game 1 of table 5.")."""
    players = game_players(game)
    mine = players.seat_of(user_id)
    others = [name for seat, name in enumerate(players.names) if seat != mine]
    against = " and ".join(others)
    where = f"turn {game.turn_number} against {against} in game {game.number}"
    where += f" of table {game.table_id}"
    if kind == NotificationKind.TIME_RUNNING_OUT:
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
    keys = [turn_key(kind, game.pk, turn_number) for kind in TURN_KINDS]
    _mark_read(Notification.objects.filter(about(game), key__in=keys, read_at=None), now)


# --- invitations -----------------------------------------------------------------------


def invitation_key(table_id: int) -> str:
    return f"{NotificationKind.TABLE_INVITATION}:table-{table_id}"


def invited(table: Table, inviter: User) -> list[Notification]:
    """Tell every member with a seat reserved at ``table`` that ``inviter`` invited them,
    once per member and table. Must run inside the transaction that reserved the seats."""
    reserved = Seat.objects.filter(table=table, kind=Seat.Kind.RESERVED, user__isnull=False)
    text = f"{inviter} invited you to play at table {table.pk}."
    link = reverse("games:table", args=[table.pk])
    created = (
        create(
            user_id,
            NotificationKind.TABLE_INVITATION,
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
        about(table), kind=NotificationKind.TABLE_INVITATION, read_at=None
    ).exclude(user_id__in=still_invited)
    _mark_read(answered, now)


def _mark_read(unread: models.QuerySet[Notification], now: datetime) -> None:
    users = list(unread.values_list("user_id", flat=True).distinct())
    if users and unread.update(read_at=now):
        for user_id in users:
            transaction.on_commit(partial(publish_user, user_id), robust=True)


def mark_read(user: User, ids: Iterable[int] | None = None) -> int:
    """Mark ``ids`` (all of them if ``None``) of ``user``'s notifications read; returns
    how many were unread. Other members' notifications are never touched."""
    unread = Notification.objects.filter(user=user, read_at=None)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    count = unread.update(read_at=timezone.now())
    if count:
        transaction.on_commit(partial(publish_user, user.pk), robust=True)
    return count
