"""Browsers for the benchmark: what a member's game page does, over HTTP and websockets.

A :class:`Browser` holds a member's session cookie. It loads the game page (which sets the
CSRF cookie and gives the token htmx sends), opens the page's two sockets
(``ws/games/<id>/`` and ``ws/notifications/``) with the Origin header a browser sends,
and posts moves as htmx does. Every live fragment of the game carries its version
(``data-version`` of ``#game-status``); each socket notes when each version first
arrived, so a push can be timed from the move's commit.

A page connects its game socket as ``static/js/game.js`` does: saying what it shows
(``?page=&v=&l=&c=``), so that a page that is current is sent nothing, and sending its
page id with its moves (``X-Game-Page``), so that its own move's push is not sent back
to it (the answer showed the move: it counts as the version's arrival there). An *old*
page (``old=True``) says nothing, as pages did before: it is sent the game and the chat
on connect and every push. Each page counts the bytes it receives: answers, and
messages on its two sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from dataclasses import dataclass, field

import aiohttp
from yarl import URL

CSRF_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
VERSION = re.compile(r'id="game-status"[^>]*\bdata-version="(\d+)"')
FLOOR_COUNT = re.compile(r'id="floor" data-count="(\d+)"')
IS_MINE = re.compile(r'id="game-status"[^>]*class="status is-mine"')
LIVE = re.compile(r'id="game-status"[^>]*\bdata-live="(\d+)"')
CHAT = re.compile(r'id="table-chat-lines"[^>]*\bdata-chat="(\d+)"')


class BenchError(Exception):
    """The site did not answer as a browser expects."""


def version_in(html: str) -> int | None:
    """The game version of a page or of pushed fragments, if they show the status.

    >>> version_in('<section id="game-status" class="status" data-version="7" data-turn="4">')
    7
    >>> version_in('<span id="header-counts">2</span>') is None
    True
    """
    found = VERSION.search(html)
    return None if found is None else int(found[1])


@dataclass
class MoveTiming:
    """One move posted: when it was sent and answered (seconds, a monotonic clock), when
    it was sent by the machine's clock (``sent_at``, to compare with the server's note of
    the commit), and its answer."""

    game_id: int
    version: int
    sent: float
    answered: float
    status: int
    committed: bool
    sent_at: float
    sent_by: str = ""
    """The id of the page that sent it (empty: an old page, which says none)."""

    @property
    def milliseconds(self) -> float:
        return (self.answered - self.sent) * 1000


@dataclass
class GameSocket:
    """``ws/games/<id>/`` of one page: the first arrival of each version pushed."""

    arrivals: dict[int, float] = field(default_factory=dict)
    messages: int = 0
    _waiting: dict[int, asyncio.Future[float]] = field(default_factory=dict)

    def received(self, at: float, text: str) -> None:
        self.messages += 1
        version = version_in(text)
        if version is not None:
            self.shown(at, version)

    def shown(self, at: float, version: int) -> None:
        """The page shows ``version`` from ``at`` on (a push, or its own move's answer)."""
        self.arrivals.setdefault(version, at)
        for wanted, future in list(self._waiting.items()):
            if wanted <= version:
                del self._waiting[wanted]
                if not future.done():
                    future.set_result(at)

    def first_showing(self, version: int) -> float | None:
        """When fragments of ``version`` or newer first arrived: a page that is still
        rendering when two moves come skips to the newest, which shows both."""
        return min((at for shown, at in self.arrivals.items() if shown >= version), default=None)

    def arrival_of(self, version: int) -> asyncio.Future[float]:
        """Resolves when fragments of ``version`` (or newer) have arrived."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        newest = max(self.arrivals, default=-1)
        if newest >= version:
            future.set_result(self.arrivals[newest])
        else:
            self._waiting[version] = future
        return future


class Browser:
    """One member's browser, signed in with a session cookie, on one game page."""

    def __init__(self, site: str, session_key: str, old: bool = False) -> None:
        self.site = site
        self.old = old
        self.page_id = "" if old else secrets.token_hex(10)
        self.shows = ""
        """The query string the game socket connects with: what the page shows."""
        self.answer_bytes = 0
        self.socket_bytes = 0
        jar = aiohttp.CookieJar(unsafe=True)  # unsafe: it keeps cookies of an IP address
        jar.update_cookies({"sessionid": session_key}, URL(site))
        # No pool limit: a page's requests and its two sockets each have a connection.
        self.http = aiohttp.ClientSession(cookie_jar=jar, connector=aiohttp.TCPConnector(limit=0))
        self.csrf_token = ""
        self.game = GameSocket()
        self._sockets: list[aiohttp.ClientWebSocketResponse] = []
        self._readers: list[asyncio.Task[None]] = []

    async def open_game(self, game_id: int) -> tuple[int, bool]:
        """Load the game page; returns the version it shows and whether it is our turn."""
        async with self.http.get(f"{self.site}/games/{game_id}/") as response:
            html = await response.text()
            if response.status != 200:
                raise BenchError(f"game page {game_id}: HTTP {response.status}")
        token, version = CSRF_TOKEN.search(html), version_in(html)
        if token is None or version is None:
            raise BenchError(f"game page {game_id}: no CSRF token or version in the page")
        self.csrf_token = token[1]
        live, chat = LIVE.search(html), CHAT.search(html)
        if not self.old and live is not None and chat is not None:
            self.shows = f"?page={self.page_id}&v={version}&l={live[1]}&c={chat[1]}"
        return version, IS_MINE.search(html) is not None

    async def connect(self, game_id: int) -> None:
        """Open the page's sockets; returns once they are open and (an old page, or one
        that says nothing) the game socket has sent the game."""
        await self._open(f"/ws/games/{game_id}/{self.shows}", self.game.received)
        await self._open("/ws/notifications/", None)
        if not self.shows:
            await asyncio.wait_for(self.game.arrival_of(0), timeout=60)

    async def _open(self, path: str, on_text: object) -> None:
        socket = await self.http.ws_connect(f"{self.site}{path}", origin=self.site)
        self._sockets.append(socket)
        self._readers.append(asyncio.create_task(self._read(socket, on_text)))

    async def _read(self, socket: aiohttp.ClientWebSocketResponse, on_text: object) -> None:
        async for message in socket:
            at = time.time()
            if message.type == aiohttp.WSMsgType.TEXT:
                self.socket_bytes += len(message.data.encode())
                if callable(on_text):
                    on_text(at, message.data)

    async def move(self, game_id: int, action: str, version: int) -> MoveTiming:
        """Post a move as htmx does; committed if the answer shows the next version."""
        url = f"{self.site}/games/{game_id}/{action}/"
        timing, html = await self._post(url, game_id, game_id, version)
        timing.committed = timing.status == 200 and version_in(html) == version + 1
        self.answer_bytes += len(html.encode())
        if timing.committed and self.page_id:
            # Not pushed to this page: its answer shows the move.
            timing.sent_by = self.page_id
            self.game.shown(time.time(), version + 1)
        return timing

    async def floor(self, game_id: int, count: int) -> MoveTiming:
        """Post to the floor's counter of ``game_id`` (see :mod:`benchmarks.floor`), from
        that game's page, as a move is posted; committed if it answers ``count + 1``.
        The timing's game is ``-game_id``: the probe notes the floor's commits so."""
        url = f"{self.site}/bench/floor/{game_id}/"
        timing, html = await self._post(url, game_id, -game_id, count)
        found = FLOOR_COUNT.search(html)
        timing.committed = timing.status == 200 and found is not None and int(found[1]) == count + 1
        return timing

    async def _post(
        self, url: str, page_game: int, game_id: int, version: int
    ) -> tuple[MoveTiming, str]:
        headers = {
            "HX-Request": "true",
            "X-CSRFToken": self.csrf_token,
            "Origin": self.site,
            "Referer": f"{self.site}/games/{page_game}/",
        }
        if self.page_id:
            headers["X-Game-Page"] = self.page_id
        sent_at, sent = time.time(), time.perf_counter()
        async with self.http.post(url, data={"version": str(version)}, headers=headers) as answer:
            html = await answer.text()
        answered = time.perf_counter()
        return MoveTiming(game_id, version, sent, answered, answer.status, False, sent_at), html

    async def close(self) -> None:
        for socket in self._sockets:
            await socket.close()
        for reader in self._readers:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        await self.http.close()
