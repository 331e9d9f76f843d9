"""Celery tasks of notifications: a notice's email or push, the daily digests, and what
quiet hours held (the last two from Celery beat: ``CELERY_BEAT_SCHEDULE`` in the
settings).

A task takes ids and loads afresh; whether an email is still worth sending is decided
when it runs (:mod:`notifications.services.mail`), so it may run late or twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from celery import Task, shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.utils import timezone

from notifications.selectors import hours
from notifications.services import mail, push

logger = logging.getLogger(__name__)

T = TypeVar("T")

# A mail server that refuses a mail or cannot be reached (OSError: smtplib's errors are
# among them) is tried again after a random wait of up to 30 s, then 60, 120... (random,
# so a server coming back is not hit by every waiting mail at once). A mail that cannot be
# written (a template missing) fails at once: trying again would change nothing.
MAIL_RETRIES = 5
MAIL_BACKOFF_SECONDS = 30
MAIL_BACKOFF_MAX_SECONDS = 1800


@shared_task(ignore_result=True, bind=True, max_retries=MAIL_RETRIES)
def send_notification_email(self: Task[Any, Any], notification_id: int) -> str:
    """Email one notification, if it still needs it when the task runs. When it gives
    up, the notification is marked failed with the reason, for the member to read."""
    sent = _mail_or_give_up(
        self,
        lambda: mail.send_notification_email(notification_id),
        lambda reason: mail.give_up_on(notification_id, reason),
    )
    return "failed" if sent is None else sent


# A push service that cannot be reached, or answers 429 or 5xx, is tried again after a
# random wait as a mail server is; a push no service took after every try is emailed.
PUSH_RETRIES = 4


# Each device gets PUSH_TIMEOUT_SECONDS, one after the other (at most
# WEBPUSH_DEVICES_PER_MEMBER of them): more than the tasks' usual 30 s.
@shared_task(
    ignore_result=True,
    bind=True,
    max_retries=PUSH_RETRIES,
    soft_time_limit=90,
    time_limit=120,
)
def send_notification_push(self: Task[Any, Any], notification_id: int) -> str:
    """Push one notice to its member's devices, if it still needs it when the task runs
    (never in a request: a push service may take seconds to answer)."""
    try:
        return push.send_notification_push(notification_id)
    except push.PushUnreachable as error:
        tries = self.request.retries
        if tries < PUSH_RETRIES:
            countdown = get_exponential_backoff_interval(
                MAIL_BACKOFF_SECONDS, tries, MAIL_BACKOFF_MAX_SECONDS, full_jitter=True
            )
            raise self.retry(exc=error, countdown=countdown) from error
        logger.warning("push of notice %s: no service took it, emailed instead", notification_id)
        return push.give_up_on_push(notification_id)


@shared_task(ignore_result=True)
def send_daily_digests() -> int:
    """Celery beat, every quarter of an hour: one digest task per member whose digest
    hour has come in their zone (a zone may be a half or a quarter hour off UTC), or
    came while no run did (:func:`notifications.services.mail.members_due_digest`)."""
    users = mail.members_due_digest(timezone.now())
    for user_id in users:
        send_digest.delay(user_id)
    return len(users)


@shared_task(ignore_result=True, bind=True, max_retries=MAIL_RETRIES)
def send_digest(self: Task[Any, Any], user_id: int) -> int:
    """Email one member their digest; when it gives up, its notifications are marked
    failed with the reason."""
    listed = _mail_or_give_up(
        self,
        lambda: mail.send_digest(user_id),
        lambda reason: mail.give_up_on_digest(user_id, reason),
    )
    return listed or 0


@shared_task(ignore_result=True)
def release_held() -> int:
    """Celery beat, every minute: for each member whose quiet hours are over with
    notices held, one task for the held email and one for the held push (each sends
    nothing a second time, so a run twice or late does no harm)."""
    emails, pushes = hours.members_to_release(timezone.now())
    for user_id in emails:
        send_held_email.delay(user_id)
    for user_id in pushes:
        send_held_push.delay(user_id)
    return len(set(emails) | set(pushes))


@shared_task(ignore_result=True, bind=True, max_retries=MAIL_RETRIES)
def send_held_email(self: Task[Any, Any], user_id: int) -> int:
    """Email one member what their quiet hours held; when it gives up, those notices are
    marked failed with the reason."""
    listed = _mail_or_give_up(
        self,
        lambda: mail.send_held(user_id),
        lambda reason: mail.give_up_on_held(user_id, reason),
    )
    return listed or 0


@shared_task(
    ignore_result=True,
    bind=True,
    max_retries=PUSH_RETRIES,
    soft_time_limit=90,
    time_limit=120,
)
def send_held_push(self: Task[Any, Any], user_id: int, retrying: list[int] | None = None) -> str:
    """Push one member what their quiet hours held, in one push; tried again as a single
    notice's push is, then emailed."""
    try:
        return push.push_held(user_id, retrying or ())[0]
    except push.HeldPushUnreachable as error:
        ids = error.ids
        tries = self.request.retries
        if tries < PUSH_RETRIES:
            countdown = get_exponential_backoff_interval(
                MAIL_BACKOFF_SECONDS, tries, MAIL_BACKOFF_MAX_SECONDS, full_jitter=True
            )
            raise self.retry(args=(user_id, ids), exc=error, countdown=countdown) from error
        logger.warning("held push of member %s: no service took it, emailed instead", user_id)
        return push.give_up_on_held_push(user_id, ids)


def _mail_or_give_up(
    task: Task[Any, Any], send: Callable[[], T], give_up: Callable[[str], object]
) -> T | None:
    """``send()``'s answer; or, when it failed, the task tried again later; or, once it
    has been tried enough (or trying again cannot help), ``give_up(reason)`` and ``None``."""
    try:
        return send()
    except OSError as error:
        tries = task.request.retries
        if tries < MAIL_RETRIES:
            countdown = get_exponential_backoff_interval(
                MAIL_BACKOFF_SECONDS, tries, MAIL_BACKOFF_MAX_SECONDS, full_jitter=True
            )
            raise task.retry(exc=error, countdown=countdown) from error
        reason = f"the mail server did not take it after {tries + 1} tries"
        reason += f" ({type(error).__name__})"
    except Exception as error:
        reason = f"the mail could not be written ({type(error).__name__})"
    logger.exception("%s%s: not emailed, %s", task.name, task.request.args, reason)
    give_up(reason)
    return None
