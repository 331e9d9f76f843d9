"""Liveness and readiness probes, for an orchestrator or a load balancer.

``/health/live/``: the process answers (nothing else is asked: a probe that restarts a
web process because PostgreSQL is away would only add restarts to the outage).

``/health/ready/``: django-health-check's page (HTML, or JSON with ``Accept:
application/json``), 200 when the node can serve a move from request to push: the
database answers (as the app's role), the broker's Redis (Celery and the channel layer)
and the cache's Redis answer, and every queue of the site has a worker whose heartbeat
is fresh (:mod:`config.heartbeat`); else 500 with what failed. A load balancer takes a
node out of rotation while it is not ready.

Both answer before every other middleware (:class:`ProbeMiddleware`): the orchestrator
asks over plain HTTP at the container's own address, and the https redirect and the
ALLOWED_HOSTS check would answer it with a redirect or a 400.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import redis
from asgiref.sync import async_to_sync, iscoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

from config import heartbeat


@dataclasses.dataclass
class BrokerRedis(HealthCheck):  # type: ignore[misc]
    """The Redis of Celery's broker, the channel layer, beat's lock and the socket
    slots (REDIS_URL) answers."""

    def run(self) -> None:
        _ping(settings.REDIS_URL, "the broker's Redis")


@dataclasses.dataclass
class CacheRedis(HealthCheck):  # type: ignore[misc]
    """The cache's Redis (REDIS_CACHE_URL, by default the same) answers."""

    def run(self) -> None:
        _ping(settings.REDIS_CACHE_URL, "the cache's Redis")


def _ping(url: str, name: str) -> None:
    try:
        with redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as error:
        raise ServiceUnavailable(f"{name} does not answer ({type(error).__name__})") from None


@dataclasses.dataclass
class Workers(HealthCheck):  # type: ignore[misc]
    """Every queue of the site has a worker that beat within the last three beats."""

    def run(self) -> None:
        try:
            missing = heartbeat.queues_without_workers()
        except redis.RedisError as error:
            raise ServiceUnavailable(f"heartbeats unreadable ({type(error).__name__})") from None
        if missing:
            raise ServiceUnavailable(f"no worker beats for the queue(s) {', '.join(missing)}")


READINESS_CHECKS = (
    "health_check.checks.Database",
    "config.probes.BrokerRedis",
    "config.probes.CacheRedis",
    "config.probes.Workers",
)


def live(request: HttpRequest) -> HttpResponse:
    response = HttpResponse("ok\n", content_type="text/plain")
    response["Cache-Control"] = "no-store"
    return response


ready = HealthCheckView.as_view(checks=READINESS_CHECKS)

PROBES: dict[str, Callable[..., Any]] = {"/health/live/": live, "/health/ready/": ready}


@sync_and_async_middleware
def ProbeMiddleware(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    """Answer the probes' two paths (GET or HEAD) before any other middleware."""
    if iscoroutinefunction(get_response):

        async def answer_async(request: HttpRequest) -> HttpResponse:
            probe = _probe(request)
            if probe is None:
                response: HttpResponse = await get_response(request)
                return response
            if iscoroutinefunction(probe):
                answered: HttpResponse = await probe(request)
                return answered
            return await sync_to_async(probe)(request)  # type: ignore[no-any-return]

        return answer_async

    def answer(request: HttpRequest) -> HttpResponse:
        probe = _probe(request)
        if probe is None:
            return get_response(request)  # type: ignore[no-any-return]
        if iscoroutinefunction(probe):
            return async_to_sync(probe)(request)  # type: ignore[no-any-return]
        return probe(request)  # type: ignore[no-any-return]

    return answer


def _probe(request: HttpRequest) -> Callable[..., Any] | None:
    if request.method not in ("GET", "HEAD"):
        return None
    return PROBES.get(request.path_info)
