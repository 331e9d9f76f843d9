"""Faults the stack survives, each on one game: a worker killed outright while it holds a
turn's deadline, Redis restarted empty, the database dropping the web process's
connections. (``make bench-faults`` does the same to 50 games at once, several times.)

The real stack on the test database: daphne, Celery workers and beat as processes, a
redis-server of the test's own (restarting the shared one would hurt everyone else's
tests), and clients that speak HTTP and websockets as the game page does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

import pytest
import redis
from django.conf import settings
from django.db import connection, connections

from accounts.models import User
from benchmarks.stack import RedisServer, site_env, start_daphne
from benchmarks.web_clients import Browser
from games import services
from games.models import Game, Move
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.browser.conftest import database_url, static_root
from tests.conftest import client_as
from tests.games.conftest import current_game
from tests.games.test_worker import running
from tests.games.workers import Beat, Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.serial]

__all__ = ["static_root"]  # the fixture, shared with the browser tests

TURN_SECONDS = 10
T = TypeVar("T")


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def site(static_root: Path, redis_server: RedisServer, tmp_path: Path) -> Iterator[str]:
    """daphne on the test database and the test's Redis; its address."""
    env = site_env(database_url(connection.settings_dict), redis_server.url, static_root)
    log = tmp_path / "daphne.log"
    web = start_daphne("config.asgi:application", env, log)
    try:
        yield f"http://127.0.0.1:{env['PORT']}"
    finally:
        web.stop()
        for path in tmp_path.glob("daphne*.log"):
            print(path.read_text(errors="replace"))  # shown when the test fails


@pytest.fixture
def main_worker(redis_server: RedisServer, tmp_path: Path) -> Iterator[Worker]:
    log = tmp_path / "main-worker.log"
    with running(Worker("", "main", log, redis_url=redis_server.url)) as worker:
        yield worker


@pytest.fixture
def beat(redis_server: RedisServer, tmp_path: Path) -> Iterator[Beat]:
    with running(Beat("", tmp_path / "beat.log", redis_url=redis_server.url)) as process:
        yield process


def session_of(user: User) -> str:
    client = client_as(user)
    return client.cookies["sessionid"].value


def live_game(alice: User, bob: User) -> Game:
    table = services.create_table(
        alice,
        TableSettings(turn_seconds=TURN_SECONDS),
        [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)],
    )
    return current_game(table)


async def in_thread(read: Callable[[], T]) -> T:
    """Database reads from the clients' event loop (Django refuses them in it)."""

    def once() -> T:
        try:
            return read()
        finally:
            connections.close_all()

    return await asyncio.to_thread(once)


async def draw_as_mover(site: str, game: Game, keys: dict[int, str]) -> tuple[int, int]:
    """The player whose turn it is draws, over HTTP; returns the status and version."""
    mover = Browser(site, keys[game.current_seat or 0])
    try:
        version, mine = await mover.open_game(game.pk)
        assert mine
        move = await mover.move(game.pk, "draw", version)
        return move.status, version
    finally:
        await mover.close()


def timeout_of(game: Game, turn: int) -> list[Move]:
    return list(Move.objects.filter(game=game, turn_number=turn, by=Move.By.TIMEOUT))


def test_a_deadline_is_kept_when_the_worker_holding_it_is_killed(
    alice: User, bob: User, site: str, main_worker: Worker, beat: Beat, redis_server: RedisServer
) -> None:
    game = live_game(alice, bob)
    keys = {0: session_of(alice), 1: session_of(bob)}
    status, _ = asyncio.run(draw_as_mover(site, game, keys))
    assert status == 200
    game.refresh_from_db()
    deadline = game.turn_deadline
    assert game.turn_number == 2 and deadline is not None
    # The worker has taken the turn's timeout task, to run at the deadline...
    broker = redis.Redis.from_url(redis_server.url)
    wait_for(lambda: broker.hlen("unacked") >= 1, seconds=10)

    # ...and dies with it, before the deadline, and comes back.
    main_worker.kill()
    main_worker.start()

    wait_for(lambda: timeout_of(game, 2), seconds=TURN_SECONDS + 30)
    late = timeout_of(game, 2)[0].created_at - deadline
    assert timedelta(0) <= late < timedelta(seconds=settings.GAMES_SWEEP_SECONDS + 5)
    game.refresh_from_db()
    assert game.turn_number == 3
    assert len(timeout_of(game, 2)) == 1
    assert game.replay_state() == game.engine_state()


def test_pushes_and_tasks_resume_after_redis_restarts_empty(
    alice: User, bob: User, site: str, main_worker: Worker, beat: Beat, redis_server: RedisServer
) -> None:
    game = live_game(alice, bob)
    keys = {0: session_of(alice), 1: session_of(bob)}
    watcher_seat = 1 - (game.current_seat or 0)

    async def scenario() -> tuple[int, float, float]:
        before = Browser(site, keys[watcher_seat])
        await before.open_game(game.pk)
        await before.connect(game.pk)
        redis_server.restart(down_seconds=1)
        # The page's socket dies with its Channels group; the page opens it again, as
        # htmx's websocket extension does, and is told of every change from then on.
        await before.close()
        watcher = Browser(site, keys[watcher_seat])
        try:
            await watcher.open_game(game.pk)
            await watcher.connect(game.pk)
            # A move after the restart: answered, and pushed to the open page.
            status, version = await draw_as_mover(site, game, keys)
            await asyncio.wait_for(watcher.game.arrival_of(version + 1), timeout=15)
            # Its turn's timeout task, queued by beat's sweep as the deadline came near,
            # went through the new Redis to the worker, which ends the turn at its
            # deadline, and its push from the worker reaches the page too.
            moved = await in_thread(lambda: Game.objects.get(pk=game.pk))
            assert moved.turn_deadline is not None
            pushed = await asyncio.wait_for(
                watcher.game.arrival_of(version + 2), timeout=TURN_SECONDS + 15
            )
            return status, moved.turn_deadline.timestamp(), pushed
        finally:
            await watcher.close()

    status, deadline, pushed = asyncio.run(scenario())
    assert status == 200
    [timeout] = timeout_of(game, 2)
    assert 0 <= timeout.created_at.timestamp() - deadline < 3
    assert pushed >= timeout.created_at.timestamp()


def test_a_move_made_while_redis_is_down_stands_and_its_turn_still_runs_out(
    alice: User, bob: User, site: str, main_worker: Worker, beat: Beat, redis_server: RedisServer
) -> None:
    game = live_game(alice, bob)
    keys = {0: session_of(alice), 1: session_of(bob)}
    redis_server.stop()
    # The next turn's timeout task cannot be queued: the move is answered all the same.
    status, _ = asyncio.run(draw_as_mover(site, game, keys))
    redis_server.start()
    assert status == 200
    game.refresh_from_db()
    deadline = game.turn_deadline
    assert game.turn_number == 2 and deadline is not None

    # The sweep ends the turn whose task was never queued.
    wait_for(lambda: timeout_of(game, 2), seconds=TURN_SECONDS + 30)
    late = timeout_of(game, 2)[0].created_at - deadline
    assert timedelta(0) <= late < timedelta(seconds=settings.GAMES_SWEEP_SECONDS + 5)


def test_a_request_after_the_database_dropped_the_sites_connections_succeeds(
    alice: User, bob: User, site: str
) -> None:
    game = live_game(alice, bob)
    keys = {0: session_of(alice), 1: session_of(bob)}

    async def load_page() -> int:
        page = Browser(site, keys[0])
        try:
            version, _ = await page.open_game(game.pk)
            return version
        finally:
            await page.close()

    asyncio.run(load_page())
    with connection.cursor() as cursor:
        # The app's connections (the owner's, with two roles, are the test run's).
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND usename = current_user"
        )
        (dropped,) = cursor.fetchone()
    assert dropped >= 1  # the site's pool

    assert asyncio.run(load_page()) == game.version
    status, _ = asyncio.run(draw_as_mover(site, game, keys))
    assert status == 200
    assert Game.objects.get(pk=game.pk).version == game.version + 1
