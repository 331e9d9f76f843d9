"""A private club's fixture table in the browser: a member of another club who opens
its table or its game by address gets the site's 404 page, and the game's websocket
refuses them; a player of the fixture has both (security review wave 2, finding 1)."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from leagues.services import clubs
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.browser


# Resolves "open" or "closed": what the server made of the handshake.
SOCKET = """(gameId) => new Promise((resolve) => {
  const socket = new WebSocket(`ws://${location.host}/ws/games/${gameId}/`);
  socket.onopen = () => { socket.close(); resolve("open"); };
  socket.onclose = () => resolve("closed");
})"""


@pytest.fixture
def private_game(alice: User, bob: User) -> Game:
    """Game 1 of bob and carl's fixture in alice's private club "Back Room"."""
    carl = UserFactory(username="carl", display_name="Carl")
    season = running_season(alice, [bob, carl], private=True, slug="back-room")
    table = season.fixtures[0].table
    assert table is not None and table.private
    table.belongs_to = "Winter league, season 1, matchday 1"
    table.belongs_to_link = "/clubs/back-room/winter/1/"
    table.save(update_fields=["belongs_to", "belongs_to_link"])
    return current_game(table)


def test_a_member_of_another_club_finds_no_private_table_nor_its_socket(
    page: Page, private_game: Game
) -> None:
    mallory = UserFactory(username="mallory", display_name="Mallory")
    clubs.create_club(mallory, "Other Club")
    log_in(page, mallory)

    for path in (f"/games/tables/{private_game.table_id}/", f"/games/{private_game.pk}/"):
        response = page.goto(path)
        assert response is not None and response.status == 404
        expect(page.get_by_role("heading", name="No such page")).to_be_visible()
        expect(page.locator("body")).not_to_contain_text("Winter league")

    assert page.evaluate(SOCKET, private_game.pk) == "closed"


def test_a_player_of_the_fixture_opens_its_game_and_socket(
    page: Page, private_game: Game, bob: User
) -> None:
    log_in(page, bob)

    response = page.goto(f"/games/{private_game.pk}/")

    assert response is not None and response.status == 200
    expect(page.get_by_role("link", name="Winter league, season 1, matchday 1")).to_be_visible()
    assert page.evaluate(SOCKET, private_game.pk) == "open"
