"""A suspended member in the browser: Play now answers with the refusal's page and its
sentence, Play again with the sentence in the game's message area (on the game's page)
or the page's messages (on the table's page); no table is set up."""

import random

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Table
from tests.browser.conftest import log_in
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over
from tests.moderation.conftest import site_moderator, suspend

pytestmark = pytest.mark.browser

__all__ = ["site_moderator"]  # fixtures shared with other tests

SENTENCE = "You are suspended from this site until"


def test_a_suspended_member_reads_why_play_now_and_play_again_are_refused(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = play_until_over(
        current_game(start_table(alice, bob, games_in_round=1)), random.Random(5)
    )
    suspend(bob, game, site_moderator)
    log_in(page, bob)

    page.get_by_role("button", name="Play now").click()
    expect(page.get_by_role("alert")).to_contain_text(SENTENCE)
    expect(page.get_by_role("heading", level=1)).to_have_text("You cannot do that")

    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="Play again").click()
    expect(page.locator("#game-message")).to_contain_text(SENTENCE)
    expect(page.locator("#game-message")).to_contain_text("so you cannot play here")

    page.goto(f"/games/tables/{game.table_id}/")
    page.get_by_role("button", name="Play again").click()
    expect(page.locator(".messages")).to_contain_text(SENTENCE)
    assert Table.objects.count() == 1


def test_with_debug_on_a_refused_draw_shows_in_the_message_area_not_instead_of_the_page(
    debug_page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    # `make run` turns DEBUG on, and django-htmx's debug script then replaced the whole
    # page with the bare refusal.
    page = debug_page
    game = current_game(start_table(alice, bob, first=1))
    suspend(bob, game, site_moderator)
    log_in(page, bob)

    page.goto(f"/games/{game.pk}/")
    page.wait_for_load_state("load")  # every script of the page listening
    page.get_by_role("button", name="Draw").click()

    expect(page.locator("#game-message")).to_contain_text(SENTENCE)
    expect(page.locator("#game-rack")).to_have_count(1)
    expect(page.get_by_role("button", name="Draw")).to_be_visible()
    assert game.moves.count() == 0
