"""A moderator takes a case (claims it), lets it go (releases it), or takes the best case
they may ("next case"); a claim left unseen past ``MODERATION_CLAIM_MINUTES`` lapses.

Each change locks the case's row first: two moderators claiming at once are served one
after the other, and the second finds the case claimed.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from common.times import ago
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound
from moderation.models import Case, LogEntry
from moderation.permissions import conflicts, suspended_from_moderating
from moderation.selectors.queue import claim_holder, claim_lapsed, queue
from moderation.signals import case_claimed

NO_SUCH_CASE = "There is no such case."


def claim(case_id: int, moderator: User) -> Case:
    """``moderator`` takes the case; refused when another holds it, it is decided, or
    they have a conflict of interest (the sentences say which)."""
    now = timezone.now()
    with transaction.atomic():
        case = locked_case(case_id, moderator)
        if case.status != Case.Status.OPEN:
            raise Conflict("This case is decided already.")
        holder = claim_holder(case, now)
        if holder is not None and holder.pk == moderator.pk:
            case.claim_seen_at = now
            case.save(update_fields=["claim_seen_at"])
            return case
        if holder is not None:
            assert case.claimed_at is not None
            raise Conflict(f"{holder} claimed this case {ago(case.claimed_at, now)}.")
        reasons = conflicts(moderator, case)
        if reasons:
            raise NotAllowed(" ".join(["You may not take this case:", *reasons]))
        if case.claimed_by_id is not None:
            _log_lapse(case, now)
        case.claimed_by = moderator
        case.claimed_at = case.claim_seen_at = now
        case.save(update_fields=["claimed_by", "claimed_at", "claim_seen_at"])
        _log(case, now, moderator, LogEntry.Action.CLAIMED, f"{moderator} claimed case {case.pk}.")
        send_after_commit(case_claimed, Case, case_id=case.pk, moderator_id=moderator.pk)
    return case


def release(case_id: int, moderator: User) -> Case:
    """``moderator`` lets go of a case they hold, for another moderator to take."""
    now = timezone.now()
    with transaction.atomic():
        case = locked_case(case_id, moderator)
        holder = claim_holder(case, now)
        if holder is None or holder.pk != moderator.pk:
            raise Conflict("You do not hold this case, so there is nothing to release.")
        _clear_claim(case)
        summary = f"{moderator} released case {case.pk}."
        _log(case, now, moderator, LogEntry.Action.RELEASED, summary)
        send_after_commit(case_claimed, Case, case_id=case.pk, moderator_id=None)
    return case


def claim_next(moderator: User) -> Case | None:
    """Claim the case of highest priority that ``moderator`` may take (one they hold
    already counts); ``None`` when there is none."""
    for entry in queue(moderator):
        if not entry.may_take(moderator):
            continue
        try:
            return claim(entry.case.pk, moderator)
        except ModerationError:
            continue  # taken meanwhile by another moderator: try the next one
    return None


def mark_seen(case: Case, moderator: User) -> None:
    """The claiming moderator opened the case: their claim runs on from now."""
    if case.claimed_by_id == moderator.pk and not claim_lapsed(case):
        Case.objects.filter(pk=case.pk, claimed_by=moderator).update(claim_seen_at=timezone.now())


def lapse_claims(now: datetime | None = None) -> list[int]:
    """Clear the claims gone unseen too long (the sweep); returns the cases freed."""
    now = now or timezone.now()
    freed = []
    candidates = Case.objects.filter(status=Case.Status.OPEN).exclude(claimed_by=None)
    for case_id in candidates.values_list("pk", flat=True):
        with transaction.atomic():
            locked = Case.objects.select_for_update(of=("self",))
            case = locked.select_related("claimed_by").get(pk=case_id)
            # Seen again since the sweep listed it: the claim stands.
            if not claim_lapsed(case, now):
                continue
            _log_lapse(case, now)
            _clear_claim(case)
            send_after_commit(case_claimed, Case, case_id=case.pk, moderator_id=None)
            freed.append(case.pk)
    return freed


def locked_case(case_id: int, user: User) -> Case:
    """The case's row, locked, if ``user`` moderates it; else "not found" (forbidden,
    with its sentence, to a moderator of it whom a suspension keeps from it)."""
    case = Case.objects.select_for_update().filter(pk=case_id).first()
    suspended = None if case is None else suspended_from_moderating(user, case)
    if suspended:
        raise NotAllowed(suspended)
    if case is None or not user.has_perm("moderation.view_case", case):
        raise NotFound(NO_SUCH_CASE)
    return case


def _clear_claim(case: Case) -> None:
    case.claimed_by = None
    case.claimed_at = case.claim_seen_at = None
    case.save(update_fields=["claimed_by", "claimed_at", "claim_seen_at"])


def _log_lapse(case: Case, now: datetime) -> None:
    summary = f"The claim of {case.claimed_by} on case {case.pk} lapsed, unseen."
    _log(case, now, None, LogEntry.Action.LAPSED, summary)


def _log(case: Case, now: datetime, actor: User | None, action: str, summary: str) -> None:
    LogEntry.objects.create(
        at=now, actor=actor, action=action, case=case, club_id=case.club_id, summary=summary
    )
