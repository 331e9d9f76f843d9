"""Emails about notifications, sent by Celery tasks (:mod:`notifications.tasks`).

Whether an email is still worth sending is decided when it is sent, under a lock on the
notification row, so a redelivered task sends nothing twice: not if the notification
was read, not to a member without an address, and not if its kind says it is no longer
current (:attr:`notifications.kinds.Kind.mail_skip`: a turn that is over, a game the
player has open, an invitation whose seat is no longer kept).

A daily digest gathers the notifications of the members who asked for one.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from notifications import kinds
from notifications.models import Notification
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


def users_awaiting_digest() -> list[int]:
    """Members with notifications waiting for the digest."""
    waiting = Notification.objects.filter(email=Notification.Email.DIGEST)
    return sorted(set(waiting.values_list("user_id", flat=True)))


def send_digest(user_id: int) -> int:
    """Email ``user_id`` the digest of their waiting notifications that still matter;
    returns how many it listed (0: no email)."""
    with transaction.atomic():
        waiting = list(
            Notification.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("user")
            .prefetch_related("subject")
            .filter(user_id=user_id, email=Notification.Email.DIGEST)
            .order_by("created_at", "pk")
        )
        if not waiting:
            return 0
        listed = [n for n in waiting if skip_reason(n) is None]
        now = timezone.now()
        if listed:
            user = listed[0].user
            items = [_item(n) for n in listed]
            context = {
                "user": user,
                "items": items,
                "counts": digest_counts([n.kind for n in listed]),
                "site_url": settings.SITE_URL,
            }
            _send(user, "emails/digest", context)
        sent_ids = [n.pk for n in listed]
        Notification.objects.filter(pk__in=sent_ids).update(
            email=Notification.Email.SENT, emailed_at=now
        )
        Notification.objects.filter(pk__in=[n.pk for n in waiting if n.pk not in sent_ids]).update(
            email=Notification.Email.SKIPPED
        )
        return len(listed)


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
