"""The probes: ``/health/live/`` answers whenever the process does; ``/health/ready/`` only
while the database, both Redis roles and a worker on every queue answer, with real
workers started and stopped (:mod:`config.heartbeat`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client, override_settings
from kombu import Queue

from tests.games.workers import Worker, new_prefix, wait_for


def ready(client: Client) -> tuple[int, str]:
    response = client.get("/health/ready/", HTTP_ACCEPT="application/json")
    return response.status_code, response.content.decode()


def test_liveness_answers_any_host_over_plain_http_even_where_the_site_redirects(
    client: Client,
) -> None:
    with override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["club.example.com"]):
        response = client.get("/health/live/", HTTP_HOST="10.0.0.7:8000")
        page = client.get("/", HTTP_HOST="10.0.0.7:8000")

    assert response.status_code == 200
    assert response.content == b"ok\n"
    # The rest of the site is as strict as before.
    assert page.status_code == 400


def test_the_probes_answer_only_get_and_head(client: Client) -> None:
    assert client.head("/health/live/").status_code == 200
    assert client.post("/health/live/").status_code == 404


@pytest.fixture
def queues() -> Iterator[tuple[str, list[str]]]:
    """Queues of the test's own as the site's queues, beating every half second."""
    prefix = new_prefix()
    # As tests.games.workers names a worker's queue (under a run's own prefix, if any).
    names = [f"{prefix}{os.environ.get('CELERY_QUEUE_PREFIX', '')}{q}" for q in ("main", "bots")]
    with override_settings(
        CELERY_TASK_QUEUES=[Queue(name) for name in names], WORKER_HEARTBEAT_SECONDS=0.5
    ):
        yield prefix, names


@pytest.mark.django_db
def test_readiness_names_a_redis_that_does_not_answer(
    client: Client, queues: tuple[str, list[str]]
) -> None:
    with override_settings(REDIS_CACHE_URL="redis://127.0.0.1:1/0"):
        status, text = ready(client)

    assert status == 500
    assert "the cache's Redis does not answer" in text


@pytest.mark.serial
@pytest.mark.django_db(transaction=True)
def test_readiness_waits_for_a_worker_on_every_queue_and_sees_one_go(
    client: Client,
    queues: tuple[str, list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prefix, (main, bots) = queues
    monkeypatch.setenv("WORKER_HEARTBEAT_SECONDS", "0.5")

    status, text = ready(client)
    assert status == 500
    assert main in text and bots in text

    main_worker = Worker(prefix, "main", tmp_path / "main.log")
    bots_worker = Worker(prefix, "bots", tmp_path / "bots.log")
    try:
        wait_for(lambda: ready(client)[0] == 200, seconds=10)
        # A worker stopped gracefully takes its name out at once.
        main_worker.stop()
        status, text = ready(client)
        assert status == 500
        assert main in text and bots not in text
        # One killed outright ages out within three beats.
        bots_worker.kill()
        wait_for(lambda: bots in ready(client)[1], seconds=5)
    finally:
        main_worker.stop()
        bots_worker.stop()
