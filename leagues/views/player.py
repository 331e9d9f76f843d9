"""A member's own league pages: their seasons and fixtures, withdrawing from a season,
and the calendar feed of their fixtures and deadlines."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from common.requests import AuthenticatedRequest
from leagues.conflicts import ANOTHER_ORGANISER, refusal_text, withdrawal_conflicts
from leagues.errors import LeaguesError
from leagues.models import Entry
from leagues.permissions import why_not_staff
from leagues.selectors.calendar import feed_token, member_calendar, member_of_token
from leagues.selectors.player import player_seasons
from leagues.services.calendar import renew_calendar_token
from leagues.services.withdrawals import withdraw

REASON_MAX_LENGTH = 500
PLAYER_OR_ORGANISER = "Only the player or an organiser of the club may withdraw them."


@login_required
@require_safe
def my_leagues(request: AuthenticatedRequest) -> HttpResponse:
    token = feed_token(request.user)
    feed_url = (
        request.build_absolute_uri(reverse("leagues:calendar_feed", kwargs={"token": token}))
        if token
        else ""
    )
    return render(
        request,
        "leagues/player_leagues.html",
        {"seasons": player_seasons(request.user), "feed_url": feed_url},
    )


@login_required
@require_POST
def renew_calendar(request: AuthenticatedRequest) -> HttpResponse:
    had_one = feed_token(request.user) is not None
    renew_calendar_token(request.user)
    messages.success(
        request,
        "Your calendar has a new address: the old one no longer works."
        if had_one
        else "Your calendar's address is ready: add it to your calendar app.",
    )
    return redirect(f"{reverse('leagues:player')}#calendar")


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    member = member_of_token(token)
    if member is None:
        raise Http404("There is no calendar at this address.")
    response = HttpResponse(member_calendar(member), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="leagues.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def withdraw_entry(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    entry = _get_entry_to_withdraw(request.user, pk)
    by_organiser = entry.user_id != request.user.pk
    if request.method != "POST":
        return _withdraw_page(request, entry, by_organiser)
    reason = request.POST.get("reason", "")
    if len(reason) > REASON_MAX_LENGTH:
        return _withdraw_page(
            request, entry, by_organiser, f"Say it in {REASON_MAX_LENGTH} characters.", 400
        )
    try:
        withdraw(entry, request.user, reason)
    except LeaguesError as refusal:
        return _withdraw_page(request, entry, by_organiser, refusal.message, refusal.status)
    if by_organiser:
        messages.success(request, f"{entry.user} no longer plays in {entry.season}.")
        return redirect("leagues:withdraw", pk=entry.pk)
    messages.success(request, f"You have withdrawn from {entry.season}.")
    return redirect("leagues:player")


def _withdraw_page(
    request: AuthenticatedRequest,
    entry: Entry,
    by_organiser: bool,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    entry.refresh_from_db(fields=["status", "withdrawn_at"])
    context = {
        "entry": entry,
        "season": entry.season,
        "by_organiser": by_organiser,
        "error": error,
        "refusal": refusal_text(withdrawal_conflicts(request.user, entry), ANOTHER_ORGANISER),
    }
    return render(request, "leagues/player_withdraw.html", context, status=status)


def _get_entry_to_withdraw(user: User, pk: int) -> Entry:
    """The entry, if ``user`` may withdraw it: its player, or an organiser of its club.
    Others who may see the club are refused (403); anyone else is told it does not exist
    (a private club's seasons are never revealed)."""
    entry = get_object_or_404(
        Entry.objects.select_related("season__league__club", "user", "substitute"), pk=pk
    )
    if entry.user_id == user.pk:
        return entry
    refusal = why_not_staff(user, entry, refusal=PLAYER_OR_ORGANISER)
    if refusal is None:
        return entry
    if user.has_perm("leagues.view_club", entry):
        raise PermissionDenied(refusal)
    raise Http404("There is no such entry.")
