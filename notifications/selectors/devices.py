"""Whether this site pushes, with which key browsers subscribe, and whether a member
has a device that takes their push (written by :mod:`notifications.services.push`)."""

from __future__ import annotations

from django.conf import settings

from notifications import vapid
from notifications.models import PushSubscription


def push_enabled() -> bool:
    """Whether this site offers push: it has a VAPID key (``WEBPUSH_VAPID_PRIVATE_KEY``)."""
    return bool(settings.WEBPUSH_VAPID_PRIVATE_KEY)


def push_public_key() -> str:
    """The applicationServerKey browsers subscribe with (base64url, no padding): the
    public half of the site's VAPID key; "" when the site does not push."""
    return vapid.public_key_of(settings.WEBPUSH_VAPID_PRIVATE_KEY) if push_enabled() else ""


def has_devices(user_id: int) -> bool:
    """Whether the member has a device subscribed to their push."""
    return PushSubscription.objects.filter(user_id=user_id).exists()
