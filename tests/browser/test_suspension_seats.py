"""A moderator suspends a member playing a game: the preview says a bot takes the seat,
the opponent is told, and the table shows the bot playing for the member."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Seat
from moderation.models import Category
from tests.browser.conftest import log_in
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.moderation.conftest import open_case, site_moderator
from tests.moderation.evidence_support import claim

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery", "site_moderator"]

SHOTS = os.environ.get("EVIDENCE_SCREENSHOTS", "")


def test_a_suspension_hands_the_running_seat_to_a_bot_and_the_opponent_hears_of_it(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = current_game(start_table(alice, bob, first=0))
    case = claim(open_case(game, alice, Category.ABUSE, accused=bob), site_moderator)
    log_in(page, site_moderator)

    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    page.get_by_label("Suspend a member").check()
    page.locator('select[name="target"]').select_option(label="Bob")
    page.get_by_label("Note").fill("Insults in the chat, again.")
    page.get_by_role("button", name="Preview").click()

    preview = page.get_by_role("region", name="Preview: what the ruling changes")
    expect(preview).to_contain_text(
        f"A bot took Bob's seat at table {game.table_id} for the rest of its round."
    )
    assert Seat.objects.get(table=game.table, number=1).kind == Seat.Kind.PLAYER
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()
    assert Seat.objects.get(table=game.table, number=1).replaced_user == bob

    page.context.clear_cookies()
    log_in(page, alice)
    page.goto("/games/notifications/")
    expect(
        page.get_by_text("Bob may not play for now: a bot plays their seat for the rest")
    ).to_be_visible()
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_text("Bot (normal) for Bob").first).to_be_visible()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/suspension-opponent-game.png", full_page=True)
