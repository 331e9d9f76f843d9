"""The web process never runs the solver: every request and every socket daphne serves runs
with it refused (config.middleware), so a page that called it would fail at once, in the
first test that took that path; a Celery task runs it wherever it runs (on the "solver"
queue's worker; in a test's own process under Celery's eager mode)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from config.celery_app import app as celery_app
from config.middleware import NoSolverASGI, NoSolverMiddleware
from engine.ruleset import Ruleset
from engine.solver import SolverRefused, arrange, solve
from engine.tiles import parse_tiles

RUN = parse_tiles(["R1", "R2", "R3"])


def solves(request: HttpRequest) -> HttpResponse:
    """A view that asks the solver (no view of the site does)."""
    return HttpResponse(str(len(solve([], RUN, True, Ruleset()).played)))


def test_every_request_runs_with_the_solver_refused() -> None:
    assert settings.MIDDLEWARE[0] == "config.middleware.NoSolverMiddleware"
    request = RequestFactory().get("/")

    with pytest.raises(SolverRefused, match="the solver does not run in a web request"):
        NoSolverMiddleware(solves)(request)


def test_arrange_is_refused_too_and_the_refusal_ends_with_the_request() -> None:
    def arranges(request: HttpRequest) -> HttpResponse:
        arrange([], RUN, True, Ruleset())
        return HttpResponse()

    with pytest.raises(SolverRefused):
        NoSolverMiddleware(arranges)(RequestFactory().get("/"))

    assert solve([], RUN, True, Ruleset()).played  # outside a request: a worker's process


@pytest.mark.asyncio
async def test_whatever_daphne_serves_runs_with_the_solver_refused() -> None:
    from config.asgi import application

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        solve([], RUN, True, Ruleset())

    assert isinstance(application, NoSolverASGI)
    with pytest.raises(SolverRefused):
        await NoSolverASGI(app)({"type": "websocket"}, None, None)


@celery_app.task
def _solves_in_a_task() -> int:
    return len(solve([], RUN, True, Ruleset()).played)


def test_a_task_run_inside_a_request_may_solve_as_its_worker_would() -> None:
    def queues_eagerly(request: HttpRequest) -> HttpResponse:
        return HttpResponse(str(_solves_in_a_task.apply().get()))

    response = NoSolverMiddleware(queues_eagerly)(RequestFactory().get("/"))

    assert response.content == b"3"
