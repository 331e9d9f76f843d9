"""A member's own pages about play: vacations."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from common.requests import AuthenticatedRequest
from games.errors import GameActionError
from games.forms import VacationForm
from games.selectors.vacations import vacation_summary
from games.services import vacations


@login_required
@require_safe
def vacation(request: AuthenticatedRequest) -> HttpResponse:
    return _vacation_page(request, VacationForm())


@login_required
@require_POST
def plan_vacation(request: AuthenticatedRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            vacations.plan_vacation(
                request.user, form.cleaned_data["days"], form.cleaned_data["starts_on"]
            )
        except GameActionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, "Your vacation is planned: your correspondence clocks will stand still."
            )
            return redirect("games:vacation")
    return _vacation_page(request, form, status=400)


@login_required
@require_POST
def end_vacation(request: AuthenticatedRequest) -> HttpResponse:
    if vacations.end_vacation(request.user) is None:
        messages.error(request, "You are not on vacation.")
        return _vacation_page(request, VacationForm(), status=409)
    messages.success(request, "Welcome back: your correspondence clocks run again.")
    return redirect("games:vacation")


@login_required
@require_POST
def cancel_vacation(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    try:
        vacations.cancel_vacation(request.user, pk)
    except GameActionError as error:
        # None of the member's planned vacations has that id.
        messages.error(request, error.message)
        return _vacation_page(request, VacationForm(), status=404)
    messages.success(request, "That vacation is called off; its days are yours again.")
    return redirect("games:vacation")


def _vacation_page(
    request: AuthenticatedRequest, form: VacationForm, status: int = 200
) -> HttpResponse:
    summary = vacation_summary(request.user)
    return render(request, "games/vacation.html", {"summary": summary, "form": form}, status=status)
