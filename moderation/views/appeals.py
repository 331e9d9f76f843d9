"""The outcome of a case for its parties, their appeals, and the moderators' appeals queue.

A member who is no party to a case (or no moderator of it) is answered 404 on every
address of it, as if it did not exist. A refused form shows its page again with the
sentence and a 4xx status; nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from common.requests import AuthenticatedRequest
from moderation.errors import ModerationError
from moderation.forms.appeals import AppealForm, CloseForm
from moderation.models import Appeal, Case
from moderation.selectors import appeals as reads
from moderation.selectors.outcomes import result_corrections, ruling_lines, suspensions_of
from moderation.services import appeals


def _refused(request: AuthenticatedRequest, error: ModerationError) -> int:
    """A 404 is raised as one (nothing to show); any other refusal is the page's message,
    and its status is the response's."""
    if error.status == 404:
        raise Http404(str(error))
    messages.error(request, str(error))
    return error.status


def _submit(
    request: AuthenticatedRequest,
    form: AppealForm | CloseForm,
    act: Callable[[str], int],
    done: str,
) -> HttpResponse | int:
    """Run ``act`` with the form's text, which returns the appeal's id: then the appeal's
    page with ``done``; or the status of the refusal (the page is shown again)."""
    if not form.is_valid():
        return 400
    try:
        appeal_id = act(form.cleaned_data["text"])
    except ModerationError as error:
        return _refused(request, error)
    messages.success(request, done)
    return redirect("moderation:appeal", pk=appeal_id)


def outcome_context(user_id: int, case: Case) -> dict[str, Any]:
    """What a party reads of a case's outcome (shared by the outcome and appeal pages)."""
    message = case.message if case.message_id is not None else None
    return {
        "case": case,
        "rulings": ruling_lines(case),
        "result_corrections": result_corrections(case.game_id),
        "suspensions": suspensions_of(case, user_id),
        # A warned author reads which message of theirs was reported (their own words:
        # nobody else's chat is shown to them here).
        "reported_message": message
        if message is not None and message.author_id == user_id
        else None,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def appeal_new(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A case's outcome as its party reads it: the rulings with their reasons, what they
    changed in the result, and the way to appeal (or the appeal already open)."""
    case = reads.party_case(request.user, pk)
    form = AppealForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        done = _submit(
            request,
            form,
            lambda text: appeals.open_appeal(case.pk, request.user, text).pk,
            "Your appeal is sent: the moderators will answer here.",
        )
        if isinstance(done, HttpResponse):
            return done
        status = done
    context = {
        **outcome_context(request.user.pk, case),
        "state": reads.appeal_state(request.user, case),
        "form": form,
    }
    return render(request, "moderation/appeal_new.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def appeal(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """One appeal's thread, for its appellant and the case's moderators; a message
    posted here is the appellant's, or a moderator's answer."""
    found = reads.visible_appeal(request.user, pk)
    form = AppealForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        done = _submit(
            request,
            form,
            lambda text: appeals.write(found.pk, request.user, text).appeal_id,
            "Your message is in the thread.",
        )
        if isinstance(done, HttpResponse):
            return done
        status = done
        found.refresh_from_db()
    return _appeal_page(request, found, form, CloseForm(), status)


@login_required
@require_POST
def appeal_close(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A moderator of the case closes the appeal, with a last word if given."""
    found = reads.visible_appeal(request.user, pk)
    form = CloseForm(request.POST)
    done = _submit(
        request,
        form,
        lambda text: appeals.close(found.pk, request.user, text).pk,
        "The appeal is closed; its appellant is told.",
    )
    if isinstance(done, HttpResponse):
        return done
    status = done
    found.refresh_from_db()
    return _appeal_page(request, found, AppealForm(), form, status)


def _appeal_page(
    request: AuthenticatedRequest,
    found: Appeal,
    form: AppealForm,
    close_form: CloseForm,
    status: int,
) -> HttpResponse:
    user = request.user
    is_appellant = found.appellant_id == user.pk
    may_answer = not is_appellant and user.has_perm("moderation.take_case", found.case)
    context = {
        # The appellant's own sanctions: theirs and their moderators' to read.
        **outcome_context(found.appellant_id, found.case),
        "appeal": found,
        "thread": reads.thread(found),
        "is_appellant": is_appellant,
        "moderator_view": not is_appellant,
        "may_answer": may_answer,
        # Whoever answers reads the evidence, read only, while the appeal is open.
        "may_open_evidence": may_answer and user.has_perm("moderation.open_evidence", found.case),
        "may_write": found.status == Appeal.Status.OPEN and (is_appellant or may_answer),
        "form": form,
        "close_form": close_form,
    }
    return render(request, "moderation/appeal.html", context, status=status)


@login_required
@require_safe
def appeals_queue(request: AuthenticatedRequest) -> HttpResponse:
    """The open appeals of the cases the moderator moderates, the longest wait first."""
    if not reads.moderates_any(request.user):
        raise PermissionDenied("The appeals queue is for moderators.")
    page = reads.appeals_queue(request.user, request.GET.get("page"))
    return render(request, "moderation/appeals.html", {"queue": page})
