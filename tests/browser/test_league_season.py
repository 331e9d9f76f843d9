"""A club's league season from end to end, in the browser.

An organiser creates a club and a league of 3-seat correspondence fixtures of 3 games,
opens its first season and invites six members, who join from their notifications and
register; the season starts; a member plays a fixture's game to its end (the others
resign: test helpers stand in for them) and sees the standings change live; a player
withdraws; the organiser settles the late fixtures by closing the matchday, closes the
season from its preview, and the next season's start preview shows the one division the
five players left make, and why the relegated player is in it.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Table
from leagues.models import Entry, Fixture, Season
from leagues.services.season_end import final_order
from tests.browser.conftest import log_in, wait_until
from tests.browser.test_clubs import snap
from tests.browser.test_games import open_game
from tests.factories import UserFactory
from tests.games.conftest import current_game

pytestmark = pytest.mark.browser


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture
def members(page: Page) -> list[User]:
    return [UserFactory(username=name.lower(), display_name=name) for name in NAMES]


def as_member(page: Page, user: User) -> None:
    page.context.clear_cookies()
    log_in(page, user)


def test_a_league_season_from_the_club_to_the_next_season(
    page: Page, other_page: Page, alice: User, members: list[User]
) -> None:
    log_in(page, alice)
    create_club_and_league(page)
    open_first_season(page)
    invite(page, members)
    for member in members:
        join_and_register(page, member)

    as_member(page, alice)
    page.goto("/clubs/tile-club/winter/1/")
    page.get_by_role("link", name="Preview the start").click()
    expect(page.get_by_role("region", name="Division 1", exact=True)).to_contain_text("Ann")
    expect(page.get_by_role("region", name="Division 2", exact=True)).to_contain_text("Fay")
    snap(page, "season-start-preview")
    page.get_by_role("button", name="Start the season").click()
    expect(page.get_by_text("Season 1 has started: matchday 1 is open.")).to_be_visible()
    season = Season.objects.get(league__slug="winter", number=1)
    assert season.status == Season.Status.RUNNING

    ann = members[0]
    fixture = Fixture.objects.get(matchday__season=season, seats__entry__user=ann)
    assert fixture.table is not None and fixture.table.clock == Table.Clock.CORRESPONDENCE
    assert fixture.table.games_in_round == 3
    play_a_game_and_watch_the_standings(page, other_page, ann, fixture)

    # Fay (division 2) withdraws from her page of leagues.
    fay = members[-1]
    as_member(page, fay)
    page.locator(".user-menu summary").click()
    page.get_by_role("link", name="My leagues").click()
    page.get_by_role("link", name="Withdraw from this season…").click()
    snap(page, "season-withdraw")
    page.get_by_role("button", name="Withdraw from the season").click()
    entry = Entry.objects.get(season=season, user=fay)
    assert entry.status == Entry.Status.WITHDRAWN

    # The organiser settles the fixtures still unfinished: matchday 1 is closed early.
    as_member(page, alice)
    page.goto("/clubs/tile-club/winter/1/organiser/")
    page.get_by_role("link", name="Close matchday…").first.click()
    expect(page.get_by_text(re.compile("settle \\d+ unfinished fixture"))).to_be_visible()
    page.get_by_role("textbox", name="Reason").fill("We stop at the first matchday.")
    page.get_by_role("button", name="Confirm: close matchday 1").click()
    expect(page.get_by_text("Matchday 1 is closed.")).to_be_visible()
    settled = Fixture.objects.filter(matchday__season=season, matchday__number=1)
    assert set(settled.values_list("status", flat=True)) <= {
        Fixture.Status.FINISHED,
        Fixture.Status.SETTLED,
    }

    # The season is closed from its preview, which names who goes up and who goes down.
    final = final_order(season)
    names = {e.pk: str(e.user) for e in season.entries.select_related("user")}
    relegated, promoted = names[final[0][1][-1]], names[final[1][1][0]]
    page.get_by_role("link", name="Close the season…").click()
    expect(page.get_by_text(f"{promoted}: up from division 2 to 1")).to_be_visible()
    # Five players left at tables of 3 make one division (3 + 2 could not play), which
    # the preview says instead of a relegation.
    expect(page.get_by_role("alert")).to_contain_text(
        f"{relegated} went down to Division 2, but there is only one division."
    )
    # Or it could close by itself after the grace period, announced to the players.
    expect(page.get_by_role("button", name="Announce the close")).to_be_visible()
    expect(page.get_by_text("changes only through a moderators' ruling")).to_be_visible()
    snap(page, "season-close-preview")
    page.get_by_label("Reason", exact=True).fill("A short first season.")
    page.get_by_role("button", name="Confirm: close season 1").click()
    expect(
        page.get_by_text("Season 1 is closed. Season 2 is open for registration.")
    ).to_be_visible()
    snap(page, "season-final-standings")

    # Season 2 starts from the seeds the close gave, in one division that can play.
    page.goto("/clubs/tile-club/winter/2/")
    page.get_by_role("link", name="Preview the start").click()
    only = page.get_by_role("region", name="Division", exact=True)
    expect(only).to_contain_text(promoted)
    expect(only).to_contain_text(relegated)
    expect(page.get_by_role("note")).to_contain_text(f"{relegated} went down to Division 2")
    expect(page.get_by_role("button", name="Start the season")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Fay")
    snap(page, "season-next-preview")


def create_club_and_league(page: Page) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Clubs").click()
    page.get_by_role("link", name="New club").click()
    page.get_by_label("Name").fill("Tile Club")
    page.get_by_role("button", name="Create the club").click()
    expect(page).to_have_url(re.compile(r"/clubs/tile-club/$"))

    page.get_by_role("link", name="New league").click()
    page.get_by_label("Name").fill("Winter league")
    page.get_by_label("Address").fill("winter")
    page.get_by_label("Players at a fixture").select_option("3")
    page.get_by_label("Division size").fill("3")
    page.get_by_label("Promoted and relegated").fill("1")
    page.locator("input[name=clock][value=correspondence]").check()
    page.get_by_label("Games per fixture").fill("3")
    snap(page, "league-new")
    page.get_by_role("button", name="Create the league").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Winter league")


def open_first_season(page: Page) -> None:
    page.get_by_role("button", name="Open season 1 for registration").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Season 1")


def invite(page: Page, members: list[User]) -> None:
    page.goto("/clubs/tile-club/members/")
    for member in members:
        page.get_by_label("Their username").fill(member.username)
        page.get_by_role("button", name="Invite", exact=True).click()
        expect(page.get_by_text(f"{member} is invited")).to_be_visible()


def join_and_register(page: Page, member: User) -> None:
    """The member follows the invitation from their notices, joins, and registers."""
    as_member(page, member)
    page.get_by_role("link", name=re.compile("Notices")).click()
    page.get_by_role("link", name=re.compile("invited you to join Tile Club")).first.click()
    page.get_by_role("button", name="Accept and join").click()
    expect(page.get_by_text("Welcome to Tile Club!")).to_be_visible()
    page.goto("/clubs/tile-club/winter/1/")
    page.get_by_role("button", name=re.compile("^Register")).click()
    expect(page.get_by_role("button", name="Withdraw my registration")).to_be_visible()


def play_a_game_and_watch_the_standings(
    page: Page, other_page: Page, ann: User, fixture: Fixture
) -> None:
    """Ann watches the standings while the game at her fixture ends: the two others
    resign it from their own game pages, and her page follows without a reload."""
    as_member(page, ann)
    page.add_init_script(
        "document.addEventListener('htmx:wsOpen', () => { window.standingsSocket = true; });"
    )
    page.goto("/clubs/tile-club/winter/1/standings/")
    row = page.locator(".standings-table tbody tr", has_text="Ann")
    expect(row.locator("td").nth(4)).to_have_text("0")  # games played
    wait_until(page, "() => window.standingsSocket === true")

    assert fixture.table is not None
    game = current_game(fixture.table)
    for seat in fixture.seats.select_related("entry__user").exclude(entry__user=ann):
        as_member(other_page, seat.entry.user)
        open_game(other_page, game)
        other_page.get_by_text("Resign this game…").click()
        other_page.get_by_role("button", name="Resign", exact=True).click()
        expect(other_page.locator("#game-message")).to_contain_text("You resigned this game.")

    # Pushed, then fetched again: allowed the page's whole timeout on a loaded machine.
    expect(row.locator("td").nth(4)).to_have_text("1", timeout=15_000)
    expect(row.locator("td").nth(5)).to_have_text("1")  # games won
    snap(page, "season-standings-live")
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_text("You win game 1!")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Winter league"))).to_be_visible()
