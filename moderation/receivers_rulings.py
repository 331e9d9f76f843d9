"""What follows a proposed ruling: the moderators who could confirm it are told.

Connected in :meth:`moderation.apps.ModerationConfig.ready`; runs after the commit of
the proposal, with ids only (see :mod:`moderation.signals`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse

from games.models import NotificationKind
from games.services import notifications
from moderation.models import Ruling
from moderation.rules import conflicts
from moderation.services.checks import moderator_candidates


def ask_for_confirmation(sender: type, ruling_id: int, **kwargs: Any) -> None:
    """Every moderator of the case who may confirm the proposed ruling is notified
    once (its key); nothing if it was confirmed or declined meanwhile."""
    ruling = Ruling.objects.select_related("case", "by").filter(pk=ruling_id).first()
    if ruling is None or ruling.status != Ruling.Status.PROPOSED:
        return
    case = ruling.case
    text = (
        f"{ruling.by} proposes a ruling in case {case.pk} ({ruling.get_kind_display().lower()}): "
        "it needs a second moderator's confirmation."
    )
    link = reverse("moderation:ruling", args=[ruling.pk])
    with transaction.atomic():
        for user in moderator_candidates(case):
            if user.pk == ruling.by_id or conflicts(user, case):
                continue
            notifications.create(
                user.pk,
                NotificationKind.MODERATION_QUEUE,
                text,
                link,
                subject=ruling,
                key=f"ruling-proposed:{ruling.pk}",
            )
