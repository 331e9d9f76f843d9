"""The one answer to a refusal, and what every app's views share around it.

A :class:`~common.errors.Refusal` is answered one way (:func:`refused`): an htmx request
gets the sentence for the page's message area with the refusal's status, and nothing of
the page is swapped; any other request gets a page with the sentence and that status
(the view's own page when it has one to show the refusal on, else the site's refusal
page). What a request cannot even be read as is answered 400 (:func:`answers_bad_input`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django_htmx.http import HttpResponseClientRedirect

from common.errors import Refusal
from common.parsing import BadInput
from common.requests import AuthenticatedRequest

MESSAGE_TEMPLATE = "message.html"
"""The message area of every page (base.html, the game page its own; see the template)."""

Page = Callable[[int], HttpResponse]
"""A view's own page with the refusal on it, rendered with the status it is given."""

View = Callable[..., HttpResponse]


def message_html(text: str, level: str = "error") -> str:
    """The page's message area, swapped in out of band (empty text clears it)."""
    return render_to_string(MESSAGE_TEMPLATE, {"message": text, "level": level, "oob": True})


def message_response(refusal: Refusal) -> HttpResponse:
    """A refusal for htmx: the sentence for the page's message area, with its 4xx."""
    # The message is swapped out of band: the request's own target stays as it was.
    response = HttpResponse(message_html(refusal.message), status=refusal.status)
    response["HX-Reswap"] = "none"
    return response


def refused(request: HttpRequest, refusal: Refusal, page: Page | None = None) -> HttpResponse:
    """The one answer to ``refusal``, with its status; nothing changed. htmx gets the
    sentence for the message area; a plain request ``page`` (the view's own page with
    the sentence on it), or without one the site's refusal page."""
    if getattr(request, "htmx", False):
        return message_response(refusal)
    if page is not None:
        return page(refusal.status)
    return render(request, "403.html", {"exception": refusal.message}, status=refusal.status)


def client_redirect(request: AuthenticatedRequest, url: str) -> HttpResponse:
    """Go to ``url``: a full redirect for htmx requests, a plain one otherwise."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


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
