"""The kinds of moderation's notices, registered with the notifications app in
:meth:`moderation.apps.ModerationConfig.ready`."""

from __future__ import annotations

from moderation.selectors.queue import is_moderator
from notifications import kinds
from notifications.models import Delivery


class ModerationNotice:
    """The kinds of notice of moderation."""

    MODERATION_CASE = "moderation_case"
    MODERATION_OUTCOME = "moderation_outcome"
    MODERATION_QUEUE = "moderation_queue"


KINDS = (
    kinds.Kind(
        ModerationNotice.MODERATION_CASE,
        "Your reports: received, joined, decided",
        Delivery.IMMEDIATE,
    ),
    kinds.Kind(
        ModerationNotice.MODERATION_OUTCOME,
        "Rulings that concern you, warnings and appeals",
        Delivery.IMMEDIATE,
    ),
    kinds.Kind(
        ModerationNotice.MODERATION_QUEUE,
        "Cases to moderate: escalations and confirmations",
        Delivery.IMMEDIATE,
        offered_to=is_moderator,
    ),
)


def register() -> None:
    kinds.register(*KINDS)
