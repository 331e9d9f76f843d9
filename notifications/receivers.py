"""What follows a notification (:data:`notifications.signals.notification_created`),
after its commit: its member's header is told, and its email queued if they want it at
once. Connected in :meth:`notifications.apps.NotificationsConfig.ready`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

from common.publish import publish_user
from notifications import signals, tasks


def push_user(sender: type, user_id: int, **kwargs: Any) -> None:
    """The member's header (their unread count) changed."""
    publish_user(user_id)


def email_notification(sender: type, notification_id: int, email_now: bool, **kwargs: Any) -> None:
    """A notification the member wants emailed at once goes to the mail task."""
    if email_now:
        tasks.send_notification_email.delay(notification_id)


# (signal, receiver) in the order they run: the push first.
RECEIVERS: list[tuple[Signal, Callable[..., None]]] = [
    (signals.notification_created, push_user),
    (signals.notification_created, email_notification),
]


def connect() -> None:
    """Subscribe the receivers (idempotent: each has a dispatch uid)."""
    for signal, receiver in RECEIVERS:
        signal.connect(receiver, dispatch_uid=f"notifications.receivers.{receiver.__name__}")
