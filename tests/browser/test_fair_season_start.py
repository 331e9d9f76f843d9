"""The start preview in the browser: seven players at tables of three in divisions of
about three are cut 4 + 3 with Division 1's bye said; the organiser picks the usual
length, reads that it is unequal, goes back to the fair one and starts the season."""

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.table_settings import TableSettings
from leagues.models import League, Membership, Season
from leagues.services import clubs
from leagues.services.seasons import register
from tests.browser.test_games import alice, log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

__all__ = ["alice"]

SHOTS = os.environ.get("SCREENSHOTS_DIR")
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def test_the_organiser_sees_even_divisions_and_chooses_a_fair_length(
    page: Page, alice: User
) -> None:
    club = clubs.create_club(alice, "Tile Club")
    league = League.objects.create(
        club=club,
        name="Winter",
        slug="winter",
        seats=3,
        division_size=3,
        table_settings=TableSettings(clock="correspondence").to_dict(),
    )
    season = Season.objects.create(league=league, number=1, **league.house_rules())
    for name in NAMES:
        member = UserFactory(username=name.lower(), display_name=name)
        Membership.objects.create(club=club, user=member)
        register(season, member)

    log_in(page, alice)
    page.goto("/clubs/tile-club/winter/1/start/")
    expect(page.get_by_role("region", name="Division 1")).to_contain_text("4 players")
    expect(page.get_by_role("region", name="Division 2")).to_contain_text("3 players")
    expect(page.get_by_role("note")).to_contain_text(
        "Division 1 has 4 players at 3 seats: one player sits out each matchday."
    )
    length = page.get_by_label("Season length")
    expect(length).to_have_value("4")
    expect(page.locator(".facts")).to_contain_text(
        "Matchdays4 of 7 days · everyone plays the same number of fixtures"
    )
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/fair-start-desktop.png", full_page=True)

    length.select_option("2")
    page.get_by_role("button", name="Preview this length").click()
    expect(page.get_by_role("note")).to_contain_text(
        "With 2 matchdays the players of Division 1 play 1 or 2 fixtures"
    )
    page.set_viewport_size({"width": 390, "height": 844})
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/fair-start-unequal-phone.png", full_page=True)

    page.get_by_label("Season length").select_option("4")
    page.get_by_role("button", name="Preview this length").click()
    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_text("Season 1 has started: matchday 1 is open.")).to_be_visible()
    assert season.matchdays.count() == 4
    assert [d.entries.count() for d in season.divisions.order_by("level")] == [4, 3]
