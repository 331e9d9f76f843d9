"""An organiser's two pages about players who leave, in a real browser at desktop and
phone sizes: the close of a season, where they choose who takes the place a substitute
played (nobody unless they do), and the withdrawal's confirmation under the forfeit
rule, which says that the seat forfeits every game as it is dealt."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Entry, Membership, OnWithdrawal, Season
from leagues.services.organiser import replace_player
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")
SIZES = pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _season(alice: User) -> Season:
    """Alice organises (and plays in no fixture); Hank plays for Frank."""
    players = [
        UserFactory(username=name, display_name=name.title())
        for name in ("bob", "dave", "erin", "frank")
    ]
    running = running_season(alice, players)
    hank = UserFactory(username="hank", display_name="Hank")
    Membership.objects.create(club=running.club, user=hank)
    frank = Entry.objects.get(season=running.season, user=players[3])
    replace_player(frank, hank, alice, "Frank moves house")
    return running.season


@SIZES
def test_the_organiser_gives_a_replaced_players_place_to_the_substitute(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    alice: User = UserFactory(username="alice", display_name="Alice")
    season = _season(alice)
    log_in(page, alice)
    tag = "desktop" if size[0] > 400 else "phone"

    page.goto("/clubs/tile-club/winter/1/organiser/close/")
    choice = page.get_by_role("radiogroup", name="Frank's place")
    expect(choice.get_by_label("Nobody: the place is not carried over")).to_be_checked()
    expect(
        page.get_by_text("Frank, whom Hank replaced, is not registered for season 2")
    ).to_be_visible()
    shot(page, f"close-carry-over-{tag}")
    choice.get_by_label("Hank, who played for them").check()
    page.locator(".organiser-close").get_by_label("Reason").fill("The season is over.")
    page.get_by_role("button", name="Confirm: close season 1").click()

    expect(
        page.get_by_text("Season 1 is closed. Season 2 is open for registration.")
    ).to_be_visible()
    following = Season.objects.get(previous=season)
    names = set(following.entries.values_list("user__username", flat=True))
    assert names == {"bob", "dave", "erin", "hank"}


@SIZES
def test_the_withdrawal_under_the_forfeit_rule_says_nobody_waits(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    alice: User = UserFactory(username="alice", display_name="Alice")
    season = _season(alice)
    Season.objects.filter(pk=season.pk).update(on_withdrawal=OnWithdrawal.FORFEIT)
    bob = Entry.objects.get(season=season, user__username="bob")
    log_in(page, alice)
    tag = "desktop" if size[0] > 400 else "phone"

    page.goto(reverse("leagues:withdraw", args=[bob.pk]))
    expect(
        page.get_by_text("seat forfeits the game in play and every later game as it is dealt")
    ).to_be_visible()
    expect(page.get_by_text("they are not told of the matchdays to come")).to_be_visible()
    shot(page, f"withdraw-forfeit-{tag}")
