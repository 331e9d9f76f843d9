"""Site-wide response headers."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers


class HtmxHistoryMiddleware:
    """Keeps the browser's history showing whole pages.

    A page and the htmx requests it makes often share an address (the table page polls
    itself, the replay steps through ``?turn=N``). Without a word from the server the
    browser keeps the last answer of that address in its cache, and Back then shows a
    poll's empty answer or a bare fragment. ``Vary: HX-Request`` tells it the two are
    different answers; a fragment is also never stored, and neither is a page that
    htmx keeps up to date, so Back asks again for the whole page.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_vary_headers(response, ["HX-Request"])
        if request.headers.get("HX-Request") == "true":
            add_never_cache_headers(response)
        return response
