"""Site-wide response headers, and no solver in the web process."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from engine.solver import refused

WEB = "a web request"


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


class NoSolverMiddleware:
    """Every request runs with the solver refused (:func:`engine.solver.refused`).

    The solver may think for seconds; in a request it would hold a thread and, under
    daphne, slow every push of the process. What a page asks of it is a task on the
    "solver" queue (:mod:`common.answers`); a request that calls it anyway fails at once
    and loudly, in the tests first. A task run in the request's own process (Celery's
    eager mode in tests) lifts the refusal for itself (``config.celery_app``), as it
    stands for the worker that runs it in production.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with refused(WEB):
            return self.get_response(request)


ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


class NoSolverASGI:
    """The same refusal around everything daphne serves, websockets included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        with refused(WEB):
            await self.app(scope, receive, send)
