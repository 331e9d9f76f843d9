"""Opening a case's evidence: the one door to every rack of a game.

Whoever decides goes through, read only (``moderation.open_evidence``): the moderator
who claimed the case, a second moderator asked to confirm a ruling of it, whoever
answers an open appeal of it; each only while they could take the case (a conflict of
interest closes the door). Everyone else, the game's players above all, is answered as
if there were no such page: 404, which says nothing about whether the case exists.
Each opening is logged once for what it is for (a claim, a proposal, an appeal).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from accounts.models import User
from moderation.errors import NotFound
from moderation.models import Appeal, Case, LogEntry, Ruling

NOT_YOURS = "There is no such evidence."


def evidence_case(case_id: int, user: User) -> Case:
    """The case whose evidence ``user`` may read, checked without changing anything: a
    request refused after the door (for its query, or a game that cannot be replayed)
    leaves no trace; :func:`open_evidence` then marks the opening."""
    case = Case.objects.select_related("game__table", "club").filter(pk=case_id).first()
    return _through_the_door(case, user)


def open_evidence(case_id: int, user: User) -> Case:
    """The case whose evidence ``user`` may read, its claim marked as seen (for its
    claimer); the first opening for each reason to read it is logged (the log says who
    looked at the racks, when, and why)."""
    with transaction.atomic():
        # Locked: the claim, the proposals and the appeals cannot change while we
        # decide and log.
        case = _through_the_door(
            Case.objects.select_for_update(of=("self",))
            .select_related("game__table", "club")
            .filter(pk=case_id)
            .first(),
            user,
        )
        now = timezone.now()
        if case.claimed_by_id == user.pk:
            Case.objects.filter(pk=case.pk).update(claim_seen_at=now)
            case.claim_seen_at = now
        since, why = _reason_to_read(case, user)
        opened = LogEntry.objects.filter(
            case=case, actor=user, action=LogEntry.Action.EVIDENCE_OPENED, at__gte=since
        )
        if not opened.exists():
            LogEntry.objects.create(
                at=now,
                actor=user,
                action=LogEntry.Action.EVIDENCE_OPENED,
                case=case,
                club=case.club,
                summary=f"Opened the evidence of case {case.pk} (every rack of game "
                f"{case.game_id}){why}.",
            )
    return case


def _reason_to_read(case: Case, user: User) -> tuple[datetime, str]:
    """Since when ``user`` has had their reason to read the evidence (an opening since
    then is logged already), and the reason in words for the log."""
    if case.claimed_by_id == user.pk and case.claimed_at is not None:
        return case.claimed_at, ""
    proposed = (
        Ruling.objects.filter(case=case, status=Ruling.Status.PROPOSED)
        .exclude(by_id=user.pk)
        .order_by("created_at")
        .first()
    )
    if proposed is not None:
        return proposed.created_at, f" to confirm or decline ruling {proposed.pk}"
    appeals = Appeal.objects.filter(case=case, status=Appeal.Status.OPEN)
    opened_at = appeals.aggregate(first=Min("opened_at"))["first"]
    return opened_at or timezone.now(), " to answer an appeal"


def _through_the_door(case: Case | None, user: User) -> Case:
    """``case`` if ``user`` decides in it and may take it; else :class:`NotFound`."""
    if not getattr(user, "is_authenticated", False):
        raise NotFound(NOT_YOURS)
    if case is None or not user.has_perm("moderation.open_evidence", case):
        raise NotFound(NOT_YOURS)
    return case
