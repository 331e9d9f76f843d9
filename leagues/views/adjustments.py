"""An organiser's score change waiting for a second organiser or moderator: its page
(what it changes, before and after) and its Confirm and Decline buttons.

The club's owner, organisers and moderators open it (others are refused as on the
organisers' pages); the buttons are offered to those who may decide it, and the
services refuse anyone else with the sentence that says why.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from common.requests import AuthenticatedRequest
from leagues.errors import LeaguesError
from leagues.forms.adjustments import DeclineForm
from leagues.models import ScoreAdjustment, Season
from leagues.selectors.adjustments import adjustments_of, why_not_decide
from leagues.services import adjustments
from leagues.views.organiser import moderators_only


def _adjustment(season: Season, pk: int) -> ScoreAdjustment:
    return get_object_or_404(adjustments_of(season).select_related("fixture__division"), pk=pk)


@moderators_only
@require_safe
def adjustment(request: AuthenticatedRequest, season: Season, pk: int) -> HttpResponse:
    return _render(request, season, _adjustment(season, pk))


def _render(
    request: AuthenticatedRequest,
    season: Season,
    change: ScoreAdjustment,
    form: DeclineForm | None = None,
    status: int = 200,
) -> HttpResponse:
    waiting = change.status == ScoreAdjustment.Status.PROPOSED
    context = {
        "season": season,
        "change": change,
        "preview": adjustments.preview(change) if waiting else None,
        "refusals": why_not_decide(request.user, change) if waiting else [],
        "form": form or DeclineForm(),
    }
    return render(request, "leagues/organiser_adjustment.html", context, status=status)


def _decided(request: AuthenticatedRequest, change: ScoreAdjustment, text: str) -> HttpResponse:
    messages.success(request, text)
    return redirect(adjustments.adjustment_url(change))


@moderators_only
@require_POST
def confirm(request: AuthenticatedRequest, season: Season, pk: int) -> HttpResponse:
    change = _adjustment(season, pk)
    try:
        adjustments.confirm(change.pk, request.user)
    except LeaguesError as error:
        messages.error(request, error.message)
        return _render(request, season, change, status=error.status)
    return _decided(request, change, "You confirmed the score change: the standings follow.")


@moderators_only
@require_POST
def decline(request: AuthenticatedRequest, season: Season, pk: int) -> HttpResponse:
    change = _adjustment(season, pk)
    form = DeclineForm(request.POST)
    if not form.is_valid():
        return _render(request, season, change, form, 400)
    try:
        adjustments.decline(change.pk, request.user, form.cleaned_data["note"])
    except LeaguesError as error:
        messages.error(request, error.message)
        return _render(request, season, change, form, error.status)
    return _decided(request, change, "You declined the score change: nothing changed.")
