"""What the game views share: the game or table a member may see, refusals on the game
page, and the fragments an htmx request gets back."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from common.refusals import message_html, refused
from common.requests import AuthenticatedRequest
from games import errors
from games.models import Game, Table
from games.rendering import TEMPLATE, game_context, reader_of, render_fragments
from games.selectors.chat import table_chat
from games.selectors.listing import turn_label
from games.selectors.live import kept, snapshot
from games.selectors.rules_summary import rules_summary
from games.selectors.sight import may_see, visible_game


def refuse(
    request: AuthenticatedRequest, game_id: int, error: errors.GameActionError
) -> HttpResponse:
    """A refused request, answered as every refusal is (:func:`common.refusals.refused`):
    htmx gets the sentence for the message area; a plain form post gets the game page
    with the sentence (404 and 403 the site's pages for them). Nothing changed."""

    def page(status: int) -> HttpResponse:
        if status == 404:
            raise Http404(error.message)
        if status == 403:
            raise PermissionDenied(error.message)
        messages.error(request, error.message)
        return game_page(request, game_or_404(request, game_id), status)

    return refused(request, error, page)


def table_or_404(
    request: AuthenticatedRequest, pk: int, tables: QuerySet[Table] | None = None
) -> Table:
    """The table ``pk`` (from ``tables``) as its page needs it; 404 when there is none
    or the member may not see it (:mod:`games.selectors.sight`): a private club's table is not
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


def game_page(request: AuthenticatedRequest, game: Game, status: int = 200) -> HttpResponse:
    """The table as ``request.user`` sees it: whoever may see the table may watch (the
    caller asked :mod:`games.selectors.sight`); players see their own rack."""
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
    # A move's answer renders the snapshot its commit seeded (games.receivers).
    seeded = None if moved is None else kept.get(moved.pk, moved.version)
    live = seeded or snapshot(game)
    html = render_fragments(live, reader_of(live, request.user, table=game.table))
    response = HttpResponse(html + message_html(notice, level="success"))
    response["HX-Reswap"] = "none"
    return response
