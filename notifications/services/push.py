"""Web Push: a member's devices (:class:`~notifications.models.PushSubscription`) and
the pushes of their notices, sent by a Celery task (:mod:`notifications.tasks`), never
in a request.

A notice of a kind the member wants pushed (:attr:`~notifications.models.Delivery.PUSH`)
is created ``push=pending``. When its task runs it is pushed at most once (claimed under
a lock on the notice's row, pushed with no lock held): not if it was read, not if its
kind says it is no longer current (:attr:`notifications.kinds.Kind.mail_skip`, which
answers for pushes too: a turn that is over, a game whose page the member has open on
any device), not while :func:`may_push_now` says no. A worker lost between the claim
and the outcome leaves the notice ``sending``: one push lost rather than two sent.

In the member's quiet hours :func:`may_push_now` says no: the notice is ``held``. When
they end, what they held goes in one push (:func:`push_held`), merged: one line per
game (its newest notice: a turn's "your move" once), the notices read or out of date
meanwhile left out.

A turn's "your move" is one notice per member, game and turn (its key), so it is one
push per game and turn however often its task runs; its push carries the game as its
``Topic``, so a push service holding several for a device that is offline delivers only
the newest, and the device shows one notification per game (the service worker's
``tag``).

A push reaching none of the member's devices (none subscribed, or every one gone) is
emailed instead. A push service answering 404 or 410 says the device is gone: its row is
deleted. Any other refusal leaves the device for the next push; a service that cannot be
reached is tried again by the task.

The payload is encrypted for the device (RFC 8291, ``aes128gcm``) and signed with the
site's VAPID key (RFC 8292; ``WEBPUSH_VAPID_PRIVATE_KEY``) by ``pywebpush``.
"""

from __future__ import annotations

import binascii
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.text import Truncator
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.models import User
from notifications import vapid
from notifications.models import Notification, PushSubscription
from notifications.selectors.hours import may_tell_now
from notifications.services.notices import locked, stale_reason

logger = logging.getLogger(__name__)

PUSH_TIMEOUT_SECONDS = 5
"""A push service that does not answer in this long is tried again later."""

GONE = (404, 410)
"""A push service's answers that say the device unsubscribed or expired."""

DEFAULT_TTL = timedelta(days=1)
"""How long a push service keeps a push for a device that is offline, when the notice
has no deadline (with one: until its deadline, within :data:`MAX_TTL`)."""
MAX_TTL = timedelta(days=28)

BODY_CHARS = 600
"""The most of a notice's line a push carries: a push's payload is at most 4 KB, and a
phone shows a few lines (a tap opens the whole of it)."""


class BadSubscription(ValueError):
    """What a browser sent as its subscription cannot be one (the view's 400)."""


class PushUnreachable(Exception):
    """No push service took the push, and some may on a later try (the task retries)."""


class HeldPushUnreachable(PushUnreachable):
    """As :class:`PushUnreachable`, for the merged push of ``ids`` (held by quiet hours),
    left ``pending`` for the task's next try."""

    def __init__(self, message: str, ids: list[int]) -> None:
        super().__init__(message)
        self.ids = ids


# --- the site's key -------------------------------------------------------------------


@lru_cache(maxsize=2)
def _vapid(private: str) -> Vapid:
    return Vapid.from_string(private_key=private)


def vapid_subject() -> str:
    """Who a push service may contact: ``WEBPUSH_VAPID_SUBJECT``, or the site (push
    services require a mailto: or https: address)."""
    if settings.WEBPUSH_VAPID_SUBJECT:
        return str(settings.WEBPUSH_VAPID_SUBJECT)
    site = str(settings.SITE_URL)
    return site if site.startswith("https://") else "mailto:push@localhost"


# --- devices --------------------------------------------------------------------------


@dataclass(frozen=True)
class DeviceKeys:
    """A subscription as a browser sends it, checked."""

    endpoint: str
    p256dh: str
    auth: str


def checked(endpoint: str, p256dh: str, auth: str) -> DeviceKeys:
    """``endpoint`` and keys that can be a device's subscription, or
    :class:`BadSubscription`: an endpoint of a known push service (``https``, a host in
    ``WEBPUSH_ENDPOINT_HOSTS``), a P-256 public key and a 16-byte secret."""
    endpoint, p256dh, auth = endpoint.strip(), p256dh.strip(), auth.strip()
    max_length = PushSubscription._meta.get_field("endpoint").max_length or 500
    if not endpoint or len(endpoint) > max_length:
        raise BadSubscription("no push service's address")
    parts = urlsplit(endpoint)
    scheme = "https" if settings.WEBPUSH_ENDPOINT_HTTPS else parts.scheme
    if parts.scheme != scheme or parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadSubscription("not a push service's address")
    if not _known_host(parts.hostname):
        raise BadSubscription("not a push service this site sends to")
    try:
        point = vapid.b64decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        secret = vapid.b64decode(auth)
    except (ValueError, binascii.Error):
        raise BadSubscription("not a device's keys") from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription("not a device's keys")
    return DeviceKeys(endpoint, vapid.b64encode(point), vapid.b64encode(secret))


def _known_host(host: str) -> bool:
    host = host.lower().rstrip(".")
    return any(
        host == known or host.endswith("." + known)
        for known in (h.lower() for h in settings.WEBPUSH_ENDPOINT_HOSTS)
    )


def subscribe(user: User, keys: DeviceKeys) -> PushSubscription:
    """``user`` takes push on the device of ``keys.endpoint`` (a device another member
    had subscribed is theirs now: one browser, whoever is signed in on it). Past
    ``WEBPUSH_DEVICES_PER_MEMBER``, their least recently used devices are forgotten."""
    with transaction.atomic():
        device, _ = PushSubscription.objects.update_or_create(
            endpoint=keys.endpoint,
            defaults={"user": user, "p256dh": keys.p256dh, "auth": keys.auth},
        )
        kept = PushSubscription.objects.filter(user=user).order_by(
            "-last_success_at", "-created_at", "-pk"
        )
        # The new device first, whatever its (empty) last success says.
        others = kept.exclude(pk=device.pk).values_list("pk", flat=True)
        extra = list(others[max(settings.WEBPUSH_DEVICES_PER_MEMBER - 1, 0) :])
        PushSubscription.objects.filter(pk__in=extra).delete()
    return device


SESSION_DEVICES = "push_endpoints"
"""The session's list of the endpoints subscribed in it: :func:`forget_devices` when it
logs out."""


def forget_devices(user: User, endpoints: list[str]) -> int:
    """``user`` logged out of the browser of ``endpoints``: those devices take no more
    of their pushes (the next person on a shared browser must not read them)."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint__in=endpoints).delete()
    return deleted


def unsubscribe(user: User, endpoint: str) -> bool:
    """``user``'s device at ``endpoint`` takes no more push; whether it was theirs."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint.strip()).delete()
    return deleted > 0


# --- when ------------------------------------------------------------------------------


def may_push_now(user: User, now: datetime) -> bool:
    """Whether ``user`` may be pushed to at ``now``: the one place that decides it.

    Not in their quiet hours: the notice is then ``push=held``, and sent, merged with
    the others held, once they end (:func:`push_held`)."""
    return may_tell_now(user, now)


# --- sending ---------------------------------------------------------------------------


def send_notification_push(notification_id: int) -> str:
    """Push one notice to its member's devices, if it still needs it; what happened:
    ``"sent"``, ``"held"`` (not now: :func:`may_push_now`), ``"emailed"`` (no device
    took it), a reason it was skipped, or ``"done already"``. Raises
    :class:`PushUnreachable` when no device took it but one may on a later try (the
    devices found gone are forgotten all the same).

    Three steps, so that no lock is held while push services answer (a move settling
    the turn's notices must not wait on them): the notice is claimed (``sending``)
    under its row lock, which makes a task delivered twice push once; it is pushed to
    each device; then its outcome is written under the lock again."""
    with transaction.atomic():
        notification, outcome = _claim(notification_id)
    if notification is None:
        return outcome
    now = timezone.now()
    devices = list(PushSubscription.objects.filter(user_id=notification.user_id))
    outcomes = [_push_to(device, notification, now) for device in devices]
    with transaction.atomic():
        outcome = _settle(notification_id, outcomes, now)
    if outcome == "retry":
        raise PushUnreachable(f"no push service took notice {notification_id}")
    return outcome


def _claim(notification_id: int) -> tuple[Notification | None, str]:
    """The notice to push now, marked ``sending``; or ``None`` and why not."""
    notification = locked(notification_id)
    if notification is None or notification.push != Notification.Push.PENDING:
        return None, "done already"
    reason = stale_reason(notification)
    if reason is not None:
        notification.push = Notification.Push.SKIPPED
        notification.save(update_fields=["push"])
        return None, reason
    if not may_push_now(notification.user, timezone.now()):
        notification.push = Notification.Push.HELD
        notification.save(update_fields=["push"])
        return None, "held"
    notification.push = Notification.Push.SENDING
    notification.save(update_fields=["push"])
    return notification, "sending"


def _settle(notification_id: int, outcomes: list[str], now: datetime) -> str:
    """Write what the devices answered: pushed; pending again for the task's next try;
    or, no device having taken it, emailed."""
    notification = locked(notification_id)
    if notification is None or notification.push != Notification.Push.SENDING:
        return "done already"
    if "sent" in outcomes:
        notification.push, notification.pushed_at = Notification.Push.SENT, now
        notification.save(update_fields=["push", "pushed_at"])
        return "sent"
    if "retry" in outcomes:
        notification.push = Notification.Push.PENDING
        notification.save(update_fields=["push"])
        return "retry"
    return _email_instead(notification)


def give_up_on_push(notification_id: int) -> str:
    """No push service took the notice after every try: it is emailed instead."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .filter(pk=notification_id, push=Notification.Push.PENDING)
            .first()
        )
        return "done already" if notification is None else _email_instead(notification)


def payload(notification: Notification) -> dict[str, Any]:
    """What the service worker shows (static/sw.js): a title, the notice's line (its
    moments in the member's zone as it is sent), where a tap leads, and the tag under
    which a newer notification replaces this one."""
    return {
        "title": notification.kind_label,
        "body": Truncator(notification.line_in(notification.user.zone)).chars(BODY_CHARS),
        "url": notification.link,
        "tag": topic(notification),
    }


def topic(notification: Notification) -> str:
    """The notice's subject ("game-12"), or its own id: pushes of one topic replace each
    other on the push service and on the device (a Topic header allows 32 characters of
    the base64url alphabet)."""
    subject_type = notification.subject_type
    if subject_type is not None and notification.subject_id is not None:
        name = f"{subject_type.model}-{notification.subject_id}"
    else:
        name = f"notice-{notification.pk}"
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)
    return safe[:32]


def ttl_seconds(notification: Notification, now: datetime) -> int:
    """How long the push service keeps the push for an offline device: until the
    notice's deadline (no use after it), else :data:`DEFAULT_TTL`."""
    ttl = DEFAULT_TTL if notification.deadline is None else notification.deadline - now
    return int(min(max(ttl, timedelta(minutes=1)), MAX_TTL).total_seconds())


def _push_to(device: PushSubscription, notification: Notification, now: datetime) -> str:
    """Push one notice to one device (as :func:`_deliver`)."""
    data = payload(notification)
    return _deliver(device, data, topic(notification), ttl_seconds(notification, now), now)


def _deliver(
    device: PushSubscription, data: dict[str, Any], topic: str, ttl: int, now: datetime
) -> str:
    """Push ``data`` to one device: ``"sent"``, ``"gone"`` (deleted), ``"refused"``,
    ``"retry"``."""
    info = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}}
    try:
        webpush(
            info,
            data=json.dumps(data),
            vapid_private_key=_vapid(settings.WEBPUSH_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": vapid_subject()},
            content_encoding="aes128gcm",
            headers={"Topic": topic, "Urgency": "normal"},
            ttl=ttl,
            timeout=PUSH_TIMEOUT_SECONDS,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            logger.info("push: device %s of member %s is gone", device.pk, device.user_id)
            device.delete()
            return "gone"
        if status is None or status == 429 or status >= 500:
            logger.warning("push: device %s not reached (%s)", device.pk, status)
            return "retry"
        logger.warning("push: device %s refused a push (%s)", device.pk, status)
        return "refused"
    except OSError:
        # requests' errors (no connection, a timeout) are among them.
        logger.warning("push: device %s not reached", device.pk, exc_info=True)
        return "retry"
    device.last_success_at = now
    device.save(update_fields=["last_success_at"])
    return "sent"


def _email_instead(notification: Notification) -> str:
    """The notice reached no device: its email is queued, after commit."""
    from notifications import tasks

    notification.push = Notification.Push.EMAILED
    update = ["push"]
    if notification.email == Notification.Email.OFF:
        notification.email = Notification.Email.PENDING
        update.append("email")
        transaction.on_commit(lambda: tasks.send_notification_email.delay(notification.pk))
    notification.save(update_fields=update)
    return "emailed"


# --- what quiet hours held -------------------------------------------------------------

QUIET_HOURS_TOPIC = "quiet-hours"
"""The topic (and the device's tag) of a push merging several notices: a newer one
replaces it."""


def push_held(user_id: int, retrying: Sequence[int] = ()) -> tuple[str, list[int]]:
    """Push what ``user_id``'s quiet hours held, once they are over, in one push; what
    happened (as :func:`send_notification_push`) and the notices it carried.

    ``retrying``: the notices of an earlier try that no push service took (left
    ``pending`` for the task's next try), taken again with whatever is held now. Raises
    :class:`PushUnreachable` when no device took it but one may later: its notices are
    then ``pending`` again, for the task to try them again.

    Three steps as for one notice: claimed under their row locks (skipping those
    another task holds, so a task delivered twice pushes once), pushed with no lock held,
    settled under the locks again."""
    now = timezone.now()
    with transaction.atomic():
        claimed = _claim_held(user_id, retrying, now)
    if not claimed:
        return "nothing held", []
    ids = [n.pk for n in claimed]
    shown = merged(claimed)
    data, name = (payload(shown[0]), topic(shown[0])) if len(shown) == 1 else _merged(shown)
    ttl = max(ttl_seconds(n, now) for n in shown)
    devices = list(PushSubscription.objects.filter(user_id=user_id))
    outcomes = [_deliver(device, data, name, ttl, now) for device in devices]
    with transaction.atomic():
        outcome = _settle_held(ids, outcomes, now)
    if outcome == "retry":
        raise HeldPushUnreachable(f"no push service took what member {user_id} had held", ids)
    return outcome, ids


def _claim_held(user_id: int, retrying: Sequence[int], now: datetime) -> list[Notification]:
    """The held notices still worth a push, marked ``sending``; the others skipped. None
    while the member's quiet hours last."""
    taken = models.Q(push=Notification.Push.HELD) | models.Q(
        pk__in=list(retrying), push=Notification.Push.PENDING
    )
    held = list(
        Notification.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("user", "subject_type")
        .filter(taken, user_id=user_id)
        .order_by("created_at", "pk")
    )
    if not held:
        return []
    if not may_push_now(held[0].user, now):
        # Quiet again before a try came back: held for the next end.
        again = [n.pk for n in held if n.push == Notification.Push.PENDING]
        Notification.objects.filter(pk__in=again).update(push=Notification.Push.HELD)
        return []
    current = [n for n in held if stale_reason(n) is None]
    stale = [n.pk for n in held if n not in current]
    Notification.objects.filter(pk__in=stale).update(push=Notification.Push.SKIPPED)
    Notification.objects.filter(pk__in=[n.pk for n in current]).update(
        push=Notification.Push.SENDING
    )
    return current


def merged(notices: Sequence[Notification]) -> list[Notification]:
    """The notices a merged push shows, oldest first: one per topic (a game's newest
    notice stands for all of its own: its turn's "your move" once)."""
    newest: dict[str, Notification] = {}
    for notification in sorted(notices, key=lambda n: (n.created_at, n.pk)):
        newest.pop(topic(notification), None)
        newest[topic(notification)] = notification
    return list(newest.values())


def _merged(shown: Sequence[Notification]) -> tuple[dict[str, Any], str]:
    """The payload of one push showing several notices: a line each, and a tap opens the
    member's list of notices."""
    lines = [f"{n.kind_label}: {payload(n)['body']}" for n in shown]
    data = {
        "title": f"{len(shown)} notices from your quiet hours",
        "body": Truncator("\n".join(lines)).chars(BODY_CHARS),
        "url": reverse("notifications:list"),
        "tag": QUIET_HOURS_TOPIC,
    }
    return data, QUIET_HOURS_TOPIC


def _settle_held(ids: list[int], outcomes: list[str], now: datetime) -> str:
    """Write what the devices answered for the merged push of ``ids``: pushed; pending
    for the task's next try; or, no device having taken it, emailed (held for the
    email that lists what the quiet hours held, sent after commit)."""
    taken = list(
        Notification.objects.select_for_update(of=("self",)).filter(
            pk__in=ids, push=Notification.Push.SENDING
        )
    )
    if not taken:
        return "done already"
    sending = Notification.objects.filter(pk__in=[n.pk for n in taken])
    if "sent" in outcomes:
        sending.update(push=Notification.Push.SENT, pushed_at=now)
        return "sent"
    if "retry" in outcomes:
        sending.update(push=Notification.Push.PENDING)
        return "retry"
    _email_held_instead(taken[0].user_id, [n.pk for n in taken])
    return "emailed"


def give_up_on_held_push(user_id: int, ids: Sequence[int]) -> str:
    """No push service took the merged push after every try: its notices are emailed,
    in the one email listing what the quiet hours held."""
    with transaction.atomic():
        pending = Notification.objects.select_for_update(of=("self",)).filter(
            pk__in=list(ids), user_id=user_id, push=Notification.Push.PENDING
        )
        taken = [n.pk for n in pending]
        if not taken:
            return "done already"
        _email_held_instead(user_id, taken)
        return "emailed"


def _email_held_instead(user_id: int, ids: list[int]) -> None:
    from notifications import tasks

    Notification.objects.filter(pk__in=ids).update(push=Notification.Push.EMAILED)
    Notification.objects.filter(pk__in=ids, email=Notification.Email.OFF).update(
        email=Notification.Email.HELD
    )
    transaction.on_commit(lambda: tasks.send_held_email.delay(user_id))
