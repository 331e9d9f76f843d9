"""Notifications: creating them, marking them read, and members' email preferences.

A notification is a member, a kind, a line, a link and maybe a subject (a game, a
table, a club, a case). A line with moments in it is given as a
:class:`~notifications.lines.Line` and kept as its facts: each reader reads its moments
in their own zone (:meth:`~notifications.models.Notification.line_in`). Any app creates one with
:func:`create`, inside the transaction that made it true; after commit
:data:`notifications.signals.notification_created` tells the member's open pages (their
header count) and, if they want that kind at once, queues an email task
(:mod:`notifications.services.mail` decides at sending time whether it is still worth
sending), or, if they want it pushed, a push task (:mod:`notifications.services.push`).
Preferences are per kind: pushed to their devices, emailed at once, in a daily digest,
or never (:class:`~notifications.models.NotificationPreference`; no row means the
kind's default); and per member, when (:func:`set_hours`): the hour of their digest and
their quiet hours. A member who wants a kind pushed but has no device subscribed is
emailed instead.

Pages read the list, the unread count and the preferences from
:mod:`notifications.selectors.notices`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time
from functools import partial

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.utils import timezone

from accounts.models import User
from common.publish import publish_user
from common.signals import send_after_commit
from notifications import kinds, signals
from notifications.lines import Line
from notifications.models import Delivery, Notification, NotificationPreference
from notifications.selectors.devices import has_devices, push_enabled
from notifications.selectors.notices import delivery_for

EMAIL_STATE: dict[str, str] = {
    Delivery.PUSH: Notification.Email.OFF,
    Delivery.IMMEDIATE: Notification.Email.PENDING,
    Delivery.DIGEST: Notification.Email.DIGEST,
    Delivery.NEVER: Notification.Email.OFF,
}


def set_preference(user: User, kind: str, delivery: str) -> None:
    """How ``user`` wants ``kind``: ``push``, ``immediate`` (email), ``digest`` or
    ``never``."""
    known = {registered.code for registered in kinds.registered()}
    if kind not in known or delivery not in Delivery.values:
        raise ValueError(f"no notification preference {kind!r}: {delivery!r}")
    NotificationPreference.objects.update_or_create(
        user=user, kind=kind, defaults={"delivery": delivery}
    )


def set_hours(
    user: User, digest_hour: int, quiet_from: time | None, quiet_until: time | None
) -> None:
    """When ``user`` is told, on their own clocks: the hour of their daily digest, and
    their quiet hours (``None``, ``None``: none). The database refuses an hour past 23
    and quiet hours with one end, or ending as they start. What quiet hours held comes
    once they no longer hold it (within a minute: the beat's ``release_held``)."""
    user.digest_hour, user.quiet_from, user.quiet_until = digest_hour, quiet_from, quiet_until
    user.save(update_fields=["digest_hour", "quiet_from", "quiet_until"])


def create(
    user_id: int,
    kind: str,
    text: str | Line,
    link: str,
    *,
    subject: models.Model | None = None,
    key: str = "",
    deadline: datetime | None = None,
    mail: bool = True,
) -> Notification | None:
    """Notify ``user_id`` of ``kind``: ``text`` (plain text, or a
    :class:`~notifications.lines.Line` when it holds moments: each reader reads them in
    their zone) leading to ``link`` (a path).

    ``kind`` must be registered (:class:`notifications.kinds.UnknownKind` otherwise).
    With a ``key`` the member gets it once: returns ``None`` if one with that key exists
    already (a task delivered twice, a sweep and a task). ``mail=False``: in the app
    only, whatever the member's e-mail preference (one they were mailed about lately).
    Must run inside the transaction that made it true: the header push and the email
    wait for its commit.
    """
    kinds.get(kind)
    email, pushed = _delivery(user_id, kind) if mail else (Notification.Email.OFF, False)
    written, facts = _written(user_id, text)
    fields = {
        "kind": kind,
        "text": written,
        "facts": facts,
        "link": link,
        "subject": subject,
        "deadline": deadline,
        "email": email,
        "push": Notification.Push.PENDING if pushed else Notification.Push.OFF,
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
        push_now=notification.push == Notification.Push.PENDING,
    )
    return notification


def _written(user_id: int, text: str | Line) -> tuple[str, list[str | dict[str, str]]]:
    """The notice's ``text`` and ``facts``: a line with moments is kept as its facts, and
    its text written in the member's zone (what reads the row itself reads that)."""
    if isinstance(text, str):
        return text, []
    if not text.has_moments:
        return text.written(), []
    member = User.objects.only("time_zone").get(pk=user_id)
    return text.written(member.zone), text.facts()


def _delivery(user_id: int, kind: str) -> tuple[str, bool]:
    """The notice's email state, and whether it is pushed: as the member wants ``kind``;
    pushed only to a member with a device subscribed on a site that pushes, else
    emailed at once."""
    delivery = delivery_for(user_id, kind)
    if delivery == Delivery.PUSH:
        if push_enabled() and has_devices(user_id):
            return Notification.Email.OFF, True
        delivery = Delivery.IMMEDIATE
    return EMAIL_STATE[delivery], False


def locked(notification_id: int) -> Notification | None:
    """The notification, its row locked until the transaction ends, with its member; or
    ``None``. Its email's and its push's tasks take it so: a task delivered twice waits
    for the first, then finds the work done."""
    return (
        Notification.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(pk=notification_id)
        .first()
    )


def stale_reason(notification: Notification) -> str | None:
    """Why ``notification`` is no longer worth sending anywhere (``"read"``, or what
    its kind says: :attr:`notifications.kinds.Kind.mail_skip`), or ``None``."""
    if notification.read_at is not None:
        return "read"
    kind = kinds.find(notification.kind)
    if kind is not None and kind.mail_skip is not None:
        return kind.mail_skip(notification)
    return None


def about(subject: models.Model) -> models.Q:
    """Notifications whose subject is ``subject`` (a filter)."""
    subject_type = ContentType.objects.get_for_model(subject)
    return models.Q(subject_type=subject_type, subject_id=subject.pk)


def settle(unread: models.QuerySet[Notification], now: datetime) -> None:
    """``unread`` need nothing more (a turn that ended, an invitation answered): they are
    marked read at ``now``, and their members' headers told after commit."""
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
