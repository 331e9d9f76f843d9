"""Beside a disputed timeout, the evidence shows the moderator when the player's page was
not connected; the page fits a phone's width."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import page_connections
from games.models import Game
from moderation.models import Category
from moderation.selectors.page_connections import at
from tests.browser.conftest import log_in
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.moderation.conftest import open_case, site_moderator
from tests.moderation.evidence_support import claim, evidence_url, timed_out_after

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = ["_eager_celery", "site_moderator"]

SHOTS = os.environ.get("EVIDENCE_SCREENSHOTS", "")
"""A directory to keep screenshots of the page in (desktop and phone), when set."""


def timed_out_game(alice: User, bob: User) -> Game:
    """Alice's first turn ran out 30 minutes in; her page was closed from minute 3 to 35."""
    game = current_game(start_table(alice, bob, first=0))
    began = game.created_at
    first = page_connections.opened(game.pk, alice.pk, began)
    assert first is not None
    page_connections.closed(first, began + timedelta(minutes=3))
    page_connections.opened(game.pk, alice.pk, began + timedelta(minutes=35))
    return timed_out_after(game, 30)


def test_the_moderator_reads_the_connection_beside_a_timeout_on_desktop_and_phone(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = timed_out_game(alice, bob)
    began = game.created_at
    case = claim(open_case(game, alice, Category.CLOCK), site_moderator)
    expected = (
        f"Alice's page was not connected from {at(began + timedelta(minutes=3))} to "
        f"{at(began + timedelta(minutes=35))}; the turn ran out at "
        f"{at(began + timedelta(minutes=30))}."
    )
    log_in(page, site_moderator)
    page.set_viewport_size({"width": 1280, "height": 800})

    page.goto(evidence_url(case, 1))

    panel = page.locator("#evidence-turn")
    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 1: Alice")
    expect(panel.locator("[data-presence]")).to_have_text(f"Connection: {expected}")
    expect(page.locator('[data-presence-turn="1"]')).to_contain_text(expected)
    expect(panel.locator(".evidence-clock")).to_contain_text("UTC")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/evidence-presence-desktop.png", full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()

    expect(panel.locator("[data-presence]")).to_be_visible()
    # Nothing of the page reaches past the phone's width (the walk found 8 px too many).
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= 390, f"the page is {widest} px wide on a 390 px phone"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/evidence-presence-phone.png", full_page=True)


def test_a_player_of_the_game_never_reads_the_connections(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = timed_out_game(alice, bob)
    case = claim(open_case(game, alice, Category.CLOCK), site_moderator)
    log_in(page, bob)

    response = page.goto(evidence_url(case, 1))

    assert response is not None and response.status == 404
    expect(page.get_by_text("was not connected")).to_have_count(0)
