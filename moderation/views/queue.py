"""The moderators' pages: the queue, the case hub, claiming and releasing a case."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from common.requests import AuthenticatedRequest
from moderation.errors import ModerationError, NotAllowed
from moderation.permissions import moderating_refusal
from moderation.selectors.cases import case_page
from moderation.selectors.queue import is_moderator, queue
from moderation.services import claims
from moderation.views.common import refused

MODERATORS_ONLY = "Only moderators see the queue of cases."


@login_required
@require_safe
def queue_page(request: AuthenticatedRequest) -> HttpResponse:
    if not is_moderator(request.user):
        return refused(request, NotAllowed(moderating_refusal(request.user, MODERATORS_ONLY)))
    # The list refreshes itself (htmx, every 20 s): claims and new cases show up.
    template = "moderation/queue.html#queue" if request.htmx else "moderation/queue.html"
    return render(request, template, {"entries": queue(request.user)})


@login_required
@require_POST
def next_case(request: AuthenticatedRequest) -> HttpResponse:
    """Claim the case of highest priority the moderator may take, and open it."""
    if not is_moderator(request.user):
        return refused(request, NotAllowed(moderating_refusal(request.user, MODERATORS_ONLY)))
    case = claims.claim_next(request.user)
    if case is None:
        messages.info(request, "No case that you may take is waiting.")
        return redirect("moderation:queue")
    messages.success(request, f"You took case {case.pk}.")
    return redirect("moderation:case", case_id=case.pk)


@login_required
@require_safe
def case(request: AuthenticatedRequest, case_id: int) -> HttpResponse:
    """The case's hub: for its moderators, every report, its claim and its log; for its
    parties, their own reports; the other helpers' parts are included slots."""
    try:
        page = case_page(case_id, request.user)
    except ModerationError as error:
        return refused(request, error)
    if page.is_moderator:
        claims.mark_seen(page.case, request.user)
    return render(request, "moderation/case.html", page.context())


@login_required
@require_POST
def claim(request: AuthenticatedRequest, case_id: int) -> HttpResponse:
    try:
        claims.claim(case_id, request.user)
    except ModerationError as error:
        return refused(request, error)
    messages.success(request, f"You took case {case_id}: the other moderators see it is yours.")
    return redirect("moderation:case", case_id=case_id)


@login_required
@require_POST
def release(request: AuthenticatedRequest, case_id: int) -> HttpResponse:
    try:
        claims.release(case_id, request.user)
    except ModerationError as error:
        return refused(request, error)
    messages.success(request, f"You released case {case_id} for another moderator.")
    return redirect("moderation:queue")
