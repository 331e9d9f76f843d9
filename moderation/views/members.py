"""A member's record for moderators, and the archive of decided cases (asked of
``moderation.read_records`` at each door; what each shows is the viewer's
:func:`moderation.permissions.record_cases`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.models import User
from common.requests import AuthenticatedRequest
from moderation.errors import NotAllowed, NotFound
from moderation.forms.members import ArchiveForm
from moderation.selectors.members import decided_cases, member_record
from moderation.views.common import refused

RECORDS_ONLY = "Members' records are for moderators."


@login_required
@require_safe
def member(request: AuthenticatedRequest, username: str) -> HttpResponse:
    """Everything of one member's that the viewer moderates."""
    if not request.user.has_perm("moderation.read_records"):
        return refused(request, NotAllowed(RECORDS_ONLY))
    found = User.objects.filter(username=username).first()
    if found is None:
        return refused(request, NotFound("No member has that username."))
    context = {"record": member_record(request.user, found)}
    return render(request, "moderation/member.html", context)


@login_required
@require_safe
def archive(request: AuthenticatedRequest) -> HttpResponse:
    """The decided cases the viewer moderates, the last decided first, maybe of one
    member; an unknown member answers 400 with the reason."""
    if not request.user.has_perm("moderation.read_records"):
        return refused(request, NotAllowed(RECORDS_ONLY))
    params = request.GET.copy()
    page_number = params.pop("page", [None])[-1]
    form = ArchiveForm(params)
    if not form.is_valid():
        refused_context: dict[str, Any] = {"form": form, "cases": None, "query": ""}
        return render(request, "moderation/archive.html", refused_context, status=400)
    found = form.cleaned_data["member"]
    cases = decided_cases(request.user, found, page_number)
    query = urlencode({"member": found.username}) if found else ""
    context = {"form": form, "cases": cases, "member": found, "query": query}
    return render(request, "moderation/archive.html", context)
