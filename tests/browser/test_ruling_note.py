"""A moderator's ruling note is for the game's parties, as the ruling form says (walk turn
4, W3): a logged-out visitor reading the public standings reads that a ruling corrected
the game, never the note that named and accused two members."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Fixture
from moderation.models import Category
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.conftest import club_moderator, league_fixture, league_game, open_case

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery", "club_moderator", "league_fixture", "league_game", "running"]

NOTE = "Bob and Dave: Bob drew three times while holding playable tiles, handing Dave the game."


def test_a_visitor_reads_the_correction_on_the_standings_but_not_the_note(
    page: Page,
    other_page: Page,
    running: RunningSeason,
    league_fixture: Fixture,
    league_game: object,
    club_moderator: User,
    dave: User,
) -> None:
    case = open_case(league_game, dave, Category.COLLUSION, fixture=league_fixture)  # type: ignore[arg-type]
    case.claimed_by, case.claimed_at = club_moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])
    log_in(page, club_moderator)
    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    page.get_by_label("Set the result").check()
    form = page.locator(".ruling-form")
    form.locator('input[name="score_0"]').fill("-30")
    form.locator('input[name="score_1"]').fill("30")
    form.locator('input[name="winner"][value="1"]').check()
    page.get_by_label("Note").fill(NOTE)
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()

    visitor = other_page
    visitor.goto(f"/clubs/{running.club.slug}/winter/1/standings/")
    expect(visitor.get_by_role("link", name="Log in").first).to_be_visible()  # a visitor
    corrections = visitor.locator(".corrections")
    expect(corrections).to_contain_text("Corrected by a ruling")
    expect(corrections).to_contain_text("Matchday 1, game 1")
    expect(visitor.locator("body")).not_to_contain_text("holding playable tiles")
    snap(visitor, "standings-ruling-visitor")
