"""A member's notifications as their pages read them: the list, the unread count of the
header, and their email preferences (written by :mod:`notifications.services.notices`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from accounts.models import User
from notifications import kinds
from notifications.models import Notification, NotificationPreference

LIST_LIMIT = 50

LinkCheck = Callable[[User, Sequence[Notification]], Collection[int]]
"""Which of a member's notices lead where they may no longer go: their ids."""

_link_checks: list[LinkCheck] = []


def add_link_check(check: LinkCheck) -> None:
    """Have the list ask ``check`` which notices it shows without their link (an app
    whose notices' subjects a member may stop seeing: a private club's table they left,
    whose link would lead to a 404). Registered in the app's ``AppConfig.ready()``."""
    if check not in _link_checks:
        _link_checks.append(check)


def preferences(user: User) -> dict[str, str]:
    """``{kind: delivery}`` for every registered kind, defaults filled in."""
    chosen = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind.code: chosen.get(kind.code, kind.delivery) for kind in kinds.registered()}


def delivery_for(user_id: int, kind: str) -> str:
    chosen = (
        NotificationPreference.objects.filter(user_id=user_id, kind=kind)
        .values_list("delivery", flat=True)
        .first()
    )
    return chosen or kinds.get(kind).delivery


@dataclass(frozen=True)
class NotificationItem:
    """A notification in the member's list (plain values: no model reaches a page).
    ``text`` is plain text, its moments in the reader's zone: templates escape it."""

    id: int
    kind: str
    kind_label: str
    text: str
    url: str
    deadline: datetime | None
    created_at: datetime
    read: bool
    # Why its email could not be sent ("" unless it failed).
    email_error: str = ""


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


def notification_list(user: User, limit: int = LIST_LIMIT) -> list[NotificationItem]:
    """The member's notifications, newest first, those still current: each kind says
    which of its notices are (:attr:`notifications.kinds.Kind.current`; a turn's notices
    leave once the turn has passed)."""
    rows = list(Notification.objects.filter(user=user)[: limit * 2])
    shown = _current(rows)
    unlinked: set[int] = set()
    for check in _link_checks:
        unlinked.update(check(user, rows))
    items = [_item(row, link=row.pk not in unlinked) for row in rows if row.pk in shown]
    return items[:limit]


def _current(rows: list[Notification]) -> set[int]:
    """The ids of ``rows`` still current, asking each kind's ``current`` once for all the
    rows of the kinds that share it."""
    judged: dict[Callable[[Sequence[Notification]], Collection[int]], list[Notification]]
    judged = defaultdict(list)
    shown: set[int] = set()
    for row in rows:
        kind = kinds.find(row.kind)
        if kind is None or kind.current is None:
            shown.add(row.pk)
        else:
            judged[kind.current].append(row)
    for current, of_kinds in judged.items():
        shown.update(current(of_kinds))
    return shown


def _item(row: Notification, link: bool = True) -> NotificationItem:
    return NotificationItem(
        id=row.pk,
        kind=row.kind,
        kind_label=row.kind_label,
        text=row.line_in(),  # its moments in the reader's zone, the request's
        url=row.link if link else "",
        deadline=row.deadline,
        created_at=row.created_at,
        read=row.read_at is not None,
        email_error=row.email_error if row.email == Notification.Email.FAILED else "",
    )
