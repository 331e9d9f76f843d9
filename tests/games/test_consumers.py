"""The live game over websockets: who may connect, and what each one is sent.

Real Redis channel layer, real database transactions (moves commit, then push).
"""

import re
from collections.abc import AsyncIterator
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import User
from common.moments import when_in
from games import consumers, services
from games.models import Game, Move
from games.services import NEW_SET, RACK
from tests.conftest import communicator, db
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.sockets import pushes_of_a_draw
from tests.games.views_support import hidden_from, tiles_in, visible_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


TOKYO, LISBON = "Asia/Tokyo", "Europe/Lisbon"


def in_zone(user: User, name: str) -> User:
    """``user`` now reading times in the zone ``name`` (as their socket's scope has them)."""
    user.time_zone = name
    user.save(update_fields=["time_zone"])
    return user


LIVE_IDS = ("game-status", "game-players", "game-board", "game-rack", "game-log")


def part(html: str, element: str) -> str:
    """The fragment of a push whose root element has the id ``element`` (one of
    ``LIVE_IDS``), up to the next one."""
    start = html.index(f'id="{element}"')
    ends = [html.find(f'id="{other}"', start) for other in LIVE_IDS if other != element]
    return html[start : min([end for end in ends if end > start], default=len(html))]


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


async def test_spectators_share_one_render_per_zone_and_players_get_their_own(
    game: Game, alice: User, bob: User, carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_tokyo = [await db(in_zone)(carol, TOKYO), await db(UserFactory)(time_zone=TOKYO)]
    in_lisbon = await db(UserFactory)(time_zone=LISBON)
    renders: list[tuple[User | None, str | None]] = []
    render_game = consumers._render_game

    def counted(
        game_id: int, user: User | None, version: int | None = None, zone: Any = None
    ) -> Any:
        if version is not None:
            renders.append((user, None if zone is None else zone.key))
        return render_game(game_id, user, version, zone)

    monkeypatch.setattr(consumers, "_render_game", counted)

    pushed = await pushes_of_a_draw(game, [alice, bob, *in_tokyo, in_lisbon])

    state = game.engine_state()
    expected = [(alice, None), (bob, None), (None, TOKYO), (None, LISBON)]
    assert sorted(renders, key=str) == sorted(expected, key=str)
    assert pushed[2] == pushed[3] != pushed[4]
    assert "+09:00" in pushed[2] and "+09:00" not in pushed[4]
    for html in pushed[2:]:
        assert 'data-version="1"' in html
        assert tiles_in(html) <= visible_to(state, None)
    assert {str(t) for t in state.racks[0]} <= tiles_in(pushed[0])
    assert {str(t) for t in state.racks[1]} <= tiles_in(pushed[1])


async def test_spectators_in_tokyo_and_lisbon_read_their_own_times(
    alice: User, bob: User, carol: User, dave: User
) -> None:
    game = await db(lambda: current_game(start_table(alice, bob, clock="correspondence")))()
    spectators = [await db(in_zone)(carol, TOKYO), await db(in_zone)(dave, LISBON)]

    pushed = await pushes_of_a_draw(game, spectators)

    moved_at = await db(lambda: Move.objects.get(game=game, seq=1).created_at)()
    deadline = game.turn_deadline
    assert deadline is not None
    for html, name, other in zip(pushed, (TOKYO, LISBON), (LISBON, TOKYO), strict=True):
        status, log = part(html, "game-status"), part(html, "game-log")
        # The deadline and the move's time in the reader's zone, which they name.
        assert f"due <strong>{when_in(deadline, ZoneInfo(name))}</strong>" in status
        assert f">{when_in(moved_at, ZoneInfo(name))}</time>" in log
        assert when_in(moved_at, ZoneInfo(other)) not in log
    assert "JST" in pushed[0] and "WET" in pushed[1]


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


async def test_the_builders_other_tabs_read_her_times_in_her_zone(game: Game) -> None:
    mover = await db(in_zone)(await db(user_at)(game, game.current_seat), TOKYO)
    sockets = [await connect(game, mover) for _ in range(2)]
    for socket in sockets:
        await socket.receive_from()
    tile = str(game.engine_state().racks[game.current_seat or 0][0])

    await db(services.move_tiles)(game.pk, mover, [(tile, RACK)], NEW_SET)

    pushed = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    for html in pushed:
        assert f'data-tile="{tile}"' in part(html, "game-board")
        assert "+09:00" in part(html, "game-status")


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
