"""What follows in moderation from its own facts (:mod:`moderation.signals`): a filer is
told their report was received, the parties are told of outcomes and appeals, the
moderators who could confirm a proposed ruling are told of it. Connected in
:meth:`moderation.apps.ModerationConfig.ready` (:func:`connect`); receivers run after
the fact's commit and take ids."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import signals as games_signals
from moderation import signals
from moderation.models import Ruling
from moderation.notices import ModerationNotice
from moderation.permissions import conflicts
from moderation.services import benching, outcomes
from moderation.services.checks import moderator_candidates
from notifications.services import notices


def case_filed(sender: type, report_id: int, joined: bool = False, **kwargs: Any) -> None:
    """A report was filed: its filer hears that it was received, or joined an open case."""
    outcomes.tell_report_received(report_id, joined)


def ruling_applied(
    sender: type, ruling_id: int, superseded_id: int | None = None, **kwargs: Any
) -> None:
    """A ruling took effect: its case's parties are told, with its reason, and the
    moderator who proposed it, if a second one confirmed it."""
    outcomes.tell_outcome(ruling_id, superseded_id)
    outcomes.tell_proposer(ruling_id)


def ruling_declined(sender: type, ruling_id: int, **kwargs: Any) -> None:
    """A proposal was declined: the moderator who proposed it is told why."""
    outcomes.tell_proposer(ruling_id)


def appeal_changed(sender: type, appeal_id: int, by_moderator: bool, **kwargs: Any) -> None:
    """An appeal moved: the other side of its thread is told."""
    outcomes.tell_appeal(appeal_id, by_moderator)


def game_started(sender: type, game_id: int, table_id: int, **kwargs: Any) -> None:
    """A game was dealt: a suspended member seated there is handled by the table's rule
    (a matchday opened their fixture, or the next game of a round began)."""
    benching.bench_at_game_start(game_id, table_id, timezone.now())


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
            notices.create(
                user.pk,
                ModerationNotice.MODERATION_QUEUE,
                text,
                link,
                subject=ruling,
                key=f"ruling-proposed:{ruling.pk}",
            )


def connect() -> None:
    """Subscribe moderation's receivers (idempotent: each has a dispatch uid)."""
    games_signals.game_started.connect(game_started, dispatch_uid="moderation.benching")
    signals.case_filed.connect(case_filed, dispatch_uid="moderation.telling.report-received")
    signals.ruling_applied.connect(ruling_applied, dispatch_uid="moderation.telling.outcome")
    signals.ruling_declined.connect(ruling_declined, dispatch_uid="moderation.telling.declined")
    signals.appeal_changed.connect(appeal_changed, dispatch_uid="moderation.telling.appeal")
    signals.ruling_proposed.connect(ask_for_confirmation, dispatch_uid="moderation-ruling-proposed")
