"""Emails about notifications, sent by Celery tasks (:mod:`notifications.tasks`).

Whether an email is still worth sending is decided when it is sent, under a lock on the
notification row, so a redelivered task sends nothing twice: not if the notification
was read, not to a member without an address, and not if its kind says it is no longer
current (:attr:`notifications.kinds.Kind.mail_skip`: a turn that is over, a game the
player has open, an invitation whose seat is no longer kept).

A daily digest gathers the notifications of the members who asked for one, at the hour
of their day they chose; nothing is mailed in a member's quiet hours: an email due then
is held, and when they end the held ones still current go in one email
(:mod:`notifications.selectors.hours` says when).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max, Min, Q
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from notifications import kinds
from notifications.models import Digest, Notification
from notifications.selectors.hours import DigestDay, latest_digest_day, may_tell_now
from notifications.services.notices import locked, stale_reason

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MailItem:
    """One notification as an email shows it."""

    text: str
    url: str
    deadline: datetime | None
    kind: str
    about_a_turn: bool = False
    """Whether its deadline is the end of the member's turn (else: a date it is due by;
    :attr:`notifications.kinds.Kind.deadline_ends_turn`)."""
    settled_first: bool = False
    """Its kind's deadline ends a turn, but this one's is a moment that comes first (its
    game's round is settled then: a league fixture's deadline)."""


def skip_reason(notification: Notification) -> str | None:
    """Why ``notification`` should not be emailed now, or ``None`` to send it."""
    if notification.read_at is None and not notification.user.email:
        return "no address"
    return stale_reason(notification)


def send_notification_email(notification_id: int) -> str:
    """Email one notification if it still needs it; returns what happened."""
    with transaction.atomic():
        notification = locked(notification_id)
        if notification is None or notification.email != Notification.Email.PENDING:
            return "done already"
        reason = skip_reason(notification)
        if reason is not None:
            notification.email = Notification.Email.SKIPPED
            notification.save(update_fields=["email"])
            return reason
        if not may_tell_now(notification.user, timezone.now()):
            notification.email = Notification.Email.HELD
            notification.save(update_fields=["email"])
            return "held"
        item = _item(notification)
        context = {"user": notification.user, "item": item, "site_url": settings.SITE_URL}
        kind = kinds.find(notification.kind)
        template = kind.email_template if kind else f"emails/{notification.kind}"
        _send(notification.user, template, context)
        notification.email = Notification.Email.SENT
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["email", "emailed_at"])
        return "sent"


def give_up_on(notification_id: int, reason: str) -> bool:
    """Its email could not be sent, and will not be tried again: the notification says
    so, with ``reason`` (a phrase the member reads), rather than stay pending. Whether
    it was still pending."""
    failed = Notification.objects.filter(pk=notification_id, email=Notification.Email.PENDING)
    changed = failed.update(email=Notification.Email.FAILED, email_error=reason[:200])
    return changed > 0


def give_up_on_digest(user_id: int, reason: str) -> int:
    """As :func:`give_up_on`, for the notifications waiting for ``user_id``'s digest;
    returns how many."""
    waiting = Notification.objects.filter(user_id=user_id, email=Notification.Email.DIGEST)
    return waiting.update(email=Notification.Email.FAILED, email_error=reason[:200])


def members_due_digest(now: datetime) -> list[int]:
    """The members whose digest is due at ``now``: their digest hour has come today (or
    came on an earlier day, for a run that comes late), a notice was waiting for it by
    then, and none has been sent since (:func:`digest_due`)."""
    waiting = (
        Notification.objects.filter(email=Notification.Email.DIGEST)
        .order_by()
        .values("user_id")
        .annotate(first=Min("created_at"))
        .values_list("user_id", "first")
    )
    first_waiting = dict(waiting)
    if not first_waiting:
        return []
    sent = (
        Digest.objects.filter(user_id__in=first_waiting)
        .order_by()
        .values("user_id")
        .annotate(last=Max("sent_at"))
        .values_list("user_id", "last")
    )
    last_sent = dict(sent)
    members = User.objects.filter(pk__in=first_waiting).only(
        "pk", "time_zone", "digest_hour", "quiet_from", "quiet_until"
    )
    due = [
        member.pk
        for member in members
        if digest_due(member, now, first_waiting[member.pk], last_sent.get(member.pk))
    ]
    return sorted(due)


def digest_due(
    user: User, now: datetime, first_waiting: datetime, last_sent: datetime | None
) -> DigestDay | None:
    """The day whose digest ``user`` is sent at ``now``, or ``None``: not in their quiet
    hours, not for a notice that came after the day's hour (it waits for the next day's),
    and not twice for one hour (the autumn's repeated hour comes twice)."""
    if not may_tell_now(user, now):
        return None
    latest = latest_digest_day(user, now)
    if first_waiting > latest.due_at:
        return None
    if last_sent is not None and last_sent >= latest.due_at:
        return None
    return latest


def send_digest(user_id: int) -> int:
    """Email ``user_id`` the digest of their waiting notifications that still matter, as
    the digest of the day whose hour came last, unless that day had one; returns how
    many it listed (0: no email).

    Once per member and day: the day's :class:`~notifications.models.Digest` is written
    in the transaction that sends it (a task delivered twice waits on the first's row,
    then finds it), and its notices are locked (a task running alongside finds none)."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.filter(pk=user_id).first()
        if user is None or not may_tell_now(user, now):
            return 0
        day = latest_digest_day(user, now)
        waiting = list(
            Notification.objects.select_for_update(of=("self",), skip_locked=True)
            .prefetch_related("subject")
            .filter(user_id=user_id, email=Notification.Email.DIGEST)
            .order_by("created_at", "pk")
        )
        sent_since = Digest.objects.filter(
            Q(day=day.day) | Q(sent_at__gte=day.due_at), user_id=user_id
        )
        if not waiting or sent_since.exists():
            return 0
        digest, created = Digest.objects.get_or_create(
            user_id=user_id, day=day.day, defaults={"sent_at": now}
        )
        if not created:
            return 0
        for notification in waiting:
            notification.user = user
        listed = [n for n in waiting if skip_reason(n) is None]
        if listed:
            _send_list(user, "emails/digest", listed)
        digest.listed = len(listed)
        digest.save(update_fields=["listed"])
        _mark_sent(waiting, listed, now)
        return len(listed)


def send_held(user_id: int) -> int:
    """Email ``user_id`` what their quiet hours held, once they are over: one email
    listing the notices still current (those read meanwhile, or out of date, are
    dropped); returns how many it listed (0: no email). Its notices are locked, so a
    task delivered twice, or running alongside, sends nothing more."""
    now = timezone.now()
    with transaction.atomic():
        held = list(
            Notification.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("user")
            .prefetch_related("subject")
            .filter(user_id=user_id, email=Notification.Email.HELD)
            .order_by("created_at", "pk")
        )
        if not held or not may_tell_now(held[0].user, now):
            return 0
        listed = [n for n in held if skip_reason(n) is None]
        if listed:
            _send_list(held[0].user, "emails/quiet_hours", listed)
        _mark_sent(held, listed, now)
        return len(listed)


def give_up_on_held(user_id: int, reason: str) -> int:
    """As :func:`give_up_on`, for the notifications held for ``user_id``'s quiet hours."""
    held = Notification.objects.filter(user_id=user_id, email=Notification.Email.HELD)
    return held.update(email=Notification.Email.FAILED, email_error=reason[:200])


def _send_list(user: User, template: str, listed: list[Notification]) -> None:
    context = {
        "user": user,
        "items": [_item(n) for n in listed],
        "counts": digest_counts([n.kind for n in listed]),
        "site_url": settings.SITE_URL,
    }
    _send(user, template, context)


def _mark_sent(taken: list[Notification], listed: list[Notification], now: datetime) -> None:
    """``listed`` were emailed at ``now``; the rest of ``taken`` skipped."""
    sent_ids = {n.pk for n in listed}
    Notification.objects.filter(pk__in=sent_ids).update(
        email=Notification.Email.SENT, emailed_at=now
    )
    Notification.objects.filter(pk__in=[n.pk for n in taken if n.pk not in sent_ids]).update(
        email=Notification.Email.SKIPPED
    )


def digest_counts(codes: list[str]) -> list[str]:
    """What a digest holds, for its subject, as its kinds count it (``counted_as``;
    other notices last): ``["1 invitation", "2 games"]``."""
    counted = Counter(_counted_as(code) for code in codes)
    return [
        f"{n} {count.one if n == 1 else count.many}"
        for count, n in sorted(counted.items(), key=lambda pair: pair[0].rank)
    ]


def _counted_as(code: str) -> kinds.Count:
    kind = kinds.find(code)
    return kinds.OTHER if kind is None else kind.counted_as


def _item(notification: Notification) -> MailItem:
    url = settings.SITE_URL + notification.link
    kind = kinds.find(notification.kind)
    ends_turn = kind.deadline_ends_turn if kind is not None else None
    about_a_turn = ends_turn is not None and ends_turn(notification)
    settled_first = ends_turn is not None and not about_a_turn
    return MailItem(
        notification.line_in(notification.user.zone),  # as the mail's times: their zone
        url,
        notification.deadline,
        notification.kind,
        about_a_turn=about_a_turn,
        settled_first=settled_first,
    )


def _send(user: User, template: str, context: dict[str, object]) -> None:
    with timezone.override(user.zone):  # its times in the member's time zone
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}.txt", context)
    send_mail(subject, body, None, [user.email])
    logger.info("mail %s to member %s", template, user.pk)
