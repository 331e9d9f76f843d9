"""A league fixture due before the turn ends: the game page and "Your move" say when it
is settled, and their countdowns count to that moment, not to the turn's deadline."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games.models import Game
from tests.browser.conftest import Violations, log_in, new_page
from tests.browser.test_games import open_game
from tests.browser.test_signup import PASSWORD, sign_up
from tests.factories import UserFactory
from tests.leagues.conftest import running_season
from tests.leagues.test_open_next import add_matchday_2, finish_matchday_1

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")
WINTER_DEADLINE = datetime(2036, 1, 15, 3, 47, tzinfo=UTC)


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


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_an_organiser_opens_the_next_matchday_once_every_fixture_is_done(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tag = "desktop" if size[0] > 400 else "phone"
    alice: User = UserFactory(username="alice", display_name="Alice")
    players = [
        UserFactory(username=name, display_name=name.title())
        for name in ("bob", "dave", "erin", "frank")
    ]
    running = running_season(alice, players)
    following = add_matchday_2(running)
    log_in(page, alice)

    page.goto("/clubs/tile-club/winter/1/organiser/")
    card = page.locator("#next-matchday")
    expect(card).to_contain_text("may open early once every fixture before it is done (2 still")
    expect(card.get_by_role("button")).to_have_count(0)
    expect(page.locator(".overlap-note")).to_contain_text("Matchday 2 opens")

    finish_matchday_1(running)
    page.reload()
    shot(page, f"open-next-{tag}")
    page.get_by_role("button", name="Open matchday 2 now").click()
    expect(page.get_by_text("Matchday 2 is open now: its players are told.")).to_be_visible()
    expect(page.get_by_role("heading", name="Matchday 2")).to_be_visible()
    expect(page.locator("#next-matchday")).to_have_count(0)
    shot(page, f"open-next-opened-{tag}")
    following.refresh_from_db()
    assert following.status == following.Status.OPEN


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_sign_up_offers_the_browsers_time_zone_and_pages_show_times_in_it(
    browser: Browser,
    live_server_url: str,
    transactional_db: None,
    csp_violations: Violations,
    size: tuple[int, int],
) -> None:
    tag = "desktop" if size[0] > 400 else "phone"
    page = new_page(
        browser,
        live_server_url,
        csp_violations,
        timezone_id="Asia/Tokyo",
        viewport={"width": size[0], "height": size[1]},
    )
    try:
        page.goto("/accounts/signup/")
        expect(page.get_by_label("Time zone")).to_have_value("Asia/Tokyo")
        shot(page, f"signup-zone-{tag}")
        sign_up(page, "nina", "Nina", PASSWORD)
        expect(page.get_by_role("heading", level=1)).to_have_text("Good to see you, Nina.")
        nina = User.objects.get(username="nina")
        assert nina.time_zone == "Asia/Tokyo"

        # Her fixture's deadline, 03:47 UTC, is shown at 12:47 in Tokyo, named.
        alice: User = UserFactory(username="alice", display_name="Alice")
        running_season(alice, [nina, alice], deadline=WINTER_DEADLINE)
        page.goto("/clubs/me/leagues/")
        expect(page.get_by_text("due Tue 15 Jan, 12:47 JST")).to_be_visible()
        page.goto("/accounts/profile/")
        expect(page.get_by_label("Time zone")).to_have_value("Asia/Tokyo")
        shot(page, f"profile-zone-{tag}")
    finally:
        page.context.close()
    assert not csp_violations, csp_violations


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_league_form_warns_of_fixtures_that_outlast_a_matchday(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tag = "desktop" if size[0] > 400 else "phone"
    alice: User = UserFactory(username="alice", display_name="Alice")
    bob: User = UserFactory(username="bob", display_name="Bob")
    # 2 players, 2 games a fixture, 1 day a turn, 7-day matchdays: up to 48 days.
    running_season(alice, [alice, bob])
    log_in(page, alice)

    page.goto("/clubs/tile-club/winter/edit/")
    warning = page.locator(".league-form .pace-warning")
    expect(warning).to_contain_text("A fixture takes about 48 turns")
    expect(page.get_by_label("A vacation extends its player's fixture")).to_be_checked()
    warning.scroll_into_view_if_needed()
    shot(page, f"league-form-pace-{tag}")

    page.get_by_role("button", name="Save the house rules").click()
    expect(page.locator(".messages")).to_contain_text("longer than a matchday of 7 days")
    rules = page.locator(".house-rules-card")
    expect(rules.locator(".pace-warning")).to_contain_text("up to 48 days")
    expect(rules).to_contain_text("a vacation during a matchday extends its player's fixture")
    shot(page, f"league-page-pace-{tag}")
