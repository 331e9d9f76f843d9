"""While a running game's evidence is open to its moderator, the game's websocket still
sends each connection only what its own user may see: no other rack to a player, none
at all to a spectator or to the moderator watching the game."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.models import Game
from moderation.models import Category
from tests.conftest import client_as, db
from tests.factories import UserFactory
from tests.games.test_consumers import connect
from tests.games.views_support import hidden_from, tiles_in
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


def _open_evidence(game: Game, filer: User, moderator: User) -> None:
    case = claim(open_case(game, filer, Category.STALLING), moderator)
    client = client_as(moderator)
    assert client.get(evidence_url(case)).status_code == 200


async def _drain(socket: WebsocketCommunicator) -> list[str]:
    messages = []
    while not await socket.receive_nothing(timeout=0.5):
        messages.append(await socket.receive_from())
    return messages


async def test_no_socket_message_shows_a_rack_to_anyone_but_its_owner(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    await db(_open_evidence)(casual_game, bob, site_moderator)
    spectator = await db(UserFactory)()
    viewers = {0: alice, 1: bob, None: spectator, "moderator": site_moderator}
    sockets = {key: await connect(casual_game, user) for key, user in viewers.items()}
    for socket in sockets.values():
        await _drain(socket)

    await db(services.draw)(casual_game.pk, alice, casual_game.version)
    await db(casual_game.refresh_from_db)()
    state = casual_game.engine_state()

    for key, socket in sockets.items():
        received = await _drain(socket)
        await socket.disconnect()
        assert received, key
        seat = key if isinstance(key, int) else None
        for html in received:
            assert not tiles_in(html) & hidden_from(state, seat), key
            assert "data-rack-seat" not in html
