"""The live game over websockets: who may connect, and what each one is sent.

Real Redis channel layer, real database transactions (moves commit, then push).
"""

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import User
from games import consumers, services
from games.models import Game
from games.services import NEW_SET, RACK
from tests.conftest import communicator, db
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.views_support import hidden_from, tiles_in, visible_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


def path(game: Game) -> str:
    return f"/ws/games/{game.pk}/"


async def connect(game: Game, user: Any) -> WebsocketCommunicator:
    socket = communicator(path(game), user)
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob))


@pytest_asyncio.fixture
async def alice_socket(game: Game, alice: User) -> AsyncIterator[WebsocketCommunicator]:
    socket = await connect(game, alice)
    yield socket
    await socket.disconnect()


async def test_a_visitor_is_refused(game: Game) -> None:
    socket = communicator(path(game), AnonymousUser())

    connected, _ = await socket.connect()

    assert not connected


async def test_a_missing_game_is_refused(game: Game, alice: User) -> None:
    socket = communicator(f"/ws/games/{game.pk + 1000}/", alice)

    connected, _ = await socket.connect()

    assert not connected


async def test_a_player_gets_her_own_rack_and_nobody_elses(
    game: Game, alice: User, alice_socket: WebsocketCommunicator
) -> None:
    html = await alice_socket.receive_from()

    state = game.engine_state()
    for element in ("game-status", "game-players", "game-board", "game-rack"):
        assert f'id="{element}" hx-swap-oob="true"' in html
    assert {str(t) for t in state.racks[0]} <= tiles_in(html)
    assert tiles_in(html) <= visible_to(state, 0)
    assert not tiles_in(html) & hidden_from(state, 0)
    assert hidden_from(state, 0)


async def test_an_opponent_gets_his_own_rack_and_not_hers(game: Game, bob: User) -> None:
    socket = await connect(game, bob)
    html = await socket.receive_from()
    await socket.disconnect()

    state = game.engine_state()
    assert {str(t) for t in state.racks[1]} <= tiles_in(html)
    assert tiles_in(html) <= visible_to(state, 1)
    assert hidden_from(state, 1)


async def test_a_spectator_sees_no_rack_at_all(game: Game, carol: User) -> None:
    socket = await connect(game, carol)
    html = await socket.receive_from()
    await socket.disconnect()

    assert tiles_in(html) == set()  # the table is still empty
    assert re.search(r'<section id="game-rack"[^>]*>\s*</section>', html)


async def test_every_watcher_is_sent_the_new_state_after_a_move(
    game: Game, alice: User, bob: User, carol: User, alice_socket: WebsocketCommunicator
) -> None:
    bob_socket, carol_socket = await connect(game, bob), await connect(game, carol)
    for socket in (alice_socket, bob_socket, carol_socket):
        await socket.receive_from()
    mover = await db(user_at)(game, game.current_seat)

    await db(services.draw)(game.pk, mover, 0)

    await db(game.refresh_from_db)()
    state = game.engine_state()
    for socket, seat in ((alice_socket, 0), (bob_socket, 1), (carol_socket, None)):
        html = await socket.receive_from()
        assert 'data-version="1"' in html
        assert tiles_in(html) <= visible_to(state, seat)
    for socket in (bob_socket, carol_socket):
        await socket.disconnect()


async def test_the_renders_of_a_move_read_the_game_once(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sockets = [await connect(game, user) for user in (alice, bob, carol)]
    for socket in sockets:
        await socket.receive_from()
    loads: list[int] = []
    table_seats = consumers.table_seats

    def counted(found: Game) -> Any:
        loads.append(found.version)
        return table_seats(found)

    monkeypatch.setattr(consumers, "table_seats", counted)
    mover = await db(user_at)(game, game.current_seat)

    await db(services.draw)(game.pk, mover, 0)

    pushed = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    assert all('data-version="1"' in html for html in pushed)
    assert loads == [1]


async def test_spectators_share_one_render_of_a_move_and_players_get_their_own(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    watchers = [carol, *[await db(UserFactory)() for _ in range(2)]]
    sockets = [await connect(game, user) for user in (alice, bob, *watchers)]
    for socket in sockets:
        await socket.receive_from()
    renders: list[User | None] = []
    render_game = consumers._render_game

    def counted(game_id: int, user: User | None, version: int | None = None) -> Any:
        renders.append(user)
        return render_game(game_id, user, version)

    monkeypatch.setattr(consumers, "_render_game", counted)
    mover = await db(user_at)(game, game.current_seat)

    await db(services.draw)(game.pk, mover, 0)

    pushed = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    await db(game.refresh_from_db)()
    state = game.engine_state()
    assert sorted(renders, key=str) == sorted([alice, bob, None], key=str)
    assert pushed[2] == pushed[3] == pushed[4]
    assert 'data-version="1"' in pushed[2]
    assert tiles_in(pushed[2]) <= visible_to(state, None)
    assert {str(t) for t in state.racks[0]} <= tiles_in(pushed[0])
    assert {str(t) for t in state.racks[1]} <= tiles_in(pushed[1])


async def test_a_reconnecting_watcher_is_sent_the_current_state(game: Game, alice: User) -> None:
    mover = await db(user_at)(game, game.current_seat)
    await db(services.draw)(game.pk, mover, 0)

    socket = await connect(game, alice)
    html = await socket.receive_from()
    await socket.disconnect()

    assert 'data-version="1"' in html


async def test_others_hear_that_a_player_is_building_but_not_what(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    mover = await db(user_at)(game, game.current_seat)
    waiting = bob if mover == alice else alice
    sockets = [await connect(game, user) for user in (mover, mover, waiting, carol)]
    for socket in sockets:
        await socket.receive_from()
    tile = str(game.engine_state().racks[game.current_seat or 0][0])

    await db(services.move_tiles)(game.pk, mover, [(tile, RACK)], NEW_SET)

    for socket in sockets[2:]:
        notice = await socket.receive_from()
        assert notice.strip().startswith('<p id="game-building" hx-swap-oob="true">')
        assert f"{mover} is building a move." in notice
        assert tiles_in(notice) == set()
    # The builder's own pages show the draft itself: the tile is now on the board.
    for socket in sockets[:2]:
        html = await socket.receive_from()
        board = html[html.index('id="game-board"') : html.index('id="game-rack"')]
        assert f'data-tile="{tile}"' in board
    for socket in sockets:
        await socket.disconnect()


async def through_the_site(game: Game, user: User, origin: bytes) -> WebsocketCommunicator:
    """A socket opened the way a browser does: session cookie and Origin header."""
    from config.asgi import application

    client = Client()
    await db(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", origin), (b"cookie", cookie)]
    return WebsocketCommunicator(application, path(game), headers=headers)


async def test_a_signed_in_member_connects_through_the_sites_own_stack(
    game: Game, bob: User
) -> None:
    socket = await through_the_site(game, bob, b"http://localhost")

    connected, _ = await socket.connect()
    html = await socket.receive_from()
    await socket.disconnect()

    assert connected
    assert tiles_in(html) <= visible_to(game.engine_state(), 1)


async def test_another_sites_page_cannot_open_the_socket(game: Game, bob: User) -> None:
    socket = await through_the_site(game, bob, b"https://evil.example")

    connected, _ = await socket.connect()
    await socket.disconnect()

    assert not connected
