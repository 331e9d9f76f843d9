"""A season's organisers' page (deadlines, closing matchdays, substitutes, scores) and
its history page.

The organisers' pages answer only the club's owner and organisers; a private club's
pages are "not found" to anyone who is not a member (its existence is not revealed),
a public club's organisers' page "forbidden" to others. The history is seen by whoever
may see the club.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from common.refusals import refused
from common.requests import AuthenticatedRequest
from games.services import TableError
from leagues.conflicts import (
    ANOTHER_ORGANISER,
    PLAYERS_CLOSE,
    close_conflicts,
    fixture_conflicts,
    refusal_text,
)
from leagues.errors import ORGANISERS_ONLY, Conflict, LeaguesError
from leagues.forms.organiser import (
    CloseForm,
    CloseSeasonForm,
    DeadlineForm,
    OpenNextForm,
    ScoreForm,
    SubstituteForm,
)
from leagues.models import Entry, Fixture, Matchday, ScoreAdjustment, Season
from leagues.permissions import MODERATING, ORGANISING, ensure_staff, role_in
from leagues.selectors.adjustments import adjustments_of, waiting
from leagues.selectors.history import season_history
from leagues.selectors.organiser import fixture_results, organiser_page
from leagues.selectors.standings import season_rules, visible_season
from leagues.services import adjustments, deadlines, matchdays, season_end
from leagues.services import organiser as tools
from leagues.standings import ZERO_SUM

# --- who may see and act -----------------------------------------------------------------


MODERATORS_ONLY = "Only the club's organisers and moderators may do that."


def _season_of_staff(
    request: HttpRequest, club: str, league: str, number: int, roles: frozenset[str], refusal: str
) -> Season:
    season = visible_season(request.user, club, league, number)
    ensure_staff(request.user, season, roles, refusal)
    return season


def _staff_only(
    roles: frozenset[str], refusal: str
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """The view gets the season of the URL, for the club's members of ``roles`` only
    (others get the refusal page; visitors are sent to log in)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(
            request: AuthenticatedRequest, club: str, league: str, number: int, **kwargs: Any
        ) -> HttpResponse:
            try:
                season = _season_of_staff(request, club, league, number, roles, refusal)
            except LeaguesError as error:
                return _refused(request, error)
            return view(request, season, **kwargs)

        return login_required(wrapped)

    return decorator


organisers_only = _staff_only(ORGANISING, ORGANISERS_ONLY)
"""The club's owner and organisers: the organisers' tools."""
moderators_only = _staff_only(MODERATING, MODERATORS_ONLY)
"""The club's owner, organisers and moderators: deciding an organiser's score change."""


def _page_url(season: Season) -> str:
    league = season.league
    return reverse("leagues:organiser", args=[league.club.slug, league.slug, season.number])


# --- the organisers' page --------------------------------------------------------------


@organisers_only
@require_safe
def organiser(request: AuthenticatedRequest, season: Season) -> HttpResponse:
    return _render_page(request, season)


def _render_page(request: AuthenticatedRequest, season: Season, status: int = 200) -> HttpResponse:
    context = {"page": organiser_page(season, request.user), "waiting": waiting(season)}
    return render(request, "leagues/organiser_season.html", context, status=status)


def _refused(request: HttpRequest, error: LeaguesError) -> HttpResponse:
    """The refusal answered (htmx: the message area), else on the organisers' page for
    it."""

    def page(status: int) -> HttpResponse:
        return render(request, "leagues/organiser_refused.html", {"error": error}, status=status)

    return refused(request, error, page)


def _acted(request: AuthenticatedRequest, season: Season, text: str) -> HttpResponse:
    messages.success(request, text)
    return redirect(_page_url(season))


def _failed(
    request: AuthenticatedRequest, season: Season, error: LeaguesError | forms.Form
) -> HttpResponse:
    """The page again, with what was wrong: a refusal's sentence or the form's errors."""
    if isinstance(error, LeaguesError):
        messages.error(request, error.message)
        return _render_page(request, season, error.status)
    for field, errors in error.errors.items():
        label = error.fields[field].label or field.capitalize() if field in error.fields else ""
        for text in errors:
            messages.error(request, f"{label}: {text}" if label else str(text))
    return _render_page(request, season, 400)


def _apply(
    request: AuthenticatedRequest,
    season: Season,
    form: forms.Form,
    act: Callable[[dict[str, Any]], Any],
    done: str | Callable[[Any], str],
) -> HttpResponse:
    """One tool's POST: the form checked, the service called, the page again. ``done``:
    what the organiser is told, or how to tell it from what the service returned."""
    if not form.is_valid():
        return _failed(request, season, form)
    try:
        made = act(form.cleaned_data)
    except LeaguesError as error:
        return _failed(request, season, error)
    return _acted(request, season, done if isinstance(done, str) else done(made))


def _submit(
    request: HttpRequest,
    form: forms.Form,
    act: Callable[[dict[str, Any]], object],
    refused: Callable[[LeaguesError], None],
) -> int | None:
    """A tool page with a preview: on a POST with a valid form, ``act(form.cleaned_data)``.
    ``None`` once it is done; else the status to show the page again with (200 for the
    GET, 400 for a form with errors, a refusal's own once ``refused`` has told it)."""
    if request.method != "POST":
        return 200
    if not form.is_valid():
        return 400
    try:
        act(form.cleaned_data)
    except LeaguesError as error:
        refused(error)
        return error.status
    return None


# --- closing a matchday ------------------------------------------------------------------


@organisers_only
@require_http_methods(["GET", "HEAD", "POST"])
def close_matchday(request: AuthenticatedRequest, season: Season, matchday: int) -> HttpResponse:
    """GET: the preview (the partial for htmx); POST: close it."""
    day = get_object_or_404(Matchday, season=season, number=matchday)
    form = CloseForm(request.POST or None)
    status = _submit(
        request,
        form,
        lambda data: deadlines.close_matchday(day, request.user, data["reason"]),
        lambda error: messages.error(request, error.message),
    )
    if status is None:
        return _acted(request, season, f"Matchday {day.number} is closed.")
    template = "leagues/organiser_close.html"
    if request.htmx:
        template += "#preview"
    context = {
        "season": season,
        "preview": deadlines.preview_close_matchday(day),
        "form": form,
        # Not offered to an organiser who plays in a fixture it would settle early.
        "refusal": refusal_text(
            deadlines.closing_conflicts(day, request.user), deadlines.CLOSED_BY_OTHERS
        ),
    }
    return render(request, template, context, status=status)


# --- closing the season --------------------------------------------------------------------


@organisers_only
@require_http_methods(["GET", "HEAD", "POST"])
def close_season(request: AuthenticatedRequest, season: Season) -> HttpResponse:
    """GET: the preview of the season's end; POST: close it and propose the next one,
    with the places of replaced players carried over as the organiser chose."""
    replaced = season_end.replaced_entries(season)
    form = CloseSeasonForm(request.POST or None, replaced=replaced)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                following = season_end.close_season(
                    season,
                    request.user,
                    form.cleaned_data["reason"],
                    carry_over=form.carry_over(),
                )
            except LeaguesError as error:
                return _refused(request, error)
            text = f"Season {season.number} is closed."
            if following is not None:
                text += f" Season {following.number} is open for registration."
            messages.success(request, text)
            league = season.league
            return redirect(
                "leagues:standings",
                slug=league.club.slug,
                league_slug=league.slug,
                number=season.number,
            )
    try:
        preview = season_end.preview_close_season(season)
    except LeaguesError as error:
        return _refused(request, error)
    refusal = refusal_text(close_conflicts(request.user, season), PLAYERS_CLOSE)
    context = {"season": season, "preview": preview, "form": form, "refusal": refusal}
    return render(request, "leagues/organiser_close_season.html", context, status=status)


@organisers_only
@require_POST
def announce_close(request: AuthenticatedRequest, season: Season) -> HttpResponse:
    """POST: announce that the season closes by itself after its grace period."""
    form = CloseSeasonForm(request.POST)
    if not form.is_valid():
        return _refused(request, LeaguesError("Say why the season's close is announced."))
    try:
        announced = season_end.announce_close(season, request.user, form.cleaned_data["reason"])
    except LeaguesError as error:
        return _refused(request, error)
    assert announced.closes_at is not None
    when = deadlines.when(announced.closes_at)
    return _acted(
        request, season, f"The players are told: season {season.number} closes on {when}."
    )


# --- the other tools ---------------------------------------------------------------------


@organisers_only
@require_POST
def extend_deadline(request: AuthenticatedRequest, season: Season, matchday: int) -> HttpResponse:
    day = get_object_or_404(Matchday, season=season, number=matchday)

    def extend(data: dict[str, Any]) -> None:
        tools.extend_deadline(day, data["deadline"], request.user, data["reason"])
        overlap = tools.overlap_warning(day, data["deadline"])
        if overlap:
            messages.warning(request, overlap)

    return _apply(
        request,
        season,
        DeadlineForm(request.POST),
        extend,
        f"Matchday {day.number}'s deadline is extended.",
    )


@organisers_only
@require_POST
def open_next_matchday(request: AuthenticatedRequest, season: Season) -> HttpResponse:
    """Open the next matchday now: every fixture before it is done."""
    form = OpenNextForm(request.POST)
    if not form.is_valid():
        return _failed(request, season, form)
    try:
        opened = matchdays.open_next_matchday(season, request.user, form.cleaned_data["reason"])
    except LeaguesError as error:
        return _failed(request, season, error)
    except TableError as error:
        return _failed(request, season, Conflict(f"A table could not be set up: {error.message}"))
    return _acted(request, season, f"Matchday {opened.number} is open now: its players are told.")


@organisers_only
@require_POST
def reschedule(request: AuthenticatedRequest, season: Season, fixture: int) -> HttpResponse:
    moved = get_object_or_404(Fixture, matchday__season=season, pk=fixture)
    return _apply(
        request,
        season,
        DeadlineForm(request.POST),
        lambda data: tools.reschedule_fixture(
            moved, data["deadline"], request.user, data["reason"]
        ),
        "The fixture has its own deadline now.",
    )


@organisers_only
@require_POST
def replace_player(request: AuthenticatedRequest, season: Season, entry: int) -> HttpResponse:
    replaced = get_object_or_404(Entry, season=season, pk=entry)
    form = SubstituteForm(request.POST)
    return _apply(
        request,
        season,
        form,
        lambda data: tools.replace_player(replaced, data["username"], request.user, data["reason"]),
        # Named as every page names them (display names), not by the username typed.
        lambda entry: f"{entry.substitute} plays for {entry.user} from now on.",
    )


@organisers_only
@require_http_methods(["GET", "HEAD", "POST"])
def adjust_score(request: AuthenticatedRequest, season: Season, fixture: int) -> HttpResponse:
    """GET: the fixture's games, their results and score changes; POST: propose one
    seat's score (applied at once where nobody else could confirm it)."""
    adjusted = get_object_or_404(Fixture, matchday__season=season, pk=fixture)
    form = ScoreForm(request.POST or None)
    made: list[ScoreAdjustment] = []
    status = _submit(
        request,
        form,
        lambda data: made.append(
            adjustments.propose(
                season, data["game"], data["seat"], data["score"], request.user, data["reason"]
            )
        ),
        lambda error: form.add_error(None, error.message),
    )
    if status is None:
        messages.success(request, _proposed_text(made[0]))
        return redirect(request.path)
    context = {
        "season": season,
        "fixture": adjusted,
        "games": fixture_results(adjusted),
        "adjustments": adjustments_of(season).filter(fixture=adjusted),
        "form": form,
        "zero_sum": season_rules(season).score_mode == ZERO_SUM,
        # The form is not offered to an organiser who plays in the fixture.
        "refusal": refusal_text(fixture_conflicts(request.user, adjusted), ANOTHER_ORGANISER),
    }
    return render(request, "leagues/organiser_result.html", context, status=status)


def _proposed_text(adjustment: ScoreAdjustment) -> str:
    if adjustment.status == ScoreAdjustment.Status.APPLIED:
        return (
            "The score is adjusted at once: nobody else in the club could confirm it. "
            "The standings follow."
        )
    return (
        "Your score change waits for a second organiser or moderator of the club: "
        "the standings change once one confirms it."
    )


# --- history -----------------------------------------------------------------------------


@require_safe
def history(request: HttpRequest, club: str, league: str, number: int) -> HttpResponse:
    season = visible_season(request.user, club, league, number)
    organises = role_in(request.user, season) in ORGANISING
    context = {
        "season": season,
        "history": season_history(season, request.GET.get("page"), private=organises),
        "organises": organises,
    }
    return render(request, "leagues/history.html", context)
