"""What every moderation view shares: the refusal page for a :class:`ModerationError`."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from moderation.errors import ModerationError

TITLES = {
    400: "Not possible",
    403: "Not allowed",
    404: "Not found",
    409: "Too late",
    429: "Too many",
}


def refused(request: HttpRequest, error: ModerationError) -> HttpResponse:
    """The refusal's sentence on a page of its own, with its status."""
    context = {"error": str(error), "title": TITLES.get(error.status, "Not possible")}
    return render(request, "moderation/refused.html", context, status=error.status)
