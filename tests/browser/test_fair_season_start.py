"""The start preview in the browser: seven players at tables of three in divisions of
about three are cut 4 + 3 with Division 1's bye said; the organiser picks the usual
length, reads that it is unequal, goes back to the fair one and starts the season. The
close preview says when a division passes its size to keep a promotion."""

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models.table_settings import TableSettings
from leagues.models import League, Membership, Role, Season
from leagues.services import clubs
from leagues.services.seasons import register
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.leagues.test_fair_seasons import walked_season

pytestmark = pytest.mark.browser


SHOTS = os.environ.get("SCREENSHOTS_DIR")
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")


def seven_registered(alice: User) -> Season:
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
    return season


def test_the_organiser_sees_even_divisions_and_chooses_a_fair_length(
    page: Page, alice: User
) -> None:
    season = seven_registered(alice)

    log_in(page, alice)
    page.goto("/clubs/tile-club/winter/1/start/")
    expect(page.get_by_role("region", name="Division 1", exact=True)).to_contain_text("4 players")
    expect(page.get_by_role("region", name="Division 2", exact=True)).to_contain_text("3 players")
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
        "With 2 matchdays the players of Division 1 play 1 or 2 fixtures, so the standings "
        "rank by points per game played"
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


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_close_preview_says_a_promotion_is_kept(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    olga = UserFactory(username="olga", display_name="Olga")
    players = [
        UserFactory(username=name, display_name=name.title())
        for name in ("bob", "dave", "erin", "hal")
    ]
    running = walked_season(players[0], players)
    Membership.objects.create(club=running.club, user=olga, role=Role.ORGANISER)
    log_in(page, olga)

    page.goto("/clubs/tile-club/winter/1/organiser/close/")
    warnings = page.get_by_role("alert")
    expect(warnings).to_contain_text(
        "One division of 6 players rather than divisions of 3 + 3 players, so that Fay keeps "
        "the division the last close moved them to"
    )
    expect(warnings).to_contain_text("Hal went down to Division 2, but there is only one division.")
    expect(page.get_by_text("Fay: up from division 2 to 1")).to_be_visible()
    if SHOTS:
        tag = "desktop" if size[0] > 400 else "phone"
        page.screenshot(path=f"{SHOTS}/fair-close-{tag}.png", full_page=True)


def test_an_unequal_length_ranks_the_standings_per_game_and_says_so(
    page: Page, alice: User
) -> None:
    seven_registered(alice)
    log_in(page, alice)
    page.goto("/clubs/tile-club/winter/1/start/?matchdays=2")
    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_text("Season 1 has started: matchday 1 is open.")).to_be_visible()
    expect(page.get_by_text("By points per game played: this season")).to_be_visible()

    page.goto("/clubs/tile-club/winter/1/standings/")
    expect(page.get_by_role("columnheader", name="Per game").first).to_be_visible()
    expect(page.locator("[data-explains=points]")).to_contain_text(
        "so the standings rank by points per game played"
    )
    page.set_viewport_size({"width": 390, "height": 844})
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/fair-standings-per-game-phone.png", full_page=True)
