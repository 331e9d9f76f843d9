"""Live standings over websockets: a member watching a season hears when a game of one
of its fixtures finishes, through the real Redis channel layer and real commits."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.urls import reverse

from config.routing import websocket_urlpatterns
from games.services.abandonment import resign
from leagues.models import Fixture
from leagues.selectors.standings import season_standings
from tests.games.conftest import _eager_celery, current_game, start_table  # noqa: F401
from tests.leagues.standings_support import SmallSeason, small_season

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def db(func: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    return database_sync_to_async(func)  # type: ignore[no-any-return]


@pytest_asyncio.fixture(autouse=True)
async def _close_thread_connections() -> AsyncIterator[None]:
    # The async code's database work runs in a helper thread with its own connection;
    # closed after each test, it does not hold the test database open.
    yield
    await sync_to_async(connections.close_all)()


def season_at_a_table(private: bool = False) -> tuple[SmallSeason, int]:
    """A season whose matchday-1 fixture of Ann and Bob is being played at a real
    table (one game a round); the id of that game."""
    built = small_season(private=private)
    fixture = built.schedule(1, ["ann", "bob"])
    table = start_table(built.players["ann"], built.players["bob"], games_in_round=1)
    Fixture.objects.filter(pk=fixture.pk).update(table=table)
    return built, current_game(table).pk


async def watch(built: SmallSeason, user: Any) -> tuple[WebsocketCommunicator, bool]:
    path = f"/ws/leagues/seasons/{built.season.pk}/"
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    return communicator, connected


async def test_a_member_watching_hears_that_the_season_changed_when_a_game_finishes() -> None:
    built, game_id = await db(season_at_a_table)()
    before = await db(season_standings)(built.season)
    assert all(row.games_played == 0 for row in before[0].standings.rows)
    socket, connected = await watch(built, built.players["dee"])
    assert connected

    await db(resign)(game_id, built.players["ann"])

    message = await socket.receive_from(timeout=5)
    page = reverse("leagues:standings", args=[built.club.slug, "winter", 1])
    assert 'id="standings-refresh"' in message and f'hx-get="{page}"' in message
    assert 'hx-trigger="load"' in message and "Ann" not in message  # no standings travel
    # The cached standings went with the news: the page's fetch counts the game.
    after = await db(season_standings)(built.season)
    rows = {row.name: row for row in after[0].standings.rows}
    assert (rows["Bob"].games_won, rows["Ann"].games_played) == (1, 1)
    await socket.disconnect()


async def test_only_members_may_watch_a_private_clubs_season() -> None:
    built, _ = await db(season_at_a_table)(private=True)

    for user in (built.outsider, AnonymousUser()):
        _socket, connected = await watch(built, user)
        assert not connected
    member, connected = await watch(built, built.players["cy"])
    assert connected
    await member.disconnect()
