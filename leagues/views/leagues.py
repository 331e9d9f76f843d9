"""A club's league: creating it, its page (house rules in words, its seasons), editing it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from common.requests import AuthenticatedRequest
from leagues.errors import LeaguesError
from leagues.forms.leagues import LeagueForm, SeasonForm, initial_for_new
from leagues.house_rules import house_rules_in_words
from leagues.models import League
from leagues.permissions import why_not_staff
from leagues.selectors.roles import is_organiser
from leagues.selectors.seasons import league_seasons, visible_league
from leagues.services import leagues as services
from leagues.views.clubs import visible_club

FORM = "leagues/league_form.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_league(request: AuthenticatedRequest, club: str) -> HttpResponse:
    found = visible_club(request, club)
    ensure_organiser(request, found, "Only the club's organisers may create a league.")
    form = LeagueForm(_posted(request), initial=initial_for_new())
    refused = None
    if request.method == "POST" and form.is_valid():
        slug = form.cleaned_data["slug"]
        try:
            league = services.create_league(found, request.user, slug, form.house_rules())
        except LeaguesError as error:
            # The address is taken, or the club has its most leagues (the rules were
            # checked by the form already).
            refused = error
            taken = isinstance(error, services.AddressTaken)
            form.add_error("slug" if taken else None, error.message)
        else:
            _warn_of_pace(request, form)
            return redirect("leagues:league", club=found.slug, league=league.slug)
    context = {"club": found, "form": form}
    return render(request, FORM, context, status=_status(form, refused))


@require_safe
def league_page(request: HttpRequest, club: str, league: str) -> HttpResponse:
    found = visible_league(club, league, request.user)
    return render(request, "leagues/league.html", _league_context(request, found))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit_league(request: AuthenticatedRequest, club: str, league: str) -> HttpResponse:
    found = visible_league(club, league, request.user)
    ensure_organiser(request, found, "Only the club's organisers may change a league.")
    form = LeagueForm(_posted(request), league=found)
    refused = None
    if request.method == "POST" and form.is_valid():
        try:
            services.update_league(found, request.user, form.house_rules())
        except LeaguesError as error:
            refused = error
            form.add_error(None, error.message)
        else:
            _warn_of_pace(request, form)
            return redirect("leagues:league", club=found.club.slug, league=found.slug)
    context = {"club": found.club, "league": found, "form": form}
    return render(request, FORM, context, status=_status(form, refused))


def ensure_organiser(request: HttpRequest, obj: object, refusal: str) -> None:
    """403 with why not (``refusal``, or the suspension's sentence: see
    :func:`leagues.permissions.why_not_staff`) unless the viewer may use the organisers'
    powers in the club of ``obj`` now."""
    why = why_not_staff(request.user, obj, refusal=refusal)
    if why is not None:
        raise PermissionDenied(why)


def _warn_of_pace(request: HttpRequest, form: LeagueForm) -> None:
    """Saved, but a fixture may outlast its matchday: the organiser is told (the league
    page's house rules say it too)."""
    warning = form.pace_warning()
    if warning:
        messages.warning(request, warning)


def _posted(request: HttpRequest) -> QueryDict | None:
    """The form's data: a POST is read even when empty (and so refused), a GET is not."""
    return request.POST if request.method == "POST" else None


def _status(form: LeagueForm, refused: LeaguesError | None) -> int:
    if refused is not None:
        return refused.status
    return 400 if form.errors else 200


def _league_context(
    request: HttpRequest, league: League, season_form: SeasonForm | None = None
) -> dict[str, object]:
    seasons = league_seasons(league)
    organiser = is_organiser(league.club, request.user)
    return {
        "club": league.club,
        "league": league,
        "house_rules": house_rules_in_words(league),
        "current": next((s for s in seasons if s.status != "finished"), None),
        "seasons": seasons,
        "is_organiser": organiser,
        "season_form": season_form or (SeasonForm() if organiser else None),
    }


def league_page_with(
    request: HttpRequest, league: League, season_form: SeasonForm, status: int
) -> HttpResponse:
    """The league's page again, with the new-season form as it was sent (and refused)."""
    context = _league_context(request, league, season_form)
    return render(request, "leagues/league.html", context, status=status)
