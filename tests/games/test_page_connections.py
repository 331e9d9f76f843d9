"""The history of players' connections to a game's page: opened by the game socket,
closed when it closes, bounded per player and pruned after the retention period."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from games import page_connections
from games.models import Game, PageConnection
from tests.conftest import communicator
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob))


@pytest.mark.django_db
def test_a_player_s_connection_is_opened_seen_and_closed(game: Game, alice: User) -> None:
    start = timezone.now()
    pk = page_connections.opened(game.pk, alice.pk, start)
    assert pk is not None
    page_connections.seen(pk, start + timedelta(seconds=20))
    page_connections.closed(pk, start + timedelta(seconds=30))
    page_connections.seen(pk, start + timedelta(seconds=50))  # a late beat changes nothing

    row = PageConnection.objects.get(pk=pk)
    assert (row.seat, row.connected_at, row.seen_at, row.disconnected_at) == (
        0,
        start,
        start + timedelta(seconds=30),
        start + timedelta(seconds=30),
    )


@pytest.mark.django_db
def test_a_member_without_a_seat_is_not_recorded(game: Game) -> None:
    assert page_connections.opened(game.pk, UserFactory().pk) is None
    assert page_connections.opened(game.pk + 1000, UserFactory().pk) is None
    assert not PageConnection.objects.exists()


@pytest.mark.django_db
def test_a_player_keeps_only_the_newest_connections_of_a_game(game: Game, alice: User) -> None:
    start = timezone.now()
    for n in range(page_connections.KEPT_PER_GAME + 5):
        page_connections.opened(game.pk, alice.pk, start + timedelta(minutes=n))

    kept = PageConnection.objects.filter(game=game, user=alice)
    assert kept.count() == page_connections.KEPT_PER_GAME
    assert min(kept.values_list("connected_at", flat=True)) == start + timedelta(minutes=5)


@pytest.mark.django_db
@override_settings(GAMES_CONNECTION_DAYS=120)
def test_connections_older_than_the_retention_are_pruned(game: Game, alice: User) -> None:
    # Longer than the default 90 days (to which the database holds the app's role here):
    # the setting is read, and the database lets older rows go.
    now = timezone.now()
    old = page_connections.opened(game.pk, alice.pk, now - timedelta(days=121))
    new = page_connections.opened(game.pk, alice.pk, now - timedelta(days=119))

    assert page_connections.prune(now) == 1
    assert list(PageConnection.objects.values_list("pk", flat=True)) == [new]
    assert old is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("_close_thread_connections")
async def test_the_game_socket_records_a_player_and_not_a_spectator(
    game: Game, alice: User
) -> None:
    watcher = await database_sync_to_async(UserFactory)()
    sockets = []
    for user in (alice, watcher):
        socket = communicator(f"/ws/games/{game.pk}/", user)
        connected, _ = await socket.connect()
        assert connected
        sockets.append(socket)

    rows = await database_sync_to_async(lambda: list(PageConnection.objects.all()))()
    assert [(row.user_id, row.disconnected_at) for row in rows] == [(alice.pk, None)]

    for socket in sockets:
        await socket.disconnect()
    row = await database_sync_to_async(PageConnection.objects.get)()
    assert row.disconnected_at is not None
