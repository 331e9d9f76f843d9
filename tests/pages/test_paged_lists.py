"""The lists that grow with one member or one season come a page at a time: "your move"
50 games a page with the count of them all, a season's matchdays a few fixtures' worth
at a time, a member's reports 25 a page, the results file streamed."""

from __future__ import annotations

import re

import pytest
from django.http import StreamingHttpResponse
from django.urls import reverse

from accounts.models import User
from benchmarks import site_rows
from leagues.selectors import seasons
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason, running
from tests.pages.growth import more_matchdays, season_url

pytestmark = pytest.mark.django_db

__all__ = ["running"]

YOUR_MOVE = reverse("games:your_move")
LISTED = re.compile(r'class="game-item your-move-item" data-game="(\d+)"')


def test_your_move_lists_fifty_games_a_page_soonest_first_and_counts_them_all(
    alice: User, bob: User
) -> None:
    awaiting = site_rows.games_in_play(60, [alice, bob])  # due one after the other
    client = client_as(alice)

    first = client.get(YOUR_MOVE).text
    second = client.get(f"{YOUR_MOVE}?page=2").text

    assert [int(pk) for pk in LISTED.findall(first)] == awaiting[:50]
    assert [int(pk) for pk in LISTED.findall(second)] == awaiting[50:]
    assert "60 games awaiting you" in first and "60 games awaiting you" in second
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    assert "Page 2 of 2" in second and 'href="?page=1"' in second
    # The page reads itself again (htmx) where the member is, not on page 1.
    assert f'hx-get="{YOUR_MOVE}?page=2"' in second
    assert f'hx-get="{YOUR_MOVE}"' in first


def test_your_move_past_its_last_page_shows_the_last_and_a_bad_number_the_first(
    alice: User, bob: User
) -> None:
    awaiting = site_rows.games_in_play(55, [alice, bob])
    client = client_as(alice)

    assert [int(pk) for pk in LISTED.findall(client.get(f"{YOUR_MOVE}?page=9").text)] == (
        awaiting[50:]
    )
    assert len(LISTED.findall(client.get(f"{YOUR_MOVE}?page=x").text)) == 50


def test_your_move_pages_list_nothing_of_the_opponents_or_a_watcher(
    alice: User, bob: User, carol: User
) -> None:
    site_rows.games_in_play(55, [alice, bob])

    for other in (bob, carol):
        page = client_as(other).get(f"{YOUR_MOVE}?page=2").text
        assert not LISTED.findall(page)
        assert "Nothing awaits you" in page
    assert client_as(alice).post(YOUR_MOVE).status_code == 405


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of the season's matchdays of up to 4 fixtures: 2 matchdays of 2 each."""
    monkeypatch.setattr(seasons, "FIXTURES_PER_PAGE", 4)


def matchdays_shown(page: str) -> list[int]:
    return [int(n) for n in re.findall(r"<strong>Matchday (\d+)</strong>", page)]


@pytest.mark.usefixtures("small_pages")
def test_a_long_seasons_page_shows_the_matchdays_being_played_and_links_the_others(
    running: RunningSeason,
) -> None:
    more_matchdays(running, 5)  # closed matchdays 2 to 6 of 2 fixtures each; 1 is open
    client = client_as(running.players[0])
    url = season_url(running, "leagues:season")

    opened = client.get(url).text
    later = client.get(f"{url}?matchday=6").text

    assert matchdays_shown(opened) == [1, 2]
    assert "Matchdays 1\u20132 of 6" in opened and 'href="?matchday=3"' in opened
    assert "Earlier matchdays" not in opened
    assert matchdays_shown(later) == [5, 6]
    assert 'href="?matchday=3"' in later and "Later matchdays" not in later
    assert client.get(f"{url}?matchday=0").status_code == 400


def test_a_short_seasons_page_shows_every_matchday_without_pages(running: RunningSeason) -> None:
    more_matchdays(running, 3)

    page = client_as(running.players[0]).get(season_url(running, "leagues:season")).text

    assert matchdays_shown(page) == [1, 2, 3, 4]
    assert "Pages of matchdays" not in page


def test_the_results_file_is_streamed_with_every_game_once(
    running: RunningSeason, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leagues import exports
    from leagues.selectors import standings

    more_matchdays(running, 6)
    # Parts of 5 fixtures and chunks of 7 lines: the file is made in many pieces.
    monkeypatch.setattr(standings, "FIXTURES_A_PART", 5)
    monkeypatch.setattr(exports, "LINES_A_CHUNK", 7)

    response = client_as(running.players[0]).get(season_url(running, "leagues:results_csv"))

    assert isinstance(response, StreamingHttpResponse)
    lines = response.getvalue().decode().splitlines()
    # 12 fixtures played, 2 games each, 2 seats: 48 lines under the header.
    assert lines[0].startswith("matchday,division,table,game,seat,player")
    assert len(lines) == 1 + 48
    assert len(set(lines[1:])) == 48
