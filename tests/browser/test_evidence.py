"""The evidence of a case in the browser: its moderator reads every rack turn by turn and
the solver's line; a player of the game finds no such page."""

from __future__ import annotations

import os
import random

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from moderation.models import SITE_MODERATORS, Category
from moderation.selectors.evidence import game_evidence
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.games.players import play_until_over
from tests.leagues.conftest import running
from tests.moderation.conftest import (
    club_moderator,
    league_fixture,
    league_game,
    open_case,
)
from tests.moderation.evidence_support import claim, evidence_url

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = [
    "_eager_celery",
    "club_moderator",
    "league_fixture",
    "league_game",
    "running",
]

SHOTS = os.environ.get("EVIDENCE_SCREENSHOTS", "")
"""A directory to keep screenshots of the page in (desktop and phone), when set."""


def test_the_moderator_reads_the_racks_turn_by_turn_and_the_solvers_line(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
) -> None:
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)
    racks = league_game.engine_state().racks
    log_in(page, club_moderator)

    page.goto(evidence_url(case))

    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Game {league_game.number}")
    panel = page.locator("#evidence-turn")
    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 1: Bob")
    expect(panel.locator("[data-rack-seat]")).to_have_count(2)
    expect(panel.locator("[data-solver-line]")).to_contain_text("Solver:")
    expect(panel.locator("[data-solver-line]")).to_contain_text("drew")
    expect(page.locator(".evidence-pending")).to_have_count(0)
    expect(page.locator(".evidence-table tbody tr")).to_have_count(5)

    panel.locator('[data-evidence-nav="next"]').click()

    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 2: Dave")
    assert page.url.endswith("?turn=2")
    page.locator(".evidence-table tbody tr").nth(4).get_by_role("link").click()
    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 5: Bob")
    expect(panel.locator(".replay-events")).to_contain_text("Dave resigned.")
    # The last turn's racks are the racks the game ended with.
    for seat, rack in enumerate(racks):
        shown = panel.locator(f'[data-rack-seat="{seat}"] .evidence-after .tile')
        expect(shown).to_have_count(len(rack))
    if SHOTS:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/evidence-desktop.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{SHOTS}/evidence-phone.png", full_page=True)


def test_a_player_of_the_game_finds_no_evidence(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
) -> None:
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)
    log_in(page, bob)

    response = page.goto(evidence_url(case))

    assert response is not None and response.status == 404
    expect(page.locator("[data-rack-seat]")).to_have_count(0)


@pytest.fixture
def site_moderator(page: Page) -> User:
    # The live server's database is flushed between tests: the group is made again.
    user = UserFactory(username="sid", display_name="Sid")
    user.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    return user


def test_a_play_shows_which_tiles_came_from_the_rack_and_which_set(
    page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = play_until_over(current_game(start_table(alice, bob, first=0)), random.Random(3))
    case = claim(open_case(game, alice, Category.OTHER), site_moderator)
    turns = game_evidence(game).turns
    step = next(t.replay.step for t in turns if t.replay.kind == "play")
    log_in(page, site_moderator)

    page.goto(evidence_url(case, step))

    panel = page.locator("#evidence-turn")
    expect(panel.locator(".evidence-origin", has_text="rack").first).to_be_visible()
    expect(panel.locator("[data-solver-line]")).to_contain_text("laid")
    # Before and after on lines of their own, the tiles that left the mover's rack marked.
    mover = panel.locator(".final-rack.is-mover")
    expect(mover.locator(".evidence-rack-line")).to_have_count(2)
    expect(mover.locator(".evidence-rack-line").first.locator(".tile.is-new").first).to_be_visible()
    if SHOTS:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/evidence-play.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(panel.locator("[data-solver-line]")).to_contain_text("laid")
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= 390, f"the page is {widest} px wide on a 390 px phone"
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/evidence-play-phone.png", full_page=True)


def test_a_collusion_case_shows_the_pairs_history(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
) -> None:
    case = claim(
        open_case(league_game, bob, Category.COLLUSION, fixture=league_fixture, accused=dave),
        club_moderator,
    )
    log_in(page, club_moderator)

    page.goto(evidence_url(case))

    pairs = page.locator(".evidence-pairs")
    expect(pairs.get_by_role("heading", level=3)).to_have_text("Dave and Bob")
    expect(pairs).to_contain_text("1 game together, this one included: Dave won 0, Bob won 1.")
    if SHOTS:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=f"{SHOTS}/evidence-collusion.png", full_page=True)
