"""A league's seasons: opening one, its page, registration, and the start with its preview."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from common.parsing import BadInput, parse_number, parse_optional_number
from leagues.errors import LeaguesError
from leagues.forms.leagues import SeasonForm
from leagues.house_rules import house_rules_in_words
from leagues.models import Season
from leagues.selectors import seasons as read
from leagues.selectors.roles import is_member, is_organiser
from leagues.selectors.standings import visible_season
from leagues.services import season_start
from leagues.services import seasons as services
from leagues.views.leagues import ensure_organiser, league_page_with

PAGE = "leagues/season.html"


@login_required
@require_POST
def open_season(request: HttpRequest, club: str, league: str) -> HttpResponse:
    found = read.visible_league(club, league, request.user)
    ensure_organiser(request, found, "Only the club's organisers may open a season.")
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return league_page_with(request, found, form, status=400)
    try:
        season = services.open_season(found, request.user, **form.cleaned_data)
    except LeaguesError as error:
        form.add_error(None, error.message)
        return league_page_with(request, found, form, status=error.status)
    messages.success(request, f"Season {season.number} is open for registration.")
    return redirect(services.season_path(season))


@require_safe
def season_page(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    """The season; ``?matchday=N``: the page of its matchdays holding matchday N (a long
    season's matchdays come a few at a time)."""
    season = visible_season(request.user, club, league, number)
    try:
        wanted = parse_optional_number(request.GET.get("matchday"), low=1, high=MAX_MATCHDAYS)
    except BadInput as error:
        return _page(request, season, error.message, status=400)
    return _page(request, season, matchday=wanted)


@login_required
@require_POST
def register(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    season = visible_season(request.user, club, league, number)
    return _act(request, season, services.register, done="You are in.")


@login_required
@require_POST
def unregister(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    season = visible_season(request.user, club, league, number)
    done = "Your registration is withdrawn."
    return _act(request, season, services.unregister, done=done)


@login_required
@require_POST
def decide(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    """An organiser approves (``decision=approve``) or declines a registration (``user``)."""
    season = visible_season(request.user, club, league, number)
    try:
        user_id = parse_number(request.POST.get("user", ""))
        approve = _either(request, "decision", "approve", "decline")
    except BadInput as error:
        return _page(request, season, error.message, status=400)
    done = "Registration approved." if approve else "Registration declined."
    return _act(request, season, services.decide, user_id, approve, done=done)


@login_required
@require_POST
def registration(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    """An organiser opens (``registration=open``) or closes registration."""
    season = visible_season(request.user, club, league, number)
    try:
        is_open = _either(request, "registration", "open", "close")
    except BadInput as error:
        return _page(request, season, error.message, status=400)
    done = "Registration is open." if is_open else "Registration is closed."
    return _act(request, season, services.set_registration, is_open, done=done)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def start(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    """GET: what starting the season would do, with its warnings; POST: start it."""
    season = visible_season(request.user, club, league, number)
    ensure_organiser(request, season, "Only the club's organisers may start a season.")
    data = request.POST if request.method == "POST" else request.GET
    try:
        matchdays = parse_optional_number(data.get("matchdays"), low=1, high=MAX_MATCHDAYS)
    except BadInput as error:
        return _preview(request, season, error.message, status=400)
    if request.method == "POST":
        reason = request.POST.get("reason", "").strip()[:200]
        try:
            season_start.start_season(season, request.user, reason, matchdays=matchdays)
        except LeaguesError as error:
            return _preview(request, season, error.message, error.status, matchdays)
        messages.success(request, f"Season {season.number} has started: matchday 1 is open.")
        return redirect(services.season_path(season))
    return _preview(request, season, matchdays=matchdays)


MAX_MATCHDAYS = 1000
"""More than any season offers (the preview lists the lengths it allows)."""


def _either(request: HttpRequest, name: str, yes: str, no: str) -> bool:
    """Whether the form's ``name`` is ``yes`` (rather than ``no``; anything else is bad input)."""
    value = request.POST.get(name)
    if value not in (yes, no):
        raise BadInput(f"Choose {yes} or {no}.")
    return value == yes


def _preview(
    request: HttpRequest,
    season: Season,
    error: str = "",
    status: int = 200,
    matchdays: int | None = None,
) -> HttpResponse:
    if season.status not in services.NOT_STARTED:
        return _page(request, season, "The season has started already.", status=409)
    try:
        preview = season_start.cached_preview(season, matchdays=matchdays)
    except LeaguesError as refused:
        # A length the preview does not offer: show the one it would choose.
        preview = season_start.cached_preview(season)
        error, status = refused.message, refused.status
    context = {"season": season, "preview": preview, "error": error}
    return render(request, "leagues/season_start.html", context, status=status)


def _act(
    request: HttpRequest, season: Season, service: Callable[..., object], *args: object, done: str
) -> HttpResponse:
    """``service(season, request.user, *args)``, then the season's page: with ``done``, or
    with the reason it was refused."""
    try:
        service(season, request.user, *args)
    except LeaguesError as error:
        return _page(request, season, error.message, error.status)
    messages.success(request, done)
    return redirect(services.season_path(season))


def _page(
    request: HttpRequest,
    season: Season,
    error: str = "",
    status: int = 200,
    matchday: int | None = None,
) -> HttpResponse:
    club = season.league.club
    user = request.user
    shown = read.matchday_page(season, user, matchday)
    context = {
        "club": club,
        "league": season.league,
        "season": season,
        "error": error,
        "is_organiser": is_organiser(club, user),
        "is_member": is_member(club, user),
        "house_rules": house_rules_in_words(season),
        "registration": read.registration(season, user),
        "divisions": read.divisions(season, user),
        "matchdays": shown.rows,
        "matchday_page": shown,
        "not_started": season.status in services.NOT_STARTED,
    }
    return render(request, PAGE, context, status=status)
