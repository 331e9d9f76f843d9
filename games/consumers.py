"""The live game: one websocket per watcher, one Channels group per game.

Group messages say only that something changed (:mod:`games.live`). Each connection
then renders what its own user may see, with the page's own partials
(:mod:`games.rendering`), and sends the HTML for htmx's websocket extension to swap in.
Moves do not come through the socket: they are HTTP requests to the views.

Whoever may see a game's table (:mod:`games.selectors.sight`) may watch it (a spectator sees no
rack); visitors, and outsiders of a private club's table, are refused.
What a spectator sees does not depend on who watches, only on the zone its times are
written in, so after a move the spectators of a game connected to one process share one
render per zone (:class:`SpectatorRenders`). Every push, the chat's too, is written in
its reader's zone, as their page is (:func:`common.sockets.reader_zone`).
While the socket is open the member counts as looking at the game (:mod:`games.presence`,
refreshed by a heartbeat), so no email about it is sent to them.

A page says what it shows when its socket connects (``?v=&l=&c=&page=``, from
``static/js/game.js``: :class:`PageShows`): it is sent the game's fragments only if the
game moved or changed since, the chat only if the chat did, and nothing when it is
current. A page that says nothing (an old page) is sent both, as it always was. A move's
push is not sent to the page the move was made from (its ``page`` id): the move's answer
brought it; the mover's other tabs get it.

The table's chat travels on the game's socket too (its group ``table-chat-<id>``): on
"chat changed" each connection renders the chat its own user may read. The table page,
which has no game socket, opens ``ws/tables/<id>/chat/`` (:class:`TableChatConsumer`).

A member's header has a socket of its own: ``ws/notifications/``
(:class:`notifications.consumers.NotificationConsumer`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.models import User
from common.sockets import UTC, SlotConsumer, reader_zone
from games import page_connections, presence
from games.conf import presence_seconds
from games.live import chat_group, game_group, page_id
from games.models import Game, Seat
from games.rendering import (
    reader_of,
    render_building_notice,
    render_chat_lines,
    render_fragments,
)
from games.selectors.live import kept, live_game, snapshot
from games.selectors.sight import visible_game, visible_table

Rendered = tuple[int, str]
"""A game's version and its live fragments as rendered for someone."""

Watched = tuple[int, str]
"""A game and the name of a time zone its spectators read it in."""


class SpectatorRenders:
    """The fragments spectators of a game see, rendered once per move and time zone for
    all of them.

    A consumer's database work runs on one thread, one call after another: with a render
    per connection, the last of twenty watchers would wait for nineteen renders. Nothing
    in a spectator's fragments depends on who watches (no seat: no rack, no draft) but
    the zone its times are written in, so the consumers of a game's spectators in this
    process that read the same zone await one render instead.
    """

    def __init__(self) -> None:
        self._watchers: Counter[Watched] = Counter()
        self._renders: dict[Watched, tuple[int, asyncio.Future[Rendered | None]]] = {}

    def join(self, game_id: int, zone: ZoneInfo) -> None:
        self._watchers[(game_id, zone.key)] += 1

    def leave(self, game_id: int, zone: ZoneInfo) -> None:
        watched = (game_id, zone.key)
        self._watchers[watched] -= 1
        if self._watchers[watched] <= 0:
            del self._watchers[watched]
            self._renders.pop(watched, None)

    async def render(self, game_id: int, zone: ZoneInfo, version: int) -> Rendered | None:
        """The spectators' fragments of ``version`` or newer, with times in ``zone``.

        A render is shared by every event up to the version whose announcement started
        it: it reads the game after that version committed, so it shows it (or newer).
        """
        watched = (game_id, zone.key)
        started = self._renders.get(watched)
        loop = asyncio.get_running_loop()
        if started is None or started[0] < version or started[1].get_loop() is not loop:
            render = database_sync_to_async(_render_game)(game_id, None, version, zone)
            started = self._renders[watched] = (version, asyncio.ensure_future(render))
        # Shielded: a watcher who leaves meanwhile must not cancel the others' render.
        return await asyncio.shield(started[1])


spectator_renders = SpectatorRenders()


class GameConsumer(SlotConsumer):
    """``ws/games/<game_id>/``: pushes the game's live partials to one user."""

    game_id: int
    group: str | None = None
    table_id: int
    # The table's chat group: the chat is on the game page too, pushed through this socket.
    chat: str | None = None
    # A member without a seat at the table; seats do not change once the round started.
    spectating = False
    # A spectator: their sight is asked again before each push, since they may leave the
    # club (or the case that let them in may go), or a public club turn private, while the
    # page is open.
    on_sufferance = False
    # The newest version this connection has rendered: older or repeated news is skipped.
    rendered_version = -1
    # A player's connection in the history moderators read (games.page_connections).
    connection_id: int | None = None
    # The zone this reader's times are written in (common.sockets.reader_zone).
    zone: ZoneInfo = UTC
    # The id the page gave itself (games.live.page_id); empty for an old page.
    page_id = ""

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        seated = None
        if user is not None and user.is_authenticated:
            seated = await database_sync_to_async(_is_seated)(self.game_id, user)
        if seated is None:
            # Closing before accepting refuses the handshake (HTTP 403).
            await self.close()
            return
        # Before the slot: its heartbeat marks this user present.
        self.user: User = user
        if not await self.take_slot(user):
            await self.close()
            return
        self.table_id, plays = seated
        if not plays:
            self._spectate()
        self.group = game_group(self.game_id)
        self.chat = chat_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.chat, self.channel_name)
        await self.accept()
        await self._mark_present()
        if plays:
            self.connection_id = await database_sync_to_async(page_connections.opened)(
                self.game_id, user.pk
            )
        # After joining the groups: a change committed from now on is pushed, one
        # committed before is in what is read next.
        shows = PageShows.said(self.scope.get("query_string", b""))
        self.page_id = shows.page
        await self._catch_up(shows)

    async def _catch_up(self, shows: PageShows) -> None:
        """Send what the connecting page lacks, in one message: the game's fragments if it
        moved or changed since the page's, the chat if it changed since the page's.

        A reconnecting browser may have missed pushes; a page that just loaded has
        missed nothing, and is sent nothing. A page that says nothing is sent both."""
        game_behind = chat_behind = True
        if shows.version is not None:
            self.rendered_version = shows.version
            now = await database_sync_to_async(_counts_now)(self.game_id)
            if now is not None:
                game_behind, chat_behind = shows.behind(*now)
        rendered = None
        if game_behind:
            rendered = await database_sync_to_async(_render_game)(self.game_id, self.user)
        chat = ""
        if chat_behind:
            chat = await database_sync_to_async(render_chat_lines)(self.table_id, self.user)
        if rendered is not None:
            await self._send((rendered[0], rendered[1] + chat))
        elif chat:
            await self.send(text_data=chat)

    async def disconnect(self, code: int) -> None:
        was_present = self.slot is not None
        await self.give_slot_back()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.chat is not None:
            await self.channel_layer.group_discard(self.chat, self.channel_name)
        if self.spectating:
            self.spectating = False
            spectator_renders.leave(self.game_id, self.zone)
        if was_present:
            await sync_to_async(presence.mark_absent)(self.game_id, self.user.pk, self.channel_name)
        if self.connection_id is not None:
            await database_sync_to_async(page_connections.closed)(self.connection_id)
            self.connection_id = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves go by HTTP; anything the browser sends here is ignored."""

    async def game_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version", 0)
        if version <= self.rendered_version:
            return
        if self._made_here(event):
            # The move's answer brought this page the move: nothing to render.
            self.rendered_version = version
            return
        if self.spectating:
            # Rendered first (once for the zone): the snapshot it reads says whether the
            # table is private, and so whether their sight must be asked again.
            rendered = await spectator_renders.render(self.game_id, self.zone, version)
            if await self._still_sees(version):
                await self._send(rendered)
        elif await self._still_sees(version):
            await self._send_game(version)

    def _made_here(self, event: dict[str, Any]) -> bool:
        """Whether the move (or the draft's edit) was sent from this very page (its
        ``page`` id)."""
        return bool(self.page_id) and event.get("page") == self.page_id

    async def game_clock(self, event: dict[str, Any]) -> None:
        """The turn's deadline moved, or a seat changed hands, without a move."""
        if await self._still_sees():
            await self._send_game()

    def _spectate(self) -> None:
        """Watch without a seat: share the renders of the spectators in the same zone."""
        self.spectating = True
        self.on_sufferance = True
        self.zone = reader_zone(self.scope)
        spectator_renders.join(self.game_id, self.zone)

    async def _still_sees(self, version: int | None = None) -> bool:
        """Whether this connection's user may still see the table; a spectator of a
        private table who no longer may is disconnected, and told nothing more. A table
        public at ``version`` (its snapshot, read after that version committed, says so)
        is seen by every member: nothing to ask."""
        if not self.on_sufferance:
            return True
        live = None if version is None else kept.get(self.game_id, version)
        if live is not None and not live.private:
            return True
        if await database_sync_to_async(visible_table)(self.user, self.table_id) is not None:
            return True
        await self.close()
        return False

    async def chat_changed(self, event: dict[str, Any]) -> None:
        """The table's chat changed: this user's reading of it."""
        html: str = await database_sync_to_async(render_chat_lines)(self.table_id, self.user)
        if html:
            await self.send(text_data=html)

    async def _mark_present(self) -> None:
        await sync_to_async(presence.mark_present)(self.game_id, self.user.pk, self.channel_name)

    def heartbeat_seconds(self) -> float:
        # The presence is refreshed well within its lifetime too; a page whose server
        # died stops being refreshed and lapses by itself.
        return min(super().heartbeat_seconds(), presence_seconds() / 3)

    async def beat(self) -> None:
        await super().beat()
        await self._mark_present()
        if self.connection_id is not None:
            await database_sync_to_async(page_connections.seen)(self.connection_id)

    async def game_building(self, event: dict[str, Any]) -> None:
        if self._made_here(event):
            return  # the edit's answer showed this page its draft
        seat = event.get("seat")
        html: str = await database_sync_to_async(_render_building)(self.game_id, self.user, seat)
        if html:
            await self.send(text_data=html)

    async def _send_game(self, version: int | None = None) -> None:
        """Send the game as it is now, or (after news of ``version``) as it is at that
        version or newer."""
        rendered = await database_sync_to_async(_render_game)(self.game_id, self.user, version)
        await self._send(rendered)

    async def _send(self, rendered: Rendered | None) -> None:
        if rendered is None:
            return
        version, html = rendered
        self.rendered_version = max(self.rendered_version, version)
        await self.send(text_data=html)


@dataclass(frozen=True)
class PageShows:
    """What a game page says it shows when its socket connects: the game's ``version``
    and ``live_version`` and the chat's ``chat_version`` (``#game-status``'s data-version
    and data-live, ``#table-chat-lines``' data-chat), and its ``page`` id. ``version``
    ``None``: the page said nothing (an old page, a test)."""

    version: int | None
    live: int | None
    chat: int | None
    page: str

    @classmethod
    def said(cls, query_string: bytes) -> PageShows:
        """From the socket's query string; what is not a count counts as unsaid.

        >>> PageShows.said(b"v=7&l=1&c=3&page=3f2a9c0d41b7e655")
        PageShows(version=7, live=1, chat=3, page='3f2a9c0d41b7e655')
        >>> PageShows.said(b"")
        PageShows(version=None, live=None, chat=None, page='')
        """
        said = parse_qs(query_string.decode("latin-1"))

        def count(name: str) -> int | None:
            value = said.get(name, [""])[0]
            return int(value) if value.isdigit() and len(value) < 10 else None

        return cls(count("v"), count("l"), count("c"), page_id(said.get("page", [""])[0]))

    def behind(self, version: int, live: int, chat: int) -> tuple[bool, bool]:
        """Whether the page's game and its chat differ from the counts now.

        >>> PageShows(7, 1, 3, "").behind(7, 1, 3), PageShows(6, 1, 3, "").behind(7, 1, 4)
        ((False, False), (True, True))
        """
        return (self.version, self.live) != (version, live), self.chat != chat


def _counts_now(game_id: int) -> tuple[int, int, int] | None:
    """The game's ``version`` and ``live_version`` and its table's ``chat_version``, in
    one query; ``None`` if the game is gone."""
    found = Game.objects.filter(pk=game_id).values_list(
        "version", "live_version", "table__chat_version"
    )
    return found.first()


def _is_seated(game_id: int, user: User) -> tuple[int, bool] | None:
    """The game's table and whether ``user`` plays in the game; ``None`` if there is no
    such game or ``user`` may not see its table (:mod:`games.selectors.sight`)."""
    game = visible_game(user, game_id)
    if game is None:
        return None
    table_id = game.table_id
    plays = Seat.objects.filter(table_id=table_id, user=user, kind=Seat.Kind.PLAYER).exists()
    return table_id, plays


def _render_game(
    game_id: int, user: User | None, version: int | None = None, zone: ZoneInfo | None = None
) -> Rendered | None:
    """The live fragments for ``user`` (``None``: any spectator): of ``version`` or
    newer, or of the game as it is now (``version=None``); times in ``zone``, by default
    the user's, as their page has them. The game comes from its snapshot
    (:func:`games.selectors.live.live_game`): a move's renders read it once per process,
    or not at all where the move was made."""
    live = live_game(game_id, version)
    if live is None:
        return None
    # The turn that this version's move began has nothing built in it yet.
    fresh_turn = version == live.version and live.turn_began
    reader = reader_of(live, user, fresh_turn=fresh_turn)
    with timezone.override(zone or (user.zone if user is not None else UTC)):
        return live.version, render_fragments(live, reader)


def _render_building(game_id: int, user: User, seat: object) -> str:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or not isinstance(seat, int) or game.current_seat != seat:
        return ""
    if game.table.seats.filter(number=seat, user=user, kind="player").exists():
        # The builder's own other tabs: show them the draft itself, not a notice, with
        # times in their zone (a push has no request to take it from).
        live = kept.get(game.pk, game.version) or snapshot(game)
        with timezone.override(user.zone):
            return render_fragments(live, reader_of(live, user, table=game.table))
    return render_building_notice(game, seat)


class TableChatConsumer(SlotConsumer):
    """``ws/tables/<table_id>/chat/``: the table page's chat, for a page with no game
    socket (the table waits for players, or the reader only watches). The group message
    carries nothing; each connection renders the chat its own user may read."""

    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated:
            await self.close()
            return
        # A missing table and one the member may not see are refused alike.
        found = await database_sync_to_async(visible_table)(user, self.table_id)
        if found is None or not await self.take_slot(user):
            await self.close()
            return
        self.user: User = user
        self.group = chat_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.chat_changed({})

    async def disconnect(self, code: int) -> None:
        await self.give_slot_back()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Messages are said by HTTP; nothing is read from the browser."""

    async def chat_changed(self, event: dict[str, Any]) -> None:
        html: str = await database_sync_to_async(render_chat_lines)(self.table_id, self.user)
        if html:
            await self.send(text_data=html)
