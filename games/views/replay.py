"""The replay of a finished game, turn by turn."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from common.parsing import parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from games.errors import HelpBusy, NotFound
from games.models import Game
from games.selectors.replay import ReplayFrame, replay_frame
from games.solver_tasks import Analysed, ask_analysis
from games.views.common import game_or_404


@login_required
@require_safe
@answers_bad_input
def replay(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """``?turn=N``: the game after N turns. Only once the game is over (racks are public)."""
    game, frame = _frame(request, pk)
    template = "games/replay.html#frame" if request.htmx else "games/replay.html"
    # Its players may report a problem of the game from here.
    is_player = game.table.seats.filter(user=request.user).exists()
    context = {"frame": frame, "games_in_round": game.table.games_in_round, "is_player": is_player}
    return render(request, template, context)


@login_required
@require_safe
@answers_bad_input
def analysis(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """``?turn=N``: the solver's best play beside turn N (loaded into the replay by htmx):
    at once when it was worked out before, else "thinking" until a worker's answer is
    pushed."""
    _, frame = _frame(request, pk)
    try:
        found = ask_analysis(frame, request.user)
    except HelpBusy as error:
        return render(request, "games/replay.html#analysis", {"busy": error.message}, status=429)
    context = {"analysis": found.analysis} if isinstance(found, Analysed) else {"job": found}
    return render(request, "games/replay.html#analysis", {"frame": frame, **context})


def _frame(request: AuthenticatedRequest, pk: int) -> tuple[Game, ReplayFrame]:
    game = game_or_404(request, pk)
    step = parse_optional_number(request.GET.get("turn")) or 0
    try:
        return game, replay_frame(game, step)
    except NotFound as error:
        raise Http404(error.message) from None
