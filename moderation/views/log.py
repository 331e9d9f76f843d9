"""The moderation log page: what was done, by whom, when and why, for those who may read
it (site moderators everything, club owners their club's, moderators their cases')."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from common.requests import AuthenticatedRequest
from moderation.forms.log import LogFilterForm
from moderation.permissions import moderating_refusal
from moderation.selectors.log import LogFilters, log_page, may_read_log
from moderation.selectors.log_chain import last_check


@login_required
@require_safe
def log(request: AuthenticatedRequest) -> HttpResponse:
    """The entries the viewer may read, newest first, narrowed by the filters in the
    query string; filters that make no sense answer 400 with the reason."""
    if not may_read_log(request.user):
        raise PermissionDenied(
            moderating_refusal(
                request.user, "The moderation log is for moderators and club owners."
            )
        )
    params = request.GET.copy()
    page_number = params.pop("page", [None])[-1]
    form = LogFilterForm(request.user, params or None)
    status = 200
    filters = LogFilters()
    if form.is_bound:
        if form.is_valid():
            filters = form.filters()
        else:
            status = 400
    entries = log_page(request.user, filters, page_number) if status == 200 else None
    query = params.urlencode()
    context = {"form": form, "entries": entries, "query": query, "chain": last_check()}
    return render(request, "moderation/log.html", context, status=status)
