"""A league fixture due before the turn ends: the game page and "Your move" say when it
is settled, and their countdowns count to that moment, not to the turn's deadline."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from tests.browser.test_games import log_in, open_game
from tests.factories import UserFactory
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_game_page_shows_the_fixture_deadline_that_comes_first(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tag = "desktop" if size[0] > 400 else "phone"
    alice: User = UserFactory(username="alice", display_name="Alice")
    bob, dave = (UserFactory(username=name, display_name=name.title()) for name in ("bob", "dave"))
    # The matchday ends in 3 hours; bob's correspondence turn would last a day.
    due = timezone.now() + timedelta(hours=3)
    running = running_season(alice, [bob, dave], deadline=due)
    game = Game.objects.get(table_id=running.fixtures[0].table_id)
    log_in(page, bob)

    open_game(page, game)
    status = page.locator("#game-status")
    expect(status.locator(".fixture-due")).to_contain_text("Fixture due")
    expect(status.locator(".fixture-due")).to_contain_text("UTC: the game is settled then")
    # The countdown counts to the fixture's deadline: under 3 hours, not a day.
    expect(status.locator(".countdown")).to_have_text(re.compile(r"^2 h \d\d min$"))
    shot(page, f"fixture-due-game-{tag}")

    page.goto("/games/your-move/")
    item = page.locator(".your-move-item")
    expect(item.locator("[data-fixture-due]")).to_contain_text("fixture due")
    expect(item.locator(".countdown")).to_have_text(re.compile(r"^2 h \d\d min$"))
    shot(page, f"fixture-due-your-move-{tag}")
