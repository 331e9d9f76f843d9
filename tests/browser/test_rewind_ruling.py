"""A moderator rewinds a game in play from the ruling form: the form and its preview
say what a rewind cannot hide and offer Void instead; the players then read the rewind
in their move log, and not the turns it undid."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Game
from moderation.models import Category
from moderation.services.previews import REWIND_CANNOT_HIDE
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.games.players import user_at
from tests.moderation.conftest import open_case, site_moderator

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = ["_eager_celery", "site_moderator"]

REWIND = "Rewind to the start of a turn"


def test_a_rewind_says_what_it_cannot_hide_and_the_players_log_leaves_out_the_undone_turns(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game: Game = current_game(start_table(alice, bob, first=0))
    for _ in range(3):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    case = open_case(game, bob, Category.BUG, text="My draw went wrong.")
    case.claimed_by, case.claimed_at = site_moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])

    log_in(page, site_moderator)
    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    form = page.locator(".ruling-form")
    expect(form.get_by_text("What a rewind cannot hide")).to_be_hidden()
    page.get_by_label(REWIND).check()
    expect(form.locator(".cannot-hide")).to_have_text(REWIND_CANNOT_HIDE)
    expect(form.locator(".cannot-hide")).to_contain_text("seen by everyone at the table")
    # Void is the way out the sentence names; on a game in play the form greys it out,
    # with why (a game is voided once it has ended).
    expect(form.locator(".cannot-hide")).to_contain_text("void it instead")
    expect(page.get_by_label("Void the game")).to_be_disabled()

    page.get_by_label("The start of turn").fill("2")
    page.get_by_label("Note").fill("A bug dealt Bob's draw of turn 2.")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator(".preview-cannot-hide")
    expect(preview).to_contain_text("tiles laid on the table in the turns it undoes")
    expect(preview).to_contain_text("void it instead")
    snap(page, "rewind-ruling-preview")
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()

    page.context.clear_cookies()
    log_in(page, bob)
    page.goto(f"/games/{game.pk}/")
    log = page.locator("#game-log .move-entry")
    expect(log).to_have_count(2)
    expect(log.first).to_contain_text("took the game back to the start of turn 2")
    expect(page.locator('#game-log [data-seq="2"]')).to_have_count(0)
