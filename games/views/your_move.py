"""Your move: every game awaiting the member, the soonest deadline first, and a turn to
the next one in one click."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from common.parsing import parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from games.selectors.your_move import next_your_move, your_move_page


@login_required
@require_safe
@never_cache
def your_move(request: AuthenticatedRequest) -> HttpResponse:
    """The list (``?page=N``: a page of it), kept fresh: never stored, so Back asks
    again (as the header's count is made afresh); the page asks for its list (htmx) again
    whenever the header's socket says the member's counts changed."""
    template = "games/your_move.html#awaiting" if request.htmx else "games/your_move.html"
    page = your_move_page(request.user, request.GET.get("page"))
    return render(request, template, {"games": page.object_list, "listed": page})


@login_required
@require_safe
@answers_bad_input
def next_game(request: AuthenticatedRequest) -> HttpResponse:
    """``?from=<game id>``: the game after that one, else the first; none: the list."""
    game_id = next_your_move(request.user, parse_optional_number(request.GET.get("from")))
    if game_id is None:
        return redirect("games:your_move")
    return redirect("games:game", pk=game_id)
