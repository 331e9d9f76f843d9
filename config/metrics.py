"""Prometheus metrics of the site, served at ``/metrics/`` (:func:`view`).

What is counted, and where:

* requests, by view, method and status, with their times: django-prometheus's
  middleware (``config.settings`` puts it first and last when metrics are on);
* moves, by who made them (a member, a bot, a timeout): :func:`count_move`, a receiver
  of ``games.signals.move_committed``;
* pushes, by message type, with the time each took to reach Redis:
  :class:`config.channel_layer.CountedRedisChannelLayer`, which every push goes through;
* tasks, by name, queue and outcome, with their run times: Celery's
  ``task_prerun``/``task_postrun`` signals in every worker process;
* queue lengths and the age of each queue's freshest worker heartbeat: read from the
  broker's Redis when scraped (:class:`BrokerCollector`), so they are the node's view of
  the whole site at that moment.

Every process of a node writes its counts to files in ``PROMETHEUS_MULTIPROC_DIR``
(prometheus_client's multiprocess mode: several daphne processes, each worker's forked
processes), and the view adds them up: one scrape of any web process of a node sees the
node.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterator
from typing import Any

import redis
from celery.signals import task_postrun, task_prerun
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from config import heartbeat

MOVES = Counter("rummikub_moves", "Moves committed, by who made them.", ["by"])
PUSHES = Counter("rummikub_pushes", "Group messages sent to the pages, by type.", ["type"])
PUSH_SECONDS = Histogram(
    "rummikub_push_send_seconds",
    "Time to hand one group message to Redis.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
TASK_SECONDS = Histogram(
    "rummikub_task_seconds",
    "Celery tasks' run times, by task, queue and outcome.",
    ["task", "queue", "state"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)


def count_move(sender: type, by: str = "", **kwargs: Any) -> None:
    MOVES.labels(by=str(by)).inc()


def pushed(message_type: str, seconds: float) -> None:
    PUSHES.labels(type=message_type).inc()
    PUSH_SECONDS.observe(seconds)


_started: dict[str, float] = {}


def _task_started(task_id: str = "", **kwargs: Any) -> None:
    _started[task_id] = time.perf_counter()


def _task_finished(task_id: str = "", task: Any = None, state: str | None = "", **kw: Any) -> None:
    started = _started.pop(task_id, None)
    if started is None or task is None:
        return
    delivery = getattr(task.request, "delivery_info", None) or {}
    TASK_SECONDS.labels(
        task=task.name, queue=str(delivery.get("routing_key") or ""), state=str(state or "")
    ).observe(time.perf_counter() - started)


def connect() -> None:
    """Subscribe the counters to the facts they count (``OperationsConfig.ready``)."""
    from games import signals

    signals.move_committed.connect(count_move, dispatch_uid="metrics.count_move")
    task_prerun.connect(_task_started, dispatch_uid="metrics.task_started", weak=False)
    task_postrun.connect(_task_finished, dispatch_uid="metrics.task_finished", weak=False)


class BrokerCollector(Collector):
    """Queue lengths and workers' heartbeats, read from the broker's Redis when scraped."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        queues = heartbeat.site_queues()
        lengths = GaugeMetricFamily(
            "rummikub_queue_length", "Tasks waiting in a Celery queue.", labels=["queue"]
        )
        ages = GaugeMetricFamily(
            "rummikub_worker_heartbeat_age_seconds",
            "Seconds since a queue's freshest worker beat (absent: no worker).",
            labels=["queue"],
        )
        try:
            with redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
            ) as client:
                found = [client.llen(queue) for queue in queues]
            beats = heartbeat.youngest_beats(queues)
        except redis.RedisError:
            return
        for queue, length in zip(queues, found, strict=True):
            lengths.add_metric([queue], float(length))
            age = beats[queue]
            if age is not None:
                ages.add_metric([queue], age)
        yield lengths
        yield ages


def exposition() -> bytes:
    """The metrics in Prometheus' text format: every process of the node (multiprocess
    mode) or this one, and the broker's view."""
    if settings.METRICS_DIR:
        counted = CollectorRegistry()
        MultiProcessCollector(counted, path=settings.METRICS_DIR)  # type: ignore[no-untyped-call]
    else:
        counted = REGISTRY
    broker = CollectorRegistry()
    broker.register(BrokerCollector())
    return generate_latest(counted) + generate_latest(broker)


def authorised(request: HttpRequest) -> bool:
    """Whether the request bears ``METRICS_TOKEN`` (never, when none is set)."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
@require_safe
def view(request: HttpRequest) -> HttpResponse:
    """``/metrics/`` for Prometheus. A request without the token learns nothing, not
    even that the page exists."""
    if not authorised(request):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
