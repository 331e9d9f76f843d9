"""What the game views share: the request type, refusals as messages, and the fragments
an htmx request gets back."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django_htmx.http import HttpResponseClientRedirect

from common.parsing import BadInput
from common.requests import AuthenticatedRequest
from games import errors
from games.models import Game, Table
from games.permissions import may_see, visible_game
from games.rendering import LIVE_PARTIALS, TEMPLATE, game_context
from games.rules_summary import rules_summary
from games.selectors.chat import table_chat
from games.selectors.listing import turn_label

STATUS_OF: dict[type[errors.GameActionError], int] = {
    errors.NotFound: 404,
    errors.NotSeated: 403,
    errors.StaleVersion: 409,
    errors.NotYourTurn: 409,
    errors.GameFinished: 409,
    errors.GameHeld: 409,
    errors.IllegalPlay: 422,
    errors.NoArrangement: 422,
    errors.HelpBusy: 429,
    errors.TableError: 409,
    errors.Barred: 403,
    errors.ChatTooFast: 429,
}
"""HTTP status of each refusal; any other one is a 400 (a malformed or impossible request)."""


def status_of(error: errors.GameActionError) -> int:
    return next((code for kind, code in STATUS_OF.items() if isinstance(error, kind)), 400)


def message_html(text: str, level: str = "error") -> str:
    """The page's message area, swapped in out of band (empty text clears it)."""
    return render_to_string(f"{TEMPLATE}#message", {"message": text, "level": level, "oob": True})


def refuse(
    request: AuthenticatedRequest, game_id: int, error: errors.GameActionError
) -> HttpResponse:
    """A refused request: nothing changed. htmx gets the sentence for the message area with
    a 4xx status; a plain form post gets the game page with the sentence, and that status."""
    status = status_of(error)
    if request.htmx:
        return message_response(error)
    if status == 404:
        raise Http404(error.message)
    if status == 403:
        raise PermissionDenied(error.message)
    messages.error(request, error.message)
    return game_page(request, game_or_404(request, game_id), status)


def table_or_404(
    request: AuthenticatedRequest, pk: int, tables: QuerySet[Table] | None = None
) -> Table:
    """The table ``pk`` (from ``tables``) as its page needs it; 404 when there is none
    or the member may not see it (:mod:`games.permissions`): a private club's table is not
    there for outsiders."""
    found = get_object_or_404(Table.objects.all() if tables is None else tables, pk=pk)
    if not may_see(request.user, found):
        raise Http404("There is no such table.")
    return found


def game_or_404(request: AuthenticatedRequest, pk: int) -> Game:
    """The game ``pk`` with its table; 404 as :func:`table_or_404`."""
    found = visible_game(request.user, pk)
    if found is None:
        raise Http404("There is no such game.")
    return found


def ensure_sees_game(request: AuthenticatedRequest, pk: int) -> None:
    """Raise :class:`~games.errors.NotFound` (answered 404 before anything is done) when
    game ``pk`` does not exist or the member may not see it."""
    if visible_game(request.user, pk) is None:
        raise errors.NotFound("There is no such game.")


def message_response(error: errors.GameActionError) -> HttpResponse:
    """A refusal for htmx: the sentence for the page's message area, with its 4xx."""
    # The message is swapped out of band: the request's own target stays as it was.
    response = HttpResponse(message_html(error.message), status=status_of(error))
    response["HX-Reswap"] = "none"
    return response


def refusal_page(request: AuthenticatedRequest, error: errors.GameActionError) -> HttpResponse:
    """A refusal with no page of its own to be shown on (Play now): htmx gets the
    sentence for the message area, a plain post the site's refusal page with it; both
    with the refusal's status. Nothing changed."""
    if request.htmx:
        return message_response(error)
    return render(request, "403.html", {"exception": error.message}, status=status_of(error))


def game_page(request: AuthenticatedRequest, game: Game, status: int = 200) -> HttpResponse:
    """The table as ``request.user`` sees it: whoever may see the table may watch (the
    caller asked :mod:`games.permissions`); players see their own rack."""
    table = game.table
    context = game_context(game, request.user)
    context["page"] = {
        "table_id": table.pk,
        "preset": table.get_preset_display(),
        "rules": rules_summary(table.engine_ruleset(), table.preset),
        "turn_label": turn_label(table.turn_seconds),
    }
    context["chat"] = table_chat(table, request.user)
    return render(request, TEMPLATE, context, status=status)


def fragments(
    request: AuthenticatedRequest, game_id: int, notice: str = "", moved: Game | None = None
) -> HttpResponse:
    """After a change: the live partials as the user now sees them, and the message area.

    The same partials a websocket push brings; htmx swaps each in by its id. ``moved``
    is the game as the service just committed it (with its table), which saves loading
    and decoding it again.
    """
    game = moved or Game.objects.select_related("table").get(pk=game_id)
    if not request.htmx:
        if notice:
            messages.success(request, notice)
        return redirect("games:game", pk=game_id)
    context = {**game_context(game, request.user), "oob": True}
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", context) for name in LIVE_PARTIALS)
    response = HttpResponse(html + message_html(notice, level="success"))
    response["HX-Reswap"] = "none"
    return response


def client_redirect(request: AuthenticatedRequest, url: str) -> HttpResponse:
    """Go to ``url``: a full redirect for htmx requests, a plain one otherwise."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


View = Callable[..., HttpResponse]


def answers_bad_input(view: View) -> View:
    """A view that reads numbers or JSON with :mod:`common.parsing`: what it cannot read
    is answered 400 with the reason, before anything is done."""

    @wraps(view)
    def wrapper(request: AuthenticatedRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except BadInput as error:
            template = "400.html#refusal" if request.htmx else "400.html"
            return render(request, template, {"message": error.message}, status=400)

    return wrapper
