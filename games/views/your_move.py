"""Your move: every game awaiting the member, the soonest deadline first, and a turn to
the next one in one click."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from common.parsing import parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from games.selectors.your_move import next_your_move, your_move_games


@login_required
@require_safe
def your_move(request: AuthenticatedRequest) -> HttpResponse:
    return render(request, "games/your_move.html", {"games": your_move_games(request.user)})


@login_required
@require_safe
@answers_bad_input
def next_game(request: AuthenticatedRequest) -> HttpResponse:
    """``?from=<game id>``: the game after that one, else the first; none: the list."""
    game_id = next_your_move(request.user, parse_optional_number(request.GET.get("from")))
    if game_id is None:
        return redirect("games:your_move")
    return redirect("games:game", pk=game_id)
