"""Websocket slots outlive no web process: a member whose sockets were held by a daphne
that stopped (SIGTERM: daphne drops its sockets without running the consumers'
``disconnect``; SIGKILL: it runs nothing) opens as many on another daphne within a slot's
lifetime, while retrying all along as htmx's websocket extension does.

Real daphne processes on the test database and the test's Redis, one member's browser
speaking websockets as the page does; a short slot lifetime (the heartbeat beats every
third of it).
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
import redis
from django.conf import settings
from django.db import connection
from yarl import URL

from accounts.models import User
from benchmarks.stack import Web, site_env, start_daphne
from common.sockets import SocketSlots
from tests.browser.conftest import database_url, static_root
from tests.games.test_faults import session_of
from tests.games.workers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.serial]

__all__ = ["static_root"]  # the fixture, shared with the browser tests

SLOT_SECONDS = 2.0
LIMIT = 4
# Starting a handshake and the retries' pace, on a busy machine.
SLACK_SECONDS = 1.5


class Daphnes:
    """daphne processes on the test database and Redis, counting slots under this test's
    keys; stopped at the end."""

    def __init__(self, static_root: Path, logs: Path) -> None:
        self.static_root, self.logs = static_root, logs
        self.started: list[Web] = []

    def start(self) -> str:
        env = site_env(
            database_url(connection.settings_dict),
            settings.REDIS_URL,
            self.static_root,
            WEBSOCKET_SLOT_SECONDS=str(SLOT_SECONDS),
            WEBSOCKETS_PER_MEMBER=str(LIMIT),
            CACHE_KEY_PREFIX=settings.CACHES["default"]["KEY_PREFIX"],
        )
        log = self.logs / f"daphne{len(self.started)}.log"
        self.started.append(start_daphne("tests.asgi:application", env, log))
        return f"http://127.0.0.1:{env['PORT']}"

    def stop_all(self) -> None:
        for web in self.started:
            web.stop()


@pytest.fixture
def daphnes(static_root: Path, tmp_path: Path) -> Iterator[Daphnes]:
    started = Daphnes(static_root, tmp_path)
    try:
        yield started
    finally:
        started.stop_all()
        for path in tmp_path.glob("daphne*.log"):
            print(path.read_text(errors="replace"))  # shown when the test fails


def redis_clients() -> int:
    """Connections to the test's Redis database (the daphnes' and this process's)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        database = client.connection_pool.connection_kwargs.get("db", 0)
        return sum(1 for entry in client.client_list() if int(entry["db"]) == int(database))
    finally:
        client.close()


class Member:
    """One member's browser: the sockets of their open pages."""

    def __init__(self, session_key: str) -> None:
        self.session_key = session_key
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.http: aiohttp.ClientSession | None = None

    async def open(self, site: str) -> bool:
        """Open the header's socket on ``site``; whether it was accepted."""
        if self.http is None:
            jar = aiohttp.CookieJar(unsafe=True)  # unsafe: it keeps cookies of an IP address
            self.http = aiohttp.ClientSession(cookie_jar=jar)
        self.http.cookie_jar.update_cookies({"sessionid": self.session_key}, URL(site))
        try:
            socket = await self.http.ws_connect(f"{site}/ws/notifications/", origin=site)
        except aiohttp.WSServerHandshakeError:
            return False
        self.sockets.append(socket)
        return True

    async def open_until(self, site: str, count: int, seconds: float) -> float:
        """Keep opening sockets on ``site`` (a refused one is tried again at once, as the
        page's websocket extension does) until ``count`` are open; how long that took."""
        started = time.monotonic()
        opened = 0
        while opened < count and time.monotonic() - started < seconds:
            if await self.open(site):
                opened += 1
            else:
                await asyncio.sleep(0.05)
        assert opened == count, f"{opened} of {count} sockets opened in {seconds} s"
        return time.monotonic() - started

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()
        self.sockets = []
        if self.http is not None:
            await self.http.close()
            self.http = None


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_stopped_processs_slots_lapse_within_a_heartbeat_period(
    stop: signal.Signals, alice: User, daphnes: Daphnes
) -> None:
    first, second = daphnes.start(), daphnes.start()
    member = Member(session_of(alice))

    async def scenario() -> float:
        try:
            assert await member.open(first)
            connected = redis_clients()
            for _ in range(LIMIT - 1):
                assert await member.open(first)
            # The sockets share their process's Redis client: no connection each.
            assert redis_clients() <= connected + 1
            # The count is shared: the other process refuses one more.
            assert not await member.open(second)
            # Held past several heartbeats: the open sockets' slots do not lapse.
            await asyncio.sleep(SLOT_SECONDS * 1.5)
            assert not await member.open(second)

            process = daphnes.started[0].children[0].process
            process.send_signal(stop)
            await asyncio.to_thread(process.wait, 10)
            stopped = time.monotonic()
            await member.close()  # the browser notices its sockets dropped

            # Refused attempts all along extend nothing.
            await member.open_until(second, LIMIT, SLOT_SECONDS + SLACK_SECONDS)
            waited = time.monotonic() - stopped
            assert not await member.open(second)
            return waited
        finally:
            await member.close()

    waited = asyncio.run(scenario())

    assert waited <= SLOT_SECONDS + SLACK_SECONDS
    # Sockets that close as they should give their slots back at once.
    wait_for(lambda: SocketSlots.held(alice.pk, "127.0.0.1") == (0, 0), seconds=SLOT_SECONDS / 2)
