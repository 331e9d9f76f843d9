"""Emails about notifications, sent by Celery tasks (:mod:`games.tasks`).

Whether an email is still worth sending is decided when it is sent, under a lock on the
notification row, so a redelivered task sends nothing twice: not if the notification
was read, not to a member without an address, not if the turn it is about is over, not
to a player who has the game's page open at that moment (:mod:`games.presence`), and
not for an invitation whose seat is no longer kept for the member.

A daily digest gathers the notifications of the members who asked for one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from games import presence
from games.models import Game, Notification, NotificationKind, Seat, Table
from games.services.notifications import TURN_KINDS, turn_key

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MailItem:
    """One notification as an email shows it."""

    text: str
    url: str
    deadline: datetime | None
    kind: str
    settled_first: bool = False
    """Its game's round is settled before the turn ends (a league fixture's deadline):
    the deadline is that moment."""

    @property
    def about_a_turn(self) -> bool:
        """Whether its deadline is the end of the member's turn (else: a fixture's)."""
        return self.kind in TURN_KINDS and not self.settled_first


def skip_reason(notification: Notification) -> str | None:
    """Why ``notification`` should not be emailed now, or ``None`` to send it."""
    if notification.read_at is not None:
        return "read"
    if not notification.user.email:
        return "no address"
    subject = notification.subject
    if notification.kind in TURN_KINDS and isinstance(subject, Game):
        current = turn_key(notification.kind, subject.pk, subject.turn_number)
        if subject.is_over or notification.key != current:
            return "turn over"
        if presence.is_watching(subject.pk, notification.user_id):
            return "watching"
    if notification.kind == NotificationKind.TABLE_INVITATION and isinstance(subject, Table):
        kept = Seat.objects.filter(
            table=subject, user_id=notification.user_id, kind=Seat.Kind.RESERVED
        )
        if not kept.exists():
            return "invitation over"
    return None


def send_notification_email(notification_id: int) -> str:
    """Email one notification if it still needs it; returns what happened."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or notification.email != Notification.Email.PENDING:
            return "done already"
        reason = skip_reason(notification)
        if reason is not None:
            notification.email = Notification.Email.SKIPPED
            notification.save(update_fields=["email"])
            return reason
        item = _item(notification)
        context = {"user": notification.user, "item": item, "site_url": settings.SITE_URL}
        _send(notification.user, f"emails/{notification.kind}", context)
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


def digest_counts(kinds: list[str]) -> list[str]:
    """What a digest holds, for its subject: ``["1 invitation", "2 games"]``."""
    invitations = kinds.count(NotificationKind.TABLE_INVITATION)
    games = sum(1 for kind in kinds if kind in TURN_KINDS)
    others = len(kinds) - invitations - games
    counts = [
        (invitations, "invitation", "invitations"),
        (games, "game", "games"),
        (others, "other notice", "other notices"),
    ]
    return [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]


def _item(notification: Notification) -> MailItem:
    url = settings.SITE_URL + notification.link
    subject = notification.subject if notification.kind in TURN_KINDS else None
    settled_first = (
        isinstance(subject, Game)
        and notification.deadline is not None
        and subject.table.settles_at == notification.deadline
    )
    return MailItem(notification.text, url, notification.deadline, notification.kind, settled_first)


def _send(user: User, template: str, context: dict[str, object]) -> None:
    with timezone.override(user.zone):  # its times in the member's time zone
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}.txt", context)
    send_mail(subject, body, None, [user.email])
    logger.info("mail %s to member %s", template, user.pk)
