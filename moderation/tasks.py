"""Moderation's beat jobs (``CELERY_BEAT_SCHEDULE``): claims gone unseen lapse, cases open
too long escalate, the log's hash chain is checked. Each takes no arguments and finds its
work in the database, so a lost run is made good by the next.

And, on the "solver" queue, the solver's lines of a case's evidence
(:func:`answer_evidence_lines`): the web process never runs the solver."""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts.models import User
from common import answers
from common.answers import Job
from moderation.answers import LINES, LinesWorked, work_out_lines
from moderation.models import Case
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


def ask_lines(case: Case, user: User, step: int) -> Job | None:
    """A job for the lines of ``case``'s evidence the cache lacks, queued for a worker;
    ``None`` when one for the same game is already at work (another opening: this page
    reads the cache again meanwhile). One job per game at a time, as the lines are."""
    seconds = float(settings.MODERATION_EVIDENCE_JOB_SECONDS)
    job = answers.start(
        LINES,
        user.pk,
        {"case": case.pk, "step": step},
        busy=f"moderation:lines-job:{case.game_id}",
        seconds=seconds * 2 + LINES_TIME_LIMIT,
    )
    if job is not None:
        answer_evidence_lines.delay(job.id)
    return job


# The solver's last stop per turn is MODERATION_EVIDENCE_TURN_SECONDS; a job works for
# MODERATION_EVIDENCE_JOB_SECONDS in all, well inside these.
LINES_SOFT_TIME_LIMIT = 45
LINES_TIME_LIMIT = 60


@shared_task(ignore_result=True, soft_time_limit=LINES_SOFT_TIME_LIMIT, time_limit=LINES_TIME_LIMIT)
def answer_evidence_lines(job_id: str) -> None:
    """On the "solver" queue: the solver's lines of a case's evidence (and of the pair's
    games, for a collusion case) that are not in the cache yet, for
    ``MODERATION_EVIDENCE_JOB_SECONDS``; then the moderator's page is told
    (:mod:`common.answers`) and shows them. Lines left over are asked for by the page
    again, as a new job."""
    job = answers.job(job_id)
    if job is None:
        return
    try:
        work_out_lines(job.args["case"], float(settings.MODERATION_EVIDENCE_JOB_SECONDS))
    except SoftTimeLimitExceeded:
        # What was found so far is cached; the page asks again for the rest.
        connection.close()
    answers.finish(job, LinesWorked(job.args["case"]))
