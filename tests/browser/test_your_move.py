"""Your move in the browser: the count in the header, the page, and Next to the other game."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.browser


def awaiting(user: User, opponent: User) -> Game:
    """A correspondence game where it is ``user``'s turn."""
    game = current_game(start_table(user, opponent, clock="correspondence"))
    if user_at(game, game.current_seat or 0) != user:
        services.draw(game.pk, opponent, game.version)
    return Game.objects.get(pk=game.pk)


def test_a_member_turns_from_one_awaiting_game_to_the_next(
    page: Page, alice: User, bob: User
) -> None:
    first = awaiting(alice, bob)
    second = awaiting(alice, UserFactory(username="dora", display_name="Dora"))
    log_in(page, alice)

    count = page.locator("#your-move-count")
    expect(count).to_have_text("2")
    expect(count).to_be_visible()

    page.get_by_role("link", name=re.compile(r"^Your move")).click()
    expect(page).to_have_url(re.compile(r"/games/your-move/$"))
    rows = page.locator(".your-move-item")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Bob")
    # The correspondence day counts down.
    expect(rows.first.locator(".countdown")).to_have_text(re.compile(r"23 h \d+ min"))

    page.get_by_role("link", name="Next game →").click()
    expect(page).to_have_url(re.compile(rf"/games/{first.pk}/$"))
    page.get_by_role("link", name="Next game awaiting you →").click()
    expect(page).to_have_url(re.compile(rf"/games/{second.pk}/$"))
    expect(page.locator("#game-status .turn-who")).to_have_text("Your turn")


def test_your_move_lists_a_game_whose_turn_comes_while_it_is_open(
    page: Page, alice: User, bob: User
) -> None:
    game = awaiting(bob, alice)
    log_in(page, alice)
    page.goto("/games/your-move/")
    expect(page.get_by_role("heading", name="Nothing awaits you")).to_be_visible()

    services.draw(game.pk, bob, game.version)

    # No reload: the header's socket tells the page, which asks for its list again.
    rows = page.locator(".your-move-item")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Bob")
    expect(page.get_by_role("heading", name="1 game awaiting you")).to_be_visible()
    expect(page.locator("#your-move-count")).to_have_text("1")


def test_back_to_your_move_shows_the_list_as_it_is_now(page: Page, alice: User, bob: User) -> None:
    game = awaiting(bob, alice)
    log_in(page, alice)
    page.goto("/games/your-move/")
    expect(page.get_by_role("heading", name="Nothing awaits you")).to_be_visible()
    page.get_by_role("link", name=re.compile(r"^Notices")).click()
    expect(page).to_have_url(re.compile(r"/notifications/$"))

    services.draw(game.pk, bob, game.version)
    page.go_back()

    expect(page).to_have_url(re.compile(r"/games/your-move/$"))
    expect(page.locator(".your-move-item")).to_have_count(1)
    expect(page.get_by_role("heading", name="1 game awaiting you")).to_be_visible()
