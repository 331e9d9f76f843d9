"""Live in an open browser: the header's counts over ``ws/notifications/``, a game page's
presence, and the game page told when its clock moves without a move.

Real Redis channel layer, real database transactions (changes commit, then push).
"""

import asyncio
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db.backends.utils import CursorWrapper

from accounts.models import User
from common.publish import publish_user
from games import live, presence, services
from games.models import Game
from notifications.services import notices
from tests.conftest import communicator
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


async def connect(path: str, user: Any) -> tuple[bool, WebsocketCommunicator]:
    socket = communicator(path, user)
    connected, _ = await socket.connect()
    return connected, socket


def counts(html: str) -> dict[str, int]:
    """The header's counts in a push (a count pushed alone: only that one)."""
    found = re.findall(r'id="(your-move-count|notification-count)"[^>]*>(\d+)<', html)
    return {name: int(value) for name, value in found}


def shown(your_move: int, unread: int) -> dict[str, int]:
    return {"your-move-count": your_move, "notification-count": unread}


async def test_a_visitor_gets_no_notification_socket() -> None:
    connected, _ = await connect("/ws/notifications/", AnonymousUser())

    assert not connected


async def test_the_header_counts_arrive_at_once_and_follow_every_change(
    alice: User, bob: User
) -> None:
    game = await database_sync_to_async(
        lambda: current_game(start_table(alice, bob, clock="correspondence"))
    )()
    first = await database_sync_to_async(user_at)(game, game.current_seat or 0)
    other = bob if first == alice else alice
    connected, socket = await connect("/ws/notifications/", other)
    assert connected
    html = await socket.receive_from(timeout=5)
    assert 'hx-swap-oob="true"' in html
    header = counts(html)
    assert header == shown(0, 0)

    await database_sync_to_async(services.draw)(game.pk, first, 0)

    # The turn passed to them (their move count) and a notification came (unread).
    while header != shown(1, 1):
        header.update(counts(await socket.receive_from(timeout=5)))
    await database_sync_to_async(notices.mark_read)(other)
    header.update(counts(await socket.receive_from(timeout=5)))
    assert header == shown(1, 0)
    await socket.disconnect()


async def test_the_header_shows_a_pushed_count_without_a_query(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, socket = await connect("/ws/notifications/", alice)
    await socket.receive_from(timeout=5)
    queries: list[str] = []
    execute = CursorWrapper.execute

    def counted(cursor: CursorWrapper, sql: str, *args: Any, **kwargs: Any) -> Any:
        queries.append(sql)
        return execute(cursor, sql, *args, **kwargs)

    monkeypatch.setattr(CursorWrapper, "execute", counted)

    await database_sync_to_async(live.publish_counts)([alice.pk])  # one query, here
    assert len(queries) == 1
    html = await socket.receive_from(timeout=5)

    assert counts(html) == {"your-move-count": 0}
    assert 'data-next-your-move=""' in html
    await get_channel_layer().group_send(
        f"user-{alice.pk}", {"type": "your_move.changed", "count": 3, "next": 42}
    )
    html = await socket.receive_from(timeout=5)
    assert counts(html) == {"your-move-count": 3}
    assert 'data-next-your-move="42"' in html
    assert len(queries) == 1  # the socket rendered both from the message alone
    await socket.disconnect()


async def test_a_member_hears_only_their_own_changes(alice: User, bob: User) -> None:
    _, socket = await connect("/ws/notifications/", alice)
    await socket.receive_from(timeout=5)

    await database_sync_to_async(publish_user)(bob.pk)

    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_an_open_game_page_counts_as_looking_at_the_game(alice: User, bob: User) -> None:
    game = await database_sync_to_async(lambda: current_game(start_table(alice, bob)))()

    connected, socket = await connect(f"/ws/games/{game.pk}/", alice)
    assert connected
    await socket.receive_from(timeout=5)
    assert await sync_to_async(presence.is_watching)(game.pk, alice.pk)
    assert not await sync_to_async(presence.is_watching)(game.pk, bob.pk)

    await socket.disconnect()
    assert not await sync_to_async(presence.is_watching)(game.pk, alice.pk)


async def test_the_presence_is_refreshed_while_the_page_stays_open(
    alice: User, bob: User, settings: Any
) -> None:
    settings.GAMES_PRESENCE_SECONDS = 0.6
    game: Game = await database_sync_to_async(lambda: current_game(start_table(alice, bob)))()
    _, socket = await connect(f"/ws/games/{game.pk}/", alice)
    await socket.receive_from(timeout=5)

    await asyncio.sleep(1.5)  # longer than a presence lasts without its heartbeat

    assert await sync_to_async(presence.is_watching)(game.pk, alice.pk)
    await socket.disconnect()


async def test_a_game_page_is_rendered_again_when_its_clock_moves(alice: User, bob: User) -> None:
    game = await database_sync_to_async(lambda: current_game(start_table(alice, bob)))()
    _, socket = await connect(f"/ws/games/{game.pk}/", alice)
    await socket.receive_from(timeout=5)

    await database_sync_to_async(live.publish_clock)(game.pk)

    html = await socket.receive_from(timeout=5)
    assert 'id="game-status"' in html
    await socket.disconnect()
