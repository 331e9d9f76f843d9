"""A moderator pauses a game in play from the ruling form, with the preview saying what
happens to the clocks; the player to move then reads that the game is paused, sees no
clock counting and no move to make, and Your move says so too."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from moderation.models import Category
from tests.browser.conftest import log_in
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.games.players import user_at
from tests.moderation.conftest import open_case, site_moderator

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery", "site_moderator"]

PAUSED = "Paused by a moderator while a case is looked into"


def test_a_paused_game_says_so_to_the_player_to_move(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game: Game = current_game(start_table(alice, bob, first=0))
    case = open_case(game, bob, Category.COLLUSION, text="They play as a pair.")
    case.claimed_by, case.claimed_at = site_moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])

    log_in(page, site_moderator)
    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    page.get_by_label("Pause the game's clocks while the case is open").check()
    page.get_by_label("Note").fill("Held while we read the game.")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator(".preview-clocks")).to_contain_text("clocks stop")
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()
    expect(page.locator(".ruling-effects")).to_contain_text("clocks stopped")

    page.context.clear_cookies()
    log_in(page, user_at(game, 0))
    page.goto(f"/games/{game.pk}/")
    status = page.locator("#game-status")
    expect(status).to_contain_text(PAUSED)
    expect(status).not_to_contain_text("Your turn")
    expect(page.get_by_role("button", name="Draw a tile")).to_have_count(0)
    page.goto("/games/your-move/")
    expect(page.locator(".your-move-list")).to_contain_text(PAUSED)
