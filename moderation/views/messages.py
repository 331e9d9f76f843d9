"""A case's moderator hides a reported chat message from the table (or shows it again)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from common.requests import AuthenticatedRequest
from moderation.errors import ModerationError
from moderation.services.messages import set_message_hidden
from moderation.views.common import refused


@login_required
@require_POST
def hide_message(request: AuthenticatedRequest, case_id: int, message_id: int) -> HttpResponse:
    """``hidden=1`` hides the message, ``hidden=0`` shows it again; back to the case."""
    hidden = request.POST.get("hidden", "1")
    if hidden not in ("0", "1"):
        return refused(request, ModerationError("Say whether to hide the message or show it."))
    try:
        set_message_hidden(case_id, message_id, request.user, hidden == "1")
    except ModerationError as error:
        return refused(request, error)
    messages.success(
        request,
        "The message is hidden from the table; the case's evidence keeps it."
        if hidden == "1"
        else "The message shows at the table again.",
    )
    return redirect("moderation:case", case_id=case_id)
