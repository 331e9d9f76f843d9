"""A case never expires silently: open past ``MODERATION_ESCALATE_HOURS`` it escalates to
the club's owner (a club's case), and open that long again, to the site moderators (a
casual game's case goes to them at once). Each escalation is logged and notified.

Conflict of interest holds here too: an owner (or a site moderator) who may not take the
case (:func:`moderation.permissions.conflicts`: a party to it above all) is not the one it
escalates to; a club's case whose owners all have a conflict goes to the site moderators
at once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from leagues.models import Membership, Role
from moderation.models import SITE_MODERATORS, Case, LogEntry
from moderation.notices import ModerationNotice
from moderation.permissions import conflicts, suspended_from_moderating
from moderation.signals import case_escalated
from notifications.services import notices


def escalate_overdue(now: datetime | None = None) -> list[int]:
    """Escalate every open case past its time one step; returns the cases escalated."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.MODERATION_ESCALATE_HOURS)
    due = Case.objects.filter(status=Case.Status.OPEN).filter(
        Q(escalation=Case.Escalation.NONE, opened_at__lte=cutoff)
        | Q(escalation=Case.Escalation.CLUB_OWNER, escalated_at__lte=cutoff)
    )
    return [pk for pk in due.values_list("pk", flat=True) if _escalate(pk, cutoff, now)]


def _escalate(case_id: int, cutoff: datetime, now: datetime) -> bool:
    with transaction.atomic():
        case = Case.objects.select_for_update(of=("self",)).select_related("club").get(pk=case_id)
        # Decided or escalated since the sweep listed it: nothing to do.
        if case.status != Case.Status.OPEN or (case.escalated_at or case.opened_at) > cutoff:
            return False
        if case.escalation == Case.Escalation.SITE:
            return False
        level = (
            Case.Escalation.CLUB_OWNER
            if case.escalation == Case.Escalation.NONE and case.club_id is not None
            else Case.Escalation.SITE
        )
        told = _told(case, level)
        if level == Case.Escalation.CLUB_OWNER and not told:
            level = Case.Escalation.SITE
            told = _told(case, level)
        case.escalation = level
        case.escalated_at = now
        case.save(update_fields=["escalation", "escalated_at"])
        waited = now - case.opened_at
        summary = (
            f"Case {case.pk} escalated to {case.get_escalation_display().lower()}, "
            f"open {waited.days * 24 + waited.seconds // 3600} hours."
        )
        LogEntry.objects.create(
            at=now,
            action=LogEntry.Action.ESCALATED,
            case=case,
            club_id=case.club_id,
            summary=summary,
            changes={"escalation": level},
        )
        link = reverse("moderation:case", args=[case.pk])
        for user_id in told:
            notices.create(
                user_id,
                ModerationNotice.MODERATION_QUEUE,
                f"{summary} Nobody has decided it yet.",
                link,
                subject=case,
                key=f"moderation-escalated-{case.pk}-{level}",
            )
        send_after_commit(case_escalated, Case, case_id=case.pk, escalation=level)
    return True


def _told(case: Case, level: str) -> list[int]:
    """Who the case escalates to at ``level``, leaving out anyone with a conflict in it
    or whom a suspension keeps from moderating it."""
    if level == Case.Escalation.CLUB_OWNER and case.club_id is not None:
        owners = Membership.objects.filter(club_id=case.club_id, role=Role.OWNER)
        candidates = User.objects.filter(pk__in=owners.values("user_id"), is_active=True)
    else:
        group = Group.objects.filter(name=SITE_MODERATORS).first()
        candidates = (
            User.objects.filter(is_active=True)
            .filter(Q(groups=group) | Q(is_superuser=True) if group else Q(is_superuser=True))
            .distinct()
        )
    return [
        user.pk
        for user in candidates.order_by("pk")
        if not conflicts(user, case) and not suspended_from_moderating(user, case)
    ]
