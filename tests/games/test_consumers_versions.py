"""A game page says what it shows when its socket connects, and is sent only what it
lacks; the page a move was made from is not sent that move again.

Real Redis channel layer, real database transactions (changes commit, then push).
"""

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.models import Game
from games.services import NEW_SET, RACK, chat, holds
from tests.conftest import communicator, db
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.views_support import tiles_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]

PAGE = "3f2a9c0d41b7e655aa01"
OTHER_TAB = "77e0c2b94d1a0f3e5c22"


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob))


async def connect(game: Game, user: Any, query: str = "") -> WebsocketCommunicator:
    socket = communicator(f"/ws/games/{game.pk}/{query}", user)
    connected, _ = await socket.connect()
    assert connected
    return socket


def showing(version: int = 0, live: int = 0, chat: int = 0, page: str = PAGE) -> str:
    """The query string a page showing these counts connects with (static/js/game.js)."""
    return f"?page={page}&v={version}&l={live}&c={chat}"


async def test_a_page_that_is_current_is_sent_nothing_on_connect(game: Game, alice: User) -> None:
    socket = await connect(game, alice, showing())

    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_a_page_that_says_nothing_is_sent_the_game_and_the_chat(
    game: Game, alice: User
) -> None:
    socket = await connect(game, alice)

    html = await socket.receive_from()
    await socket.disconnect()
    assert 'id="game-status"' in html
    assert 'id="table-chat-lines"' in html


async def test_a_page_one_move_behind_gets_the_fragments_not_the_chat(
    game: Game, alice: User
) -> None:
    mover = await db(user_at)(game, game.current_seat)
    await db(services.draw)(game.pk, mover, 0)

    socket = await connect(game, alice, showing(version=0))

    html = await socket.receive_from()
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
    assert 'data-version="1"' in html
    assert 'id="table-chat-lines"' not in html


async def test_a_page_with_an_old_chat_gets_only_the_chat(game: Game, alice: User) -> None:
    await db(chat.say)(game.table_id, alice, "good luck")

    socket = await connect(game, alice, showing(chat=0))

    html = await socket.receive_from()
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
    assert 'id="table-chat-lines"' in html
    assert 'data-chat="1"' in html
    assert "good luck" in html
    assert 'id="game-status"' not in html


async def test_a_clock_change_while_disconnected_is_sent_on_reconnect(
    game: Game, alice: User
) -> None:
    await db(holds.hold_clocks)(game.pk)
    await db(game.refresh_from_db)()
    assert (game.version, game.live_version) == (0, 1)

    socket = await connect(game, alice, showing(version=0, live=0))

    html = await socket.receive_from()
    await socket.disconnect()
    assert 'data-live="1"' in html
    assert "Paused by a moderator" in html


async def test_a_page_that_shows_the_clock_change_is_sent_nothing(game: Game, alice: User) -> None:
    await db(holds.hold_clocks)(game.pk)

    socket = await connect(game, alice, showing(live=1))

    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def players(game: Game, alice: User, bob: User) -> tuple[User, User]:
    """The player to move, and the other."""
    mover = await db(user_at)(game, game.current_seat)
    return mover, bob if mover == alice else alice


async def pages_of(
    game: Game, mover: User, other: User
) -> tuple[WebsocketCommunicator, WebsocketCommunicator, WebsocketCommunicator]:
    """The mover's page (``PAGE``) and her other tab, and the other player's page: all
    current when they connect."""
    return (
        await connect(game, mover, showing(page=PAGE)),
        await connect(game, mover, showing(page=OTHER_TAB)),
        await connect(game, other, showing(page="5b1e0f9a2c3d4e5f6a7b")),
    )


async def test_the_movers_page_is_not_sent_its_own_move_but_her_other_tab_is(
    game: Game, alice: User, bob: User
) -> None:
    mover, other = await players(game, alice, bob)
    here, tab, opponent = await pages_of(game, mover, other)

    await db(services.draw)(game.pk, mover, 0, page=PAGE)

    assert 'data-version="1"' in await tab.receive_from()
    assert 'data-version="1"' in await opponent.receive_from()
    assert await here.receive_nothing(timeout=0.5)
    for socket in (here, tab, opponent):
        await socket.disconnect()


async def test_the_movers_page_still_hears_the_next_move(
    game: Game, alice: User, bob: User
) -> None:
    mover, other = await players(game, alice, bob)
    here = await connect(game, mover, showing(page=PAGE))

    await db(services.draw)(game.pk, mover, 0, page=PAGE)
    await db(services.draw)(game.pk, other, 1, page=OTHER_TAB)

    html = await here.receive_from()
    await here.disconnect()
    assert 'data-version="2"' in html


async def test_the_builders_page_is_not_sent_its_own_draft_but_her_other_tab_is(
    game: Game, alice: User, bob: User
) -> None:
    builder, other = await players(game, alice, bob)
    here, tab, opponent = await pages_of(game, builder, other)
    tile = str(game.engine_state().racks[game.current_seat or 0][0])

    await db(services.move_tiles)(game.pk, builder, [(tile, RACK)], NEW_SET, page=PAGE)

    assert tile in tiles_in(await tab.receive_from())  # her other tab shows the draft
    assert "is building a move" in await opponent.receive_from()
    assert await here.receive_nothing(timeout=0.5)
    for socket in (here, tab, opponent):
        await socket.disconnect()
