"""Opening a case's evidence: the one door to every rack of a game.

Only the moderator who claimed the case goes through, and only while they could still
take it (a conflict of interest found since the claim closes the door too). Everyone else,
the game's players above all, is answered as if there were no such page: 404, which says
nothing about whether the case exists.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from moderation.errors import NotFound
from moderation.models import Case, LogEntry

NOT_YOURS = "There is no such evidence."


def evidence_case(case_id: int, user: User) -> Case:
    """The case whose evidence ``user`` may read, checked without changing anything: a
    request refused after the door (for its query, or a game that cannot be replayed)
    leaves no trace; :func:`open_evidence` then marks the opening."""
    case = Case.objects.select_related("game__table", "club").filter(pk=case_id).first()
    return _through_the_door(case, user)


def open_evidence(case_id: int, user: User) -> Case:
    """The case whose evidence ``user`` may read, its claim marked as seen; the first
    opening under a claim is logged (the log says who looked at the racks, and when)."""
    with transaction.atomic():
        # Locked: the claim cannot change hands while we decide and log.
        case = _through_the_door(
            Case.objects.select_for_update(of=("self",))
            .select_related("game__table", "club")
            .filter(pk=case_id)
            .first(),
            user,
        )
        now = timezone.now()
        Case.objects.filter(pk=case.pk).update(claim_seen_at=now)
        case.claim_seen_at = now
        opened = LogEntry.objects.filter(
            case=case,
            actor=user,
            action=LogEntry.Action.EVIDENCE_OPENED,
            at__gte=case.claimed_at,
        )
        if not opened.exists():
            LogEntry.objects.create(
                at=now,
                actor=user,
                action=LogEntry.Action.EVIDENCE_OPENED,
                case=case,
                club=case.club,
                summary=f"Opened the evidence of case {case.pk} (every rack of game "
                f"{case.game_id}).",
            )
    return case


def _through_the_door(case: Case | None, user: User) -> Case:
    """``case`` if ``user`` claimed it and may still take it; else :class:`NotFound`."""
    if not getattr(user, "is_authenticated", False):
        raise NotFound(NOT_YOURS)
    if case is None or case.claimed_by_id != user.pk:
        raise NotFound(NOT_YOURS)
    if not user.has_perm("moderation.take_case", case):
        raise NotFound(NOT_YOURS)
    return case
