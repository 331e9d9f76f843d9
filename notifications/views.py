"""A member's notices and their email preferences (``/games/notifications/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from common.parsing import parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from notifications.forms import PreferencesForm
from notifications.selectors import notices
from notifications.services import notices as notifying

PAGE = "notifications/list.html"


@login_required
@require_safe
def notification_list(request: AuthenticatedRequest) -> HttpResponse:
    user = request.user
    context = {
        "items": notices.notification_list(user),
        "form": PreferencesForm(user, initial=notices.preferences(user)),
        "digest_at": notices.next_digest(),
    }
    return render(request, f"{PAGE}#list" if request.htmx else PAGE, context)


@login_required
@require_POST
@answers_bad_input
def notifications_read(request: AuthenticatedRequest) -> HttpResponse:
    """Mark one notification (``id``) or all of them read."""
    notice = parse_optional_number(request.POST.get("id"))
    notifying.mark_read(request.user, None if notice is None else [notice])
    return redirect("notifications:list")


@login_required
@require_POST
def preferences(request: AuthenticatedRequest) -> HttpResponse:
    form = PreferencesForm(request.user, request.POST)
    if not form.is_valid():
        context = {
            "items": notices.notification_list(request.user),
            "form": form,
            "digest_at": notices.next_digest(),
        }
        return render(request, PAGE, context, status=400)
    for code, delivery in form.cleaned_data.items():
        if delivery:
            notifying.set_preference(request.user, code, delivery)
    messages.success(request, "Your email preferences are saved.")
    return redirect("notifications:list")
