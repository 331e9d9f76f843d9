"""Filing a dispute: the report forms of a game and of a chat message, and a member's
own reports."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from common.requests import AuthenticatedRequest
from games.models import ChatMessage, Game
from games.selectors.chat import may_read_message
from games.selectors.sight import Sight, belongs_to_shown, table_sight
from moderation.errors import ModerationError, NotAllowed
from moderation.forms.filing import GameReportForm, MessageReportForm
from moderation.models import Report
from moderation.permissions import player_ids
from moderation.selectors.cases import my_reports_page
from moderation.services.filing import Filing, file_game_report, file_message_report
from moderation.views.common import refused


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def file(request: AuthenticatedRequest, game_id: int) -> HttpResponse:
    """GET: the report form of a game (its players only); POST: file it."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    sight = table_sight(request.user, game.table)
    if sight == Sight.NONE:
        # A private club's game is not there for outsiders (games.selectors.sight).
        raise Http404("There is no such game.")
    if request.user.pk not in player_ids(game):
        return refused(request, NotAllowed("Only the game's players may report it."))
    form = GameReportForm(game, request.user, request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            filing = Filing(data["category"], data["text"], data["turn_number"], data["accused"])
            try:
                return _filed(request, file_game_report(game.pk, request.user, filing))
            except ModerationError as error:
                form.add_error(None, str(error))
                status = error.status
    belongs_to, _ = belongs_to_shown(game.table, sight)
    context = {"form": form, "game": game, "belongs_to": belongs_to}
    return render(request, "moderation/file.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def file_message(request: AuthenticatedRequest, message_id: int) -> HttpResponse:
    """GET: the report form of a chat message; POST: file it."""
    message = get_object_or_404(
        ChatMessage.objects.select_related("author", "table"), pk=message_id
    )
    # Only a message the member could read at its table (not hidden, not the spectators'
    # side to a player, a table they may see) is shown here; the service checks again.
    if not may_read_message(request.user, message):
        raise Http404("There is no such message.")
    form: forms.Form = MessageReportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                report = file_message_report(
                    message.pk, request.user, data["category"], data["text"]
                )
                return _filed(request, report)
            except ModerationError as error:
                form.add_error(None, str(error))
                status = error.status
    context = {"form": form, "message": message}
    return render(request, "moderation/file_message.html", context, status=status)


def _filed(request: AuthenticatedRequest, report: Report) -> HttpResponse:
    case = report.case
    # Not how many: that count stays with the moderators (security review wave 3, SU2).
    if case.reports.exclude(pk=report.pk).exists():
        text = (
            f"Your report joined case {case.pk}, which others reported too: it now comes up sooner."
        )
    else:
        who = "the club's moderators" if case.club_id else "the site's moderators"
        text = f"Your report is filed as case {case.pk}; {who} will look at it."
    messages.success(request, text)
    return redirect("moderation:case", case_id=case.pk)


@login_required
@require_safe
def my_cases(request: AuthenticatedRequest) -> HttpResponse:
    """The member's own reports and what became of them."""
    reports = my_reports_page(request.user, request.GET.get("page"))
    return render(request, "moderation/my_cases.html", {"reports": reports})
