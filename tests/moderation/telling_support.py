"""Helpers of the telling tests (outcomes, appeals, the log): a ruling applied the way the
rulings service applies one, and log entries written straight to the table."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.test import TestCase
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from games.models import Result
from games.services.results import SeatCorrection, supersede
from moderation import signals
from moderation.models import Case, LogEntry, Ruling

NOTE = "The server refused a legal play on turn 3: the result is set as it would have been."


def apply_ruling(
    case: Case,
    moderator: User,
    kind: str = Ruling.Kind.SET_RESULT,
    *,
    note: str = NOTE,
    corrections: Mapping[int, SeatCorrection] | None = None,
    target: User | None = None,
    supersedes: Ruling | None = None,
) -> Ruling:
    """A ruling of ``case`` applied by ``moderator`` (its result corrections written
    through the results service), announced after commit like the rulings service
    does, with the commit's callbacks run."""
    now = timezone.now()
    with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
        if corrections:
            supersede(case.game_id, corrections, Result.Source.RULING, note, moderator)
        ruling = Ruling.objects.create(
            case=case,
            kind=kind,
            status=Ruling.Status.APPLIED,
            note=note,
            by=moderator,
            target=target,
            supersedes=supersedes,
            created_at=now,
            applied_at=now,
        )
        LogEntry.objects.create(
            at=now,
            actor=moderator,
            action=LogEntry.Action.RULED,
            case=case,
            club_id=case.club_id,
            summary=f"{moderator} applied a ruling: {ruling.get_kind_display()}",
            reason=note,
        )
        send_after_commit(
            signals.ruling_applied,
            Ruling,
            case_id=case.pk,
            ruling_id=ruling.pk,
            superseded_id=supersedes.pk if supersedes else None,
        )
    return ruling
