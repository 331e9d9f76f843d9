"""The game page and everything a player does on it.

Each action is one POST calling one service. htmx gets back the live partials (the
same ones a websocket push brings) or, when the service refuses, the sentence for the
message area with a 4xx status; nothing has changed then.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST, require_safe

from common.answers import Job
from common.requests import AuthenticatedRequest
from games import live, services
from games.errors import DraftError, GameActionError, InvalidMove
from games.forms import DiscardForm, MoveForm, PickForm, RiverForm, TableJSONForm, VersionForm
from games.models import Game
from games.rendering import TEMPLATE
from games.selectors.seats import seat_of
from games.services import forced
from games.services.help import Hint
from games.solver_tasks import ask_arrange, ask_hint, ask_river_take
from games.views.common import (
    ensure_sees_game,
    fragments,
    game_or_404,
    game_page,
    refuse,
)

View = Callable[..., HttpResponse]


def game_action(view: View) -> View:
    """Signed-in POSTs only; a refusal from a service becomes the player's message."""

    @wraps(view)
    def wrapper(request: AuthenticatedRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            # Outsiders of a private table learn nothing, not even why a move is wrong.
            ensure_sees_game(request, pk)
            return view(request, pk, *args, **kwargs)
        except GameActionError as error:
            return refuse(request, pk, error)

    return login_required(require_POST(wrapper))


def move_action(view: View) -> View:
    """:func:`game_action` for a move whose service loads the game for the player
    (:func:`games.services.move.load_for_player`): the service asks whether the member
    may see the game, under the game's lock and from the seats it loads, before
    anything else, so the view does not ask again."""

    @wraps(view)
    def wrapper(request: AuthenticatedRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, pk, *args, **kwargs)
        except GameActionError as error:
            return refuse(request, pk, error)

    return login_required(require_POST(wrapper))


def _cleaned(
    request: AuthenticatedRequest, form_class: type[forms.Form], refusal: GameActionError
) -> dict[str, Any]:
    """What the page posted, cleaned by ``form_class``; ``refusal`` is raised if invalid."""
    form = form_class(request.POST)
    if not form.is_valid():
        raise refusal
    return form.cleaned_data


def _version(
    request: AuthenticatedRequest, form_class: type[VersionForm] = VersionForm
) -> dict[str, Any]:
    incomplete = InvalidMove("The page sent an incomplete request: reload it and try again.")
    return _cleaned(request, form_class, incomplete)


@login_required
@require_safe
def game(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The table: whoever may see it may watch (:mod:`games.selectors.sight`); players see their
    own rack."""
    return game_page(request, game_or_404(request, pk))


@game_action
def move(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Move tiles of the turn in progress (rack, sets, a new set)."""
    data = _cleaned(
        request, MoveForm, DraftError("Choose the tiles to move, then where to put them.")
    )
    services.move_tiles(
        pk, request.user, data["picks"], data["target"], data.get("position"), page=_page(request)
    )
    return fragments(request, pk)


@game_action
def reset(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Throw away the working table: the turn starts over from the table as it is."""
    services.reset_draft(pk, request.user, page=_page(request))
    return fragments(request, pk, "Your turn starts over from the table as it was.")


@game_action
def undo(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Take back the last change of the turn in progress (one step)."""
    services.undo_draft(pk, request.user, page=_page(request))
    return fragments(request, pk, "Your last change is undone.")


@move_action
def play(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """End the turn: play the working table as it is (the engine judges it)."""
    return _end_turn(request, pk, services.play)


@move_action
def draw(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Draw from the pool (with the River, two tiles: then discard one)."""
    return _end_turn(request, pk, services.draw)


@move_action
def pass_turn(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Let the turn go by (only once the pool is empty)."""
    return _end_turn(request, pk, services.pass_turn)


def _end_turn(request: AuthenticatedRequest, pk: int, service: Callable[..., Game]) -> HttpResponse:
    """A move that needs nothing from the page but the version it shows."""
    moved = service(pk, request.user, _version(request)["version"], page=_page(request))
    return fragments(request, pk, moved=moved)


def _page(request: AuthenticatedRequest) -> str:
    """The page a move is sent from (``X-Game-Page``, set by ``static/js/game.js``): its
    answer shows the move, so its socket is not sent the move again."""
    return live.page_id(request.headers.get("X-Game-Page"))


@game_action
def standing_order(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The answer to the offer under the move log: draw for me when a turn has no play
    (``answer=yes``), or not (``no``). Only a player of the game is offered it."""
    answer = request.POST.get("answer")
    if answer not in ("yes", "no"):
        raise InvalidMove("Answer yes or no.")
    seat_of(game_or_404(request, pk), request.user)  # NotSeated: a spectator has no turns here
    forced.answer_offer(request.user, answer == "yes")
    said = (
        "When a turn of yours has no play, it is drawn for you after a while."
        if answer == "yes"
        else "Your turns are yours to draw."
    )
    return fragments(request, pk, said)


@move_action
def discard(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """River: put one of the two tiles drawn on the River."""
    data = _version(request, DiscardForm)
    moved = services.discard(pk, request.user, data["version"], data["tile"], page=_page(request))
    return fragments(request, pk, moved=moved)


@game_action
def take_from_river(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """River: take a tile (and the newer ones) and play it at once. The solver lays it,
    on a worker: the page shows "thinking", then the move comes by the game's push."""
    data = _version(request, RiverForm)
    job = ask_river_take(pk, request.user, data["version"], data["index"])
    return thinking(request, pk, job, "The solver is laying the tile…")


@game_action
def resign(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Give up the game (on anyone's turn): the player drops out and scores as a loser."""
    moved = services.resign(pk, request.user, page=_page(request))
    return fragments(request, pk, "You resigned this game.", moved=moved)


@game_action
def arrange(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Let the solver lay the picked rack tiles on the table, into the working table (on
    a worker: the page shows "thinking", then the table comes by the game's push)."""
    picked = _cleaned(
        request, PickForm, DraftError("Pick the tiles of your rack you want to lay first.")
    )
    job = ask_arrange(pk, request.user, picked["tiles"])
    return thinking(request, pk, job, "The solver is arranging the table with your tiles…")


@game_action
def use_hint(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Load the hint's table into the working table."""
    posted = _cleaned(
        request, TableJSONForm, DraftError("That hint is no longer there: ask for a new one.")
    )
    services.save_draft(pk, request.user, posted["table"], page=_page(request))
    return fragments(request, pk, "The hint is on the table: end your turn to play it.")


@login_required
@require_safe
def hint(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The solver's best play for the player's rack, for the help panel: at once when it
    was worked out before, else "thinking" until a worker's answer is pushed."""
    try:
        ensure_sees_game(request, pk)
        found = ask_hint(pk, request.user)
    except GameActionError as error:
        return refuse(request, pk, error)
    context = {"hint": found} if isinstance(found, Hint) else {"job": found}
    return render(request, f"{TEMPLATE}#help", {**context, "game_id": pk})


def thinking(request: AuthenticatedRequest, pk: int, job: Job, what: str) -> HttpResponse:
    """The message area says the solver is at it; its answer replaces that (a push)."""
    if not request.htmx:
        messages.info(request, f"{what} Look again in a moment.")
        return redirect("games:game", pk=pk)
    html = render_to_string(
        "includes/thinking_message.html", {"job": job, "thinking": what}, request=request
    )
    response = HttpResponse(html)
    response["HX-Reswap"] = "none"
    return response
