"""A case's moderator adds a private note to it (asked of ``moderation.add_note`` by the
service); back to the case's notes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from common.requests import AuthenticatedRequest
from moderation.errors import ModerationError
from moderation.services import notes
from moderation.views.common import refused

LONGEST_ID = 18
"""Digits of a note's id that fit a bigint."""


@login_required
@require_POST
def add_note(request: AuthenticatedRequest, case_id: int) -> HttpResponse:
    """``text``, and ``corrects``: the id of the earlier note it corrects, if any."""
    corrects = request.POST.get("corrects", "")
    if corrects and not (corrects.isdigit() and len(corrects) <= LONGEST_ID):
        return refused(request, ModerationError("Say which note of this case it corrects."))
    try:
        notes.add_note(
            case_id, request.user, request.POST.get("text", ""), int(corrects) if corrects else None
        )
    except ModerationError as error:
        return refused(request, error)
    messages.success(request, "Your note is added: only the case's moderators read it.")
    return redirect(reverse("moderation:case", args=[case_id]) + "#notes")
