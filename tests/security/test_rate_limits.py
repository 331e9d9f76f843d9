"""Rate limits of the games: new tables per member and per address, open websockets per
member and per address (counted in the real Redis cache)."""

import pytest
import time_machine
from channels.testing import WebsocketCommunicator
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from common.sockets import SocketSlots
from games.models import Game, Table
from tests.conftest import client_as, communicator
from tests.games.test_views_lobby import form_data

NEW = reverse("games:new_table")
HOME = "192.0.2.10"
ELSEWHERE = "198.51.100.7"
LIMITS = {
    "new_table_per_member": "3/h",
    "new_table_per_address": "100/h",
}


def new_table(client: Client, address: str = HOME, **changes: object) -> int:
    return client.post(NEW, form_data(**changes), REMOTE_ADDR=address).status_code


@pytest.mark.django_db
@override_settings(RATE_LIMITS=LIMITS)
def test_a_member_opens_a_few_tables_then_gets_a_429_and_no_table(alice: User, bob: User) -> None:
    alice_client = client_as(alice)
    assert [new_table(alice_client) for _ in range(2)] == [302, 302]
    # A refused form counts too: it made the server do the work.
    assert new_table(alice_client, seats=9) == 400

    response = alice_client.post(NEW, form_data(), REMOTE_ADDR=ELSEWHERE)

    assert response.status_code == 429
    assert "Too many requests from you in a short time" in response.text
    assert Table.objects.filter(creator=alice).count() == 2
    assert alice_client.get(NEW).status_code == 200
    assert new_table(client_as(bob)) == 302


@pytest.mark.django_db
@override_settings(RATE_LIMITS={**LIMITS, "new_table_per_address": "2/h"})
def test_members_at_one_address_share_its_limit(alice: User, bob: User) -> None:
    assert new_table(client_as(alice)) == 302
    assert new_table(client_as(bob)) == 302

    assert new_table(client_as(bob)) == 429
    assert new_table(client_as(bob), address=ELSEWHERE) == 302
    assert Table.objects.count() == 3


# --- websockets ------------------------------------------------------------------------


async def open_socket(
    game: Game, user: User, address: str = HOME
) -> tuple[WebsocketCommunicator, bool]:
    socket = communicator(f"/ws/games/{game.pk}/", user, address=address)
    connected, _ = await socket.connect()
    return socket, connected


async def open_header_socket(user: User, address: str = HOME) -> bool:
    socket = communicator("/ws/notifications/", user, address=address)
    connected, _ = await socket.connect()
    if connected:
        await socket.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("_close_thread_connections")
@override_settings(WEBSOCKETS_PER_MEMBER=2, WEBSOCKETS_PER_ADDRESS=100)
async def test_a_member_holds_a_few_sockets_at_once(game: Game, alice: User, bob: User) -> None:
    first, _ = await open_socket(game, alice)
    second, _ = await open_socket(game, alice, address=ELSEWHERE)

    _, connected = await open_socket(game, alice)
    assert not connected
    assert not await open_header_socket(alice)
    bobs, connected = await open_socket(game, bob)
    assert connected

    await first.disconnect()
    again, connected = await open_socket(game, alice)
    assert connected
    for socket in (second, again, bobs):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("_close_thread_connections")
@override_settings(WEBSOCKETS_PER_MEMBER=100, WEBSOCKETS_PER_ADDRESS=2)
async def test_members_at_one_address_share_its_sockets(game: Game, alice: User, bob: User) -> None:
    first, _ = await open_socket(game, alice)
    second, _ = await open_socket(game, bob)

    assert not (await open_socket(game, bob))[1]
    assert not await open_header_socket(alice)
    elsewhere, connected = await open_socket(game, bob, address=ELSEWHERE)
    assert connected

    await second.disconnect()
    assert await open_header_socket(bob)
    for socket in (first, elsewhere):
        await socket.disconnect()


@override_settings(WEBSOCKET_SLOT_SECONDS=60, WEBSOCKETS_PER_MEMBER=2)
def test_slots_a_dead_process_held_lapse_and_a_refused_attempt_extends_nothing() -> None:
    # A process that died after taking slots never gives them back nor refreshes them.
    with time_machine.travel(1_000_000, tick=False) as clock:
        assert SocketSlots.take(7, HOME, "dead-1")
        clock.shift(30)
        assert SocketSlots.take(7, HOME, "dead-2")
        assert not SocketSlots.take(7, HOME, "retry")
        clock.shift(29)
        assert not SocketSlots.take(7, HOME, "retry")

        # The first lapses 60 s after it was taken, whatever was tried meanwhile.
        clock.shift(2)
        assert SocketSlots.held(7, HOME) == (1, 1)
        assert SocketSlots.take(7, HOME, "alive")
        assert not SocketSlots.take(7, HOME, "retry")
        clock.shift(30)
        assert SocketSlots.take(7, HOME, "alive-too")


@override_settings(WEBSOCKET_SLOT_SECONDS=60, WEBSOCKETS_PER_MEMBER=1)
def test_a_refreshed_slot_stays_taken() -> None:
    with time_machine.travel(1_000_000, tick=False) as clock:
        assert SocketSlots.take(9, HOME, "open")
        for _ in range(5):
            clock.shift(20)
            SocketSlots.refresh(9, HOME, "open")
            assert not SocketSlots.take(9, HOME, "another")

        SocketSlots.give_back(9, HOME, "open")
        assert SocketSlots.take(9, HOME, "another")


def test_giving_back_more_than_taken_leaves_no_debt() -> None:
    SocketSlots.give_back(8, ELSEWHERE, "never-taken")
    assert SocketSlots.take(8, ELSEWHERE, "once")
    SocketSlots.give_back(8, ELSEWHERE, "once")
    SocketSlots.give_back(8, ELSEWHERE, "once")

    assert SocketSlots.held(8, ELSEWHERE) == (0, 0)
