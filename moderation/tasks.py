"""Moderation's beat jobs (``CELERY_BEAT_SCHEDULE``): claims gone unseen lapse, cases open
too long escalate, the log's hash chain is checked. Each takes no arguments and finds its
work in the database, so a lost run is made good by the next."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from moderation.selectors.log_chain import keep_check, verify
from moderation.services.claims import lapse_claims
from moderation.services.escalation import escalate_overdue


@shared_task(ignore_result=True)
def sweep_cases() -> None:
    """Free the claims unseen past ``MODERATION_CLAIM_MINUTES``; escalate the cases open
    past ``MODERATION_ESCALATE_HOURS``."""
    now = timezone.now()
    lapse_claims(now)
    escalate_overdue(now)


@shared_task(ignore_result=True)
def check_log_chain() -> None:
    """Walk the moderation log's whole hash chain and keep what it found for the log
    page (every ``MODERATION_LOG_CHECK_SECONDS``): a page never walks the whole log."""
    keep_check(verify())
