"""The chat over websockets: the game's socket and the table page's chat socket.

Real Redis channel layer, real transactions: a message commits, then the table's chat
group hears "chat changed", and each connection renders what its own user may read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from common.moments import when_in
from games import services
from games.models import Game, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan, chat
from tests.conftest import communicator, db
from tests.games.views_support import hidden_from, tiles_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


async def open_socket(path: str, user: Any) -> WebsocketCommunicator:
    socket = communicator(path, user)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def game_socket(game: Game, user: User) -> WebsocketCommunicator:
    socket = await open_socket(f"/ws/games/{game.pk}/", user)
    await socket.receive_from()  # the game and the chat as they are
    return socket


async def test_the_game_socket_starts_with_the_chat_in_the_same_message(
    game: Game, alice: User
) -> None:
    await db(chat.say)(game.table_id, alice, "hello table")

    socket = await open_socket(f"/ws/games/{game.pk}/", alice)
    html = await socket.receive_from()
    await socket.disconnect()

    assert 'id="game-status" hx-swap-oob="true"' in html
    assert 'id="table-chat-lines" hx-swap-oob="true"' in html
    assert "hello table" in html


async def test_a_players_message_reaches_the_other_player_and_the_spectators_live(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    sockets = [await game_socket(game, user) for user in (alice, bob, carol)]

    await db(chat.say)(game.table_id, bob, "your turn, alice")

    pushed = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    assert all("your turn, alice" in html for html in pushed)
    for html in pushed:
        assert html.lstrip().startswith('<div id="table-chat-lines" hx-swap-oob="true"')
        assert "game-status" not in html
    state = game.engine_state()
    for html, seat in zip(pushed, (0, 1, None), strict=True):
        assert not tiles_in(html) & hidden_from(state, seat)


async def test_spectators_side_talk_never_reaches_a_players_socket(
    game: Game, alice: User, carol: User
) -> None:
    alice_socket, carol_socket = await game_socket(game, alice), await game_socket(game, carol)

    await db(chat.say)(game.table_id, carol, "she has a run of reds")

    to_carol = await carol_socket.receive_from()
    to_alice = await alice_socket.receive_from()
    for socket in (alice_socket, carol_socket):
        await socket.disconnect()
    assert "she has a run of reds" in to_carol
    assert "players do not see it" in to_carol
    assert "she has a run of reds" not in to_alice


async def test_a_muted_members_message_is_not_pushed_to_the_muter(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    await db(chat.mute)(alice, bob.pk)
    alice_socket, carol_socket = await game_socket(game, alice), await game_socket(game, carol)

    await db(chat.say)(game.table_id, bob, "hurry up")

    to_alice, to_carol = await alice_socket.receive_from(), await carol_socket.receive_from()
    for socket in (alice_socket, carol_socket):
        await socket.disconnect()
    assert "hurry up" not in to_alice
    assert "hurry up" in to_carol


async def test_a_hidden_message_disappears_from_the_pages(
    game: Game, alice: User, bob: User
) -> None:
    said = await db(chat.say)(game.table_id, bob, "something rude")
    socket = await game_socket(game, alice)

    await db(chat.set_hidden)(said.pk, True, bob)

    html = await socket.receive_from()
    await socket.disconnect()
    assert "something rude" not in html
    assert "No messages yet." in html


def moved_to(user: User, name: str) -> User:
    user.time_zone = name
    user.save(update_fields=["time_zone"])
    return user


def time_of(said_at: datetime, zone: ZoneInfo) -> str:
    """A chat line's time as a reader in ``zone`` reads it: the hour, the day and zone
    in its title."""
    local = said_at.astimezone(zone).replace(microsecond=0)
    return (
        f'<time datetime="{local.isoformat()}" title="{when_in(said_at, zone)}">'
        f"{local:%H:%M}</time>"
    )


async def test_each_reader_reads_the_chat_in_their_own_zone_on_connect_and_in_a_push(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    readers = [
        await db(moved_to)(alice, "Asia/Tokyo"),
        await db(moved_to)(bob, "America/New_York"),
        await db(moved_to)(carol, "Asia/Tokyo"),
    ]
    first = await db(chat.say)(game.table_id, bob, "good luck")
    connected = [await open_socket(f"/ws/games/{game.pk}/", user) for user in readers]
    on_connect = [await socket.receive_from() for socket in connected]
    table_socket = await open_socket(f"/ws/tables/{game.table_id}/chat/", alice)
    on_connect.append(await table_socket.receive_from())
    sockets = [*connected, table_socket]

    said = await db(chat.say)(game.table_id, alice, "thanks")

    pushed = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    for user, start, push in zip([*readers, alice], on_connect, pushed, strict=True):
        zone = ZoneInfo(user.time_zone)
        assert time_of(first.created_at, zone) in start
        assert time_of(said.created_at, zone) in push
    assert "JST" in pushed[0] and "EST" in pushed[1]


async def test_the_table_chat_socket_refuses_visitors_and_missing_tables(
    game: Game, alice: User
) -> None:
    visitor = communicator(f"/ws/tables/{game.table_id}/chat/", AnonymousUser())
    missing = communicator(f"/ws/tables/{game.table_id + 1000}/chat/", alice)

    assert not (await visitor.connect())[0]
    assert not (await missing.connect())[0]


async def test_the_table_chat_socket_follows_the_chat_before_the_round_starts(
    alice: User, carol: User
) -> None:
    table: Table = await db(_waiting_table)(alice)
    socket = await open_socket(f"/ws/tables/{table.pk}/chat/", alice)
    first = await socket.receive_from()

    await db(chat.say)(table.pk, carol, "may I sit?")

    pushed = await socket.receive_from()
    await socket.disconnect()
    assert "No messages yet." in first
    assert "may I sit?" in pushed
    assert await socket.receive_nothing()


async def test_the_table_chat_socket_ignores_what_the_browser_sends(
    game: Game, alice: User
) -> None:
    socket = await open_socket(f"/ws/tables/{game.table_id}/chat/", alice)
    await socket.receive_from()

    await socket.send_to(text_data="hello?")

    assert await socket.receive_nothing()
    await socket.disconnect()


def _waiting_table(alice: User) -> Table:
    seats = [SeatPlan.taken_by(alice), SeatPlan.open()]
    return services.create_table(alice, TableSettings(), seats)
