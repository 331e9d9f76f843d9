"""A table's chat: say something, mute or unmute a member.

Each is a POST calling one service. htmx gets back the chat as its user now reads it
(out of band, by id) and the panel's error line; a refusal is that line with the
sentence and a 4xx status, and nothing changed. Without htmx a post goes back to the
page it came from (the table's current game, or the table), or answers the refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from common.parsing import BadInput, parse_number
from common.requests import AuthenticatedRequest
from games.errors import GameActionError
from games.rendering import CHAT_TEMPLATE, render_chat_lines
from games.selectors.sight import visible_table
from games.services import chat

View = Callable[..., HttpResponse]
Action = Callable[[AuthenticatedRequest, int], None]


def chat_action(view: Action) -> View:
    """Signed-in POSTs only; a refusal from the service becomes the panel's error line."""

    @wraps(view)
    def wrapper(request: AuthenticatedRequest, pk: int) -> HttpResponse:
        if visible_table(request.user, pk) is None:
            # A missing table and one the member may not see answer alike.
            return _refuse(request, "There is no such table.", 404)
        try:
            view(request, pk)
        except BadInput as error:
            return _refuse(request, error.message, 400)
        except GameActionError as error:
            return _refuse(request, error.message, error.status)
        if not request.htmx:
            return _back(request, pk)
        html = render_chat_lines(pk, request.user) + _error_html("")
        return HttpResponse(html)

    return login_required(require_POST(wrapper))


@chat_action
def say(request: AuthenticatedRequest, pk: int) -> None:
    """Say something at the table (to the spectators only, for a spectator while a game
    is in play)."""
    chat.say(pk, request.user, request.POST.get("text", ""))


@chat_action
def mute(request: AuthenticatedRequest, pk: int) -> None:
    """No longer read a member's messages (at any table)."""
    chat.mute(request.user, _member(request))


@chat_action
def unmute(request: AuthenticatedRequest, pk: int) -> None:
    """Read a muted member's messages again."""
    chat.unmute(request.user, _member(request))


def _member(request: AuthenticatedRequest) -> int:
    return parse_number(request.POST.get("member", ""))


def _error_html(sentence: str) -> str:
    context: dict[str, Any] = {"chat_error": sentence, "oob": True}
    return render_to_string(f"{CHAT_TEMPLATE}#error", context)


def _refuse(request: AuthenticatedRequest, sentence: str, status: int) -> HttpResponse:
    if request.htmx:
        return HttpResponse(_error_html(sentence), status=status)
    if status == 404:
        raise Http404(sentence)
    if status == 403:
        raise PermissionDenied(sentence)
    template = "429.html" if status == 429 else "400.html"
    return render(request, template, {"message": sentence}, status=status)


def _back(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    came_from = request.headers.get("referer", "")
    if came_from and url_has_allowed_host_and_scheme(
        came_from, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(came_from)
    return redirect("games:current", pk=pk)
