"""A member's notifications as their pages read them: the list, the unread count of the
header, and their email preferences (written by :mod:`games.services.notifications`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts.models import User
from games.models import Delivery, Notification, NotificationKind, NotificationPreference

LIST_LIMIT = 50

DEFAULT_DELIVERY: dict[str, str] = {
    NotificationKind.YOUR_TURN: Delivery.IMMEDIATE,
    NotificationKind.TIME_RUNNING_OUT: Delivery.IMMEDIATE,
    NotificationKind.TABLE_INVITATION: Delivery.IMMEDIATE,
    NotificationKind.CLUB_INVITATION: Delivery.IMMEDIATE,
    NotificationKind.CLUB_NEWS: Delivery.DIGEST,
    NotificationKind.LEAGUE_MATCHDAY: Delivery.IMMEDIATE,
    NotificationKind.LEAGUE_SEASON: Delivery.DIGEST,
    NotificationKind.MODERATION_CASE: Delivery.IMMEDIATE,
    NotificationKind.MODERATION_OUTCOME: Delivery.IMMEDIATE,
    NotificationKind.MODERATION_QUEUE: Delivery.IMMEDIATE,
}


def preferences(user: User) -> dict[str, str]:
    """``{kind: delivery}`` for every kind, defaults filled in."""
    chosen = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind: chosen.get(kind, DEFAULT_DELIVERY[kind]) for kind in NotificationKind.values}


def delivery_for(user_id: int, kind: str) -> str:
    chosen = (
        NotificationPreference.objects.filter(user_id=user_id, kind=kind)
        .values_list("delivery", flat=True)
        .first()
    )
    return chosen or DEFAULT_DELIVERY[kind]


@dataclass(frozen=True)
class NotificationItem:
    """A notification in the member's list (plain values: no model reaches a page).
    ``text`` is plain text: templates escape it."""

    id: int
    kind: str
    kind_label: str
    text: str
    url: str
    deadline: datetime | None
    created_at: datetime
    read: bool


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


def notification_list(user: User, limit: int = LIST_LIMIT) -> list[NotificationItem]:
    """The member's notifications, newest first."""
    return [_item(row) for row in Notification.objects.filter(user=user)[:limit]]


def _item(row: Notification) -> NotificationItem:
    return NotificationItem(
        id=row.pk,
        kind=row.kind,
        kind_label=row.kind_label,
        text=row.text,
        url=row.link,
        deadline=row.deadline,
        created_at=row.created_at,
        read=row.read_at is not None,
    )
