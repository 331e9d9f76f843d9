"""What every moderation view shares: its page for a :class:`ModerationError`, on which
the one answer to a refusal (:func:`common.refusals.refused`) shows it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from common import refusals
from moderation.errors import ModerationError

TITLES = {
    400: "Not possible",
    403: "Not allowed",
    404: "Not found",
    409: "Too late",
    429: "Too many",
}


def refused(request: HttpRequest, error: ModerationError) -> HttpResponse:
    """The refusal answered (htmx: the message area), else its sentence on a page of its
    own, with its status."""

    def page(status: int) -> HttpResponse:
        context = {"error": str(error), "title": TITLES.get(status, "Not possible")}
        return render(request, "moderation/refused.html", context, status=status)

    return refusals.refused(request, error, page)
