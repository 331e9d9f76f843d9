"""What the game's sockets are pushed, for the websocket tests (real Redis channel layer,
real transactions: a move commits, its receivers run, then each socket renders)."""

from __future__ import annotations

from collections.abc import Callable

from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import communicator, db
from tests.games.players import user_at


async def pushes_of_a_draw(
    game: Game,
    watchers: list[User],
    after_commit: Callable[[], None] = lambda: None,
    after_pushes: Callable[[], None] = lambda: None,
) -> list[str]:
    """What each of ``watchers``' sockets (in order) is pushed when the player to move
    draws; ``game`` is then refreshed. ``after_commit`` runs in the mover's thread once the
    move and its receivers are done, before any socket renders (they wait for that
    thread); ``after_pushes`` once every socket got its push, before they close."""
    sockets: list[WebsocketCommunicator] = []
    for user in watchers:
        socket = communicator(f"/ws/games/{game.pk}/", user)
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_from()
        sockets.append(socket)
    mover = await db(user_at)(game, game.current_seat)

    def draw() -> None:
        services.draw(game.pk, mover, game.version)
        after_commit()

    await db(draw)()
    pushed = [await socket.receive_from() for socket in sockets]
    after_pushes()
    for socket in sockets:
        await socket.disconnect()
    await db(game.refresh_from_db)()
    return pushed
