"""When each move was made, in the reader's own zone: the game page's move log (and its
push over the game's socket), the table page's last move of each game, and the replay's
turn. A correspondence game's moves are days apart; the walk found no time anywhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_as, communicator, db
from tests.games.conftest import current_game, start_table

# Thu 3 Dec 22:12:30 UTC: Fri 4 Dec in Tokyo, still Thursday in Berlin.
MOVED = datetime(2026, 12, 3, 22, 12, 30, 123456, tzinfo=UTC)
IN_TOKYO = '<time class="move-at" datetime="2026-12-04T07:12:30+09:00">Fri 4 Dec, 07:12 JST</time>'
IN_BERLIN = '<time class="move-at" datetime="2026-12-03T23:12:30+01:00">Thu 3 Dec, 23:12 CET</time>'


@pytest.fixture
def kenji(alice: User) -> User:
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    return alice


@pytest.fixture
def lena(bob: User) -> User:
    bob.time_zone = "Europe/Berlin"
    bob.save(update_fields=["time_zone"])
    return bob


def drawn_at(moment: datetime, game: Game, player: User) -> Game:
    with time_machine.travel(moment, tick=False):
        return services.draw(game.pk, player, game.version)


@pytest.fixture
def game(kenji: User, lena: User) -> Game:
    """Kenji drew at MOVED; now it is Lena's turn."""
    with time_machine.travel(MOVED - timedelta(hours=1), tick=False):
        game = current_game(start_table(kenji, lena, first=0, clock="correspondence"))
    return drawn_at(MOVED, game, kenji)


@pytest.mark.django_db
def test_the_move_log_dates_each_move_in_the_readers_zone(
    game: Game, kenji: User, lena: User, carol: User
) -> None:
    page = reverse("games:game", args=[game.pk])

    assert IN_TOKYO in client_as(kenji).get(page).text
    assert IN_BERLIN in client_as(lena).get(page).text
    # A spectator without a zone of their own reads the site's, named.
    assert "Thu 3 Dec, 22:12 UTC" in client_as(carol).get(page).text


@pytest.mark.django_db
def test_the_table_page_says_when_each_game_last_moved(game: Game, kenji: User, lena: User) -> None:
    page = reverse("games:table", args=[game.table_id])

    text = client_as(kenji).get(page).text
    assert "Last move" in text
    assert '<time datetime="2026-12-04T07:12:30+09:00">Fri 4 Dec, 07:12 JST</time>' in text
    assert "Thu 3 Dec, 23:12 CET" in client_as(lena).get(page).text


@pytest.mark.django_db
def test_the_replay_says_when_each_turn_was_played(game: Game, kenji: User, lena: User) -> None:
    with time_machine.travel(MOVED + timedelta(days=1), tick=False):
        services.resign(game.pk, lena)
    replay = reverse("games:replay", args=[game.pk])

    first = client_as(kenji).get(replay, {"turn": 1}).text
    deal = client_as(kenji).get(replay, {"turn": 0}).text
    last = client_as(lena).get(replay, {"turn": 2}).text

    assert '<time class="replay-at" datetime="2026-12-04T07:12:30+09:00">Fri 4 Dec, 07:12 JST' in (
        first
    )
    assert "replay-at" not in deal
    assert "Fri 4 Dec, 23:12 CET" in last


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("_close_thread_connections")
async def test_the_pushed_move_log_is_in_each_receivers_zone(
    game: Game, kenji: User, lena: User
) -> None:
    path = f"/ws/games/{game.pk}/"
    sockets = [communicator(path, kenji), communicator(path, lena)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from()

    await db(drawn_at)(MOVED + timedelta(hours=1), game, lena)

    kenjis, lenas = [await socket.receive_from() for socket in sockets]
    for socket in sockets:
        await socket.disconnect()
    assert 'datetime="2026-12-04T08:12:30+09:00">Fri 4 Dec, 08:12 JST</time>' in kenjis
    assert 'datetime="2026-12-04T00:12:30+01:00">Fri 4 Dec, 00:12 CET</time>' in lenas
    assert IN_TOKYO in kenjis and IN_BERLIN in lenas
