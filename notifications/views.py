"""A member's notices, how and when they want them sent, and the devices that take their
push (``/games/notifications/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseNotFound
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from common.parsing import parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from notifications.forms import PreferencesForm, PushSubscriptionForm
from notifications.selectors import hours, notices
from notifications.selectors.devices import push_enabled, push_public_key
from notifications.services import notices as notifying
from notifications.services import push

PAGE = "notifications/list.html"


def _page_context(request: AuthenticatedRequest, form: PreferencesForm) -> dict[str, object]:
    now = timezone.now()
    return {
        "items": notices.notification_list(request.user),
        "form": form,
        "digest_at": hours.next_digest(request.user, now),
        "quiet_until": hours.quiet_ends(request.user, now),
        "push_key": push_public_key(),
    }


@login_required
@require_safe
def notification_list(request: AuthenticatedRequest) -> HttpResponse:
    user = request.user
    context = _page_context(request, PreferencesForm(user, initial=notices.preferences(user)))
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
        return render(request, PAGE, _page_context(request, form), status=400)
    with transaction.atomic():
        for code, delivery in form.deliveries().items():
            notifying.set_preference(request.user, code, delivery)
        notifying.set_hours(request.user, **form.hours())
    messages.success(request, "Your notification preferences are saved.")
    return redirect("notifications:list")


@login_required
@require_POST
def push_subscribe(request: AuthenticatedRequest) -> HttpResponse:
    """This device takes the member's push (static/js/push.js posts its subscription).
    204; 400 for what cannot be a subscription; 404 on a site that does not push."""
    if not push_enabled():
        return HttpResponseNotFound("This site sends no push.")
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("That is not a device's push subscription.")
    device = push.subscribe(request.user, form.cleaned_data["device"])
    endpoints = [e for e in request.session.get(push.SESSION_DEVICES, []) if e != device.endpoint]
    request.session[push.SESSION_DEVICES] = [*endpoints, device.endpoint][-10:]
    return HttpResponse(status=204)


@login_required
@require_POST
def push_unsubscribe(request: AuthenticatedRequest) -> HttpResponse:
    """This device takes no more push: 204; 404 if it was none of the member's; 400
    without an endpoint."""
    endpoint = request.POST.get("endpoint", "").strip()
    if not endpoint:
        return HttpResponseBadRequest("Which device?")
    if not push.unsubscribe(request.user, endpoint):
        return HttpResponseNotFound("No device of yours.")
    return HttpResponse(status=204)
