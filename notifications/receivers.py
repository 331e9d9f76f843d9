"""What follows a notification (:data:`notifications.signals.notification_created`),
after its commit: its member's header is told, and its email or push queued if they
want it at once. Connected in :meth:`notifications.apps.NotificationsConfig.ready`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_logged_out
from django.dispatch import Signal

from common.publish import publish_user
from notifications import signals, tasks
from notifications.services import push


def push_user(sender: type, user_id: int, **kwargs: Any) -> None:
    """The member's header (their unread count) changed."""
    publish_user(user_id)


def email_notification(sender: type, notification_id: int, email_now: bool, **kwargs: Any) -> None:
    """A notification the member wants emailed at once goes to the mail task."""
    if email_now:
        tasks.send_notification_email.delay(notification_id)


def push_notification(
    sender: type, notification_id: int, push_now: bool = False, **kwargs: Any
) -> None:
    """A notification the member wants pushed goes to the push task."""
    if push_now:
        tasks.send_notification_push.delay(notification_id)


def forget_devices_of_session(sender: type, request: Any, user: Any, **kwargs: Any) -> None:
    """A member logs out: the devices they subscribed in this session take no more of
    their pushes."""
    endpoints = request.session.get(push.SESSION_DEVICES, []) if request is not None else []
    if user is not None and endpoints:
        push.forget_devices(user, endpoints)


# (signal, receiver) in the order they run: the push first.
RECEIVERS: list[tuple[Signal, Callable[..., None]]] = [
    (signals.notification_created, push_user),
    (signals.notification_created, email_notification),
    (signals.notification_created, push_notification),
    (user_logged_out, forget_devices_of_session),
]


def connect() -> None:
    """Subscribe the receivers (idempotent: each has a dispatch uid)."""
    for signal, receiver in RECEIVERS:
        signal.connect(receiver, dispatch_uid=f"notifications.receivers.{receiver.__name__}")
