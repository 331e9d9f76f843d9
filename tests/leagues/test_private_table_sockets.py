"""The websockets of a private club's fixture table: the game's and the table chat's
refuse an outsider (the handshake is closed), and let the club's members and the players
in (security review wave 2, finding 1)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import services
from games.models import Game, Table
from leagues.models import Membership, Role
from leagues.services import clubs
from tests.conftest import communicator, db
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.games.players import user_at
from tests.leagues.conftest import running_season

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


def outsider() -> User:
    user = UserFactory(username="mallory")
    clubs.create_club(user, "Other Club")
    return user


async def connects(path: str, user: Any) -> bool:
    socket = communicator(path, user)
    connected, _ = await socket.connect()
    await socket.disconnect()
    return connected


async def private_table(*players: User) -> tuple[Table, Game]:
    season = await db(running_season)(players[0], players[1:], private=True, slug="back-room")
    table: Table = season.fixtures[0].table
    return table, await db(current_game)(table)


async def test_an_outsider_is_refused_by_the_game_and_chat_sockets(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    table, game = await private_table(alice, bob, dave, erin, alice)
    mallory = await db(outsider)()

    assert not await connects(f"/ws/games/{game.pk}/", mallory)
    assert not await connects(f"/ws/tables/{table.pk}/chat/", mallory)


async def test_a_player_and_a_member_of_the_club_are_let_in(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    table, game = await private_table(alice, bob, dave, erin, alice)

    assert await connects(f"/ws/games/{game.pk}/", bob)
    assert await connects(f"/ws/games/{game.pk}/", erin)
    assert await connects(f"/ws/tables/{table.pk}/chat/", erin)


async def test_a_spectating_member_removed_from_the_club_is_told_nothing_more(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    table, game = await private_table(alice, bob, dave, erin, alice)
    sam = await db(UserFactory)(username="sam")
    club = await db(lambda: table.fixture.division.season.league.club)()
    await db(Membership.objects.create)(club=club, user=sam, role=Role.MEMBER)
    socket = communicator(f"/ws/games/{game.pk}/", sam)
    assert (await socket.connect())[0]
    await socket.receive_from()

    await db(clubs.remove_member)(club, alice, sam.pk)
    mover = await db(user_at)(game, game.current_seat)
    await db(services.draw)(game.pk, mover, 0)

    assert (await socket.receive_output())["type"] == "websocket.close"
    await socket.wait()


async def test_a_spectator_is_told_nothing_more_once_the_club_turns_private(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    """Security review wave 3, S9: sight is asked again for every spectator, not only for
    one of a table that was private when the socket opened."""
    season = await db(running_season)(alice, [bob, dave, erin, alice], slug="open-room")
    table: Table = season.fixtures[0].table
    game = await db(current_game)(table)
    sam = await db(UserFactory)(username="sam")
    socket = communicator(f"/ws/games/{game.pk}/", sam)
    assert (await socket.connect())[0]
    await socket.receive_from()

    club = season.club
    await db(clubs.update_club)(club, alice, name=club.name, description="", is_private=True)
    mover = await db(user_at)(game, game.current_seat)
    await db(services.draw)(game.pk, mover, 0)

    assert (await socket.receive_output())["type"] == "websocket.close"
    await socket.wait()
