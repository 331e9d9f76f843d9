"""``/metrics/``: served only with the token; counts moves, pushes and tasks, reads the
queues' lengths and heartbeats from Redis; in multiprocess mode one scrape adds up every
process of the node, requests counted by django-prometheus among them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.test import Client, TestCase, override_settings
from kombu import Queue
from prometheus_client.parser import text_string_to_metric_families

from accounts.models import User
from config import heartbeat
from games import services
from games.models import Game
from moderation.tasks import check_log_chain
from tests.config.interpreters import run_python
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.workers import new_prefix

TOKEN = "scrape-me"


def scrape(client: Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


@pytest.fixture
def scraping() -> Iterator[None]:
    with override_settings(METRICS_TOKEN=TOKEN):
        yield


def test_without_a_token_set_the_page_is_not_there(client: Client) -> None:
    assert client.get("/metrics/", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.usefixtures("scraping")
def test_a_request_without_the_token_learns_nothing(client: Client) -> None:
    assert client.get("/metrics/").status_code == 404
    assert client.get("/metrics/", HTTP_AUTHORIZATION="Bearer scrape-you").status_code == 404
    assert client.post("/metrics/", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 405


@pytest.mark.django_db
@pytest.mark.usefixtures("scraping", "eager_celery")
def test_moves_pushes_and_tasks_are_counted(client: Client, alice: User, bob: User) -> None:
    game: Game = current_game(start_table(alice, bob, first=0))
    moves = ("rummikub_moves_total", (("by", "user"),))
    pushes = ("rummikub_pushes_total", (("type", "test.metrics"),))
    chain = (
        "rummikub_task_seconds_count",
        (("queue", ""), ("state", "SUCCESS"), ("task", "moderation.tasks.check_log_chain")),
    )
    before = scrape(client)

    with TestCase.captureOnCommitCallbacks(execute=True):
        services.draw(game.pk, user_at(game, 0), game.version)
    async_to_sync(get_channel_layer().group_send)("metrics-test", {"type": "test.metrics"})
    check_log_chain.delay()
    after = scrape(client)

    assert after[moves] == before.get(moves, 0) + 1
    assert after[pushes] == before.get(pushes, 0) + 1
    assert after[chain] == before.get(chain, 0) + 1


@pytest.mark.usefixtures("scraping")
def test_queue_lengths_and_heartbeats_are_read_from_the_broker(client: Client) -> None:
    prefix = new_prefix()
    waiting, idle = f"{prefix}main", f"{prefix}bots"
    server = redis.Redis.from_url(settings.REDIS_URL)
    server.lpush(waiting, "a", "b", "c")
    heartbeat.beat([waiting], "main@node-a")
    try:
        with override_settings(CELERY_TASK_QUEUES=[Queue(waiting), Queue(idle)]):
            found = scrape(client)
    finally:
        server.delete(waiting, heartbeat.KEY.format(queue=waiting))
        server.close()

    assert found[("rummikub_queue_length", (("queue", waiting),))] == 3
    assert found[("rummikub_queue_length", (("queue", idle),))] == 0
    assert found[("rummikub_worker_heartbeat_age_seconds", (("queue", waiting),))] < 5
    # No worker: no age at all, which an alert on absence catches.
    assert ("rummikub_worker_heartbeat_age_seconds", (("queue", idle),)) not in found


REQUEST = """
import django; django.setup()
from django.test import Client
print(Client().get({path!r}, **{headers!r}).content.decode())
"""


def in_a_process(directory: Path, path: str, **headers: str) -> str:
    """GET ``path`` in a fresh interpreter of the node (its own process id)."""
    done = run_python(
        REQUEST.format(path=path, headers=headers),
        PROMETHEUS_MULTIPROC_DIR=str(directory),
        METRICS_TOKEN=TOKEN,
        # Static files as they are, not collected (the tests never collect them).
        DEBUG="true",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_one_scrape_adds_up_the_requests_of_every_process_of_the_node(tmp_path: Path) -> None:
    for _ in range(2):
        in_a_process(tmp_path, "/offline/", HTTP_HOST="127.0.0.1")

    text = in_a_process(
        tmp_path, "/metrics/", HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Bearer {TOKEN}"
    )
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }

    assert len(list(tmp_path.glob("*.db"))) >= 2
    # Two pages, and the scrape itself: django-prometheus counts a request as it comes in.
    assert samples[("django_http_requests_total_by_method_total", (("method", "GET"),))] == 3


def test_make_run_counts_into_a_folder_emptied_at_its_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.runstack import use_metrics_dir

    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.delenv("METRICS_TOKEN", raising=False)
    assert use_metrics_dir(tmp_path) is None

    monkeypatch.setenv("METRICS_TOKEN", TOKEN)
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "counter_4242.db").write_bytes(b"an earlier run's")
    folder = use_metrics_dir(tmp_path)

    assert folder == str(tmp_path / "metrics") == os.environ["PROMETHEUS_MULTIPROC_DIR"]
    assert list((tmp_path / "metrics").iterdir()) == []
