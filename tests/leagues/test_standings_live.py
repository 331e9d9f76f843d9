"""Live standings over websockets: a member watching a season hears when a game of one
of its fixtures finishes, through the real Redis channel layer and real commits."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.services.abandonment import resign
from leagues.models import Fixture
from leagues.selectors.standings import season_standings
from tests.conftest import communicator, db
from tests.games.conftest import _eager_celery, current_game, start_table  # noqa: F401
from tests.leagues.standings_support import SmallSeason, small_season

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]


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
    socket = communicator(path, user)
    connected, _ = await socket.connect()
    return socket, connected


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
