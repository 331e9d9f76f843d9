"""A disclosure a player opened on the game page stays open when a push re-renders its
part: the resign panel, open while the other player moves, still takes the click."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.conftest import log_in
from tests.browser.test_games import open_game
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.browser


def test_the_resign_panel_stays_open_across_a_push(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob, first=0))
    log_in(page, alice)
    log_in(other_page, bob)
    open_game(page, game)
    open_game(other_page, game)
    panel = other_page.locator("details.resign")
    other_page.get_by_text("Resign this game…").click()
    expect(panel).to_have_attribute("open", "")
    other_page.get_by_role("button", name="Resign", exact=True).focus()

    # Alice draws: Bob's rack and its controls are rendered afresh by the push.
    page.get_by_role("button", name="Draw a tile").click()

    expect(other_page.locator("#game-status .turn-who")).to_have_text("Your turn")
    expect(other_page.get_by_role("button", name="Draw a tile")).to_be_visible()
    expect(panel).to_have_attribute("open", "")
    resign = other_page.get_by_role("button", name="Resign", exact=True)
    expect(resign).to_be_visible()
    expect(resign).to_be_focused()
    resign.click()
    expect(other_page.locator("#game-message")).to_contain_text("You resigned this game.")
    expect(page.locator("#game-status .result")).to_contain_text("You win game 1!")


def test_a_closed_panel_stays_closed_across_a_push(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob, first=0))
    log_in(page, alice)
    log_in(other_page, bob)
    open_game(page, game)
    open_game(other_page, game)
    other_page.get_by_text("Resign this game…").click()
    other_page.get_by_text("Resign this game…").click()  # opened, then closed again

    page.get_by_role("button", name="Draw a tile").click()

    expect(other_page.locator("#game-status .turn-who")).to_have_text("Your turn")
    expect(other_page.locator("details.resign")).not_to_have_attribute("open", "")
