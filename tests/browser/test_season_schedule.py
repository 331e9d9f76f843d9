"""The season's schedule in the browser (walk W20): the organiser reads who meets whom
on each matchday, with its dates, in the start preview; after the start a player reads
the matchdays to come with their fixtures on the season page. On a desktop and on a
390 px phone, with nothing wider than the screen."""

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Fixture, Matchday, Season
from tests.browser.conftest import log_in
from tests.browser.test_fair_season_start import seven_registered

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")
SIZES = [(1280, 800), (390, 844)]


def assert_fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def players_of(fixture: Fixture) -> str:
    return " · ".join(s.entry.user.display_name for s in fixture.seats.order_by("number"))


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_organiser_and_the_players_read_the_schedule(
    page: Page, alice: User, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tag = "desktop" if size[0] > 400 else "phone"
    season: Season = seven_registered(alice)
    log_in(page, alice)

    page.goto("/clubs/tile-club/winter/1/start/")
    schedule = page.get_by_role("region", name="Who meets whom")
    expect(schedule.locator("details[open] summary")).to_contain_text("Matchday 1")
    expect(schedule.locator("details[open] summary")).to_contain_text("deadline")
    expect(schedule.locator("details[open] .fixture")).to_have_count(2)
    expect(schedule.locator("details").nth(3)).to_contain_text("Matchday 4")
    schedule.get_by_text("Matchday 3").click()
    expect(schedule.locator("details").nth(2).locator(".fixture")).to_have_count(2)
    assert_fits(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/schedule-preview-{tag}.png", full_page=True)

    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_text("Season 1 has started: matchday 1 is open.")).to_be_visible()
    later = Matchday.objects.get(season=season, number=3)
    fixture = later.fixtures.first()
    assert fixture is not None
    player = fixture.seats.order_by("number").first().entry.user  # type: ignore[union-attr]

    log_in(page, player)
    page.goto("/clubs/tile-club/winter/1/")
    matchday = page.locator("details.matchday").nth(2)
    expect(matchday.locator("summary")).to_contain_text("Matchday 3")
    expect(matchday.locator("summary")).to_contain_text("Scheduled")
    expect(matchday.get_by_text(players_of(fixture))).to_be_visible()
    assert_fits(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/schedule-season-{tag}.png", full_page=True)
