"""The evidence of a case on a phone (walk turn 4, W6): the page fits 390 px, its racks
wrapping as on the replay and the game page (the deal's 14-tile racks made it 417 px).

The game is one whose racks grew long (each player drew 25 times: 39 tiles a rack at the
last turn, some 1,100 px of tiles in a row). Not a reproduction of the walk's overflow: on
this machine such racks wrap even without moderation.css's rules (the tiles are inline
boxes), so the test guards the width rather than failing on the old code."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from tests.browser.conftest import Violations, log_in, new_page
from tests.games.conftest import _eager_celery, current_game
from tests.leagues.conftest import running
from tests.moderation.conftest import club_moderator, draw_turns, league_fixture, open_case
from tests.moderation.evidence_support import claim, evidence_url

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = ["_eager_celery", "club_moderator", "league_fixture", "running"]

DRAWS = 50
"""Turns drawn in the game, 25 a player: the last turn's racks hold 39 tiles each."""

SHOTS = os.environ.get("SCREENSHOTS_DIR")

# A phone as the walk's was: its width, touch, and the viewport meta honoured.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

WIDEST = """() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"""


def test_the_evidence_page_fits_a_phone(
    browser: Browser,
    live_server_url: str,
    csp_violations: Violations,
    transactional_db: None,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
) -> None:
    game = long_racked_game(league_fixture)
    case = claim(open_case(game, bob, fixture=league_fixture), club_moderator)
    page = new_page(browser, live_server_url, csp_violations, **PHONE)
    log_in(page, club_moderator)

    page.goto(evidence_url(case, turn=DRAWS))
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Game {game.number}")
    expect(page.locator(".evidence-deal .tiles-row").first).to_be_visible()
    after = page.locator("#evidence-turn .evidence-after").first
    expect(after.locator(".tile")).to_have_count(14 + DRAWS // 2)

    if SHOTS:
        page.screenshot(path=f"{SHOTS}/evidence-phone.png", full_page=True)
    assert page.evaluate(WIDEST) <= 390
    warning = page.locator(".evidence-secret").bounding_box()
    assert warning is not None and warning["x"] + warning["width"] <= 390
    page.context.close()
    assert not csp_violations


def long_racked_game(fixture: Fixture) -> Game:
    """The fixture's game 1 after ``DRAWS`` draws, in play (a game in play is evidence too)."""
    assert fixture.table is not None
    game = current_game(fixture.table)
    draw_turns(game, DRAWS)
    return game
