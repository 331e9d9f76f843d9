"""The organisers' page offers only what its reader may do (walk W23, review S5): alice,
who plays erin-alice, reads in place of the tools over her own fixture why they are not
hers; olga, suspended from the club, reads on the page why she may not use it."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Membership, Role
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason, running_season
from tests.moderation.conftest import suspend

SHOTS = os.environ.get("SCREENSHOTS_DIR")
PAGE = "/clubs/tile-club/winter/1/organiser/"


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def alice_plays_erin() -> tuple[User, RunningSeason]:
    """Alice owns the club and plays erin-alice; bob-dave is the other fixture."""
    alice: User = UserFactory(username="alice", display_name="Alice")
    players = [UserFactory(username=name, display_name=name.title()) for name in ("bob", "dave")]
    erin = UserFactory(username="erin", display_name="Erin")
    return alice, running_season(alice, [*players, erin, alice])


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_page_says_which_tools_are_not_hers_instead_of_offering_them(
    page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    alice, running = alice_plays_erin()
    bob_dave, erin_alice = running.fixtures
    log_in(page, alice)
    tag = "desktop" if size[0] > 400 else "phone"

    page.goto(PAGE)
    own = page.locator(".organiser-fixture").filter(has_text=f"Table {erin_alice.table_id}")
    expect(own.get_by_text("Move its deadline: not yours to move.")).to_be_visible()
    expect(
        own.get_by_text(f"You play in the fixture at table {erin_alice.table_id}.")
    ).to_be_visible()
    expect(own.locator("summary", has_text="Move its deadline")).to_have_count(0)
    other = page.locator(".organiser-fixture").filter(has_text=f"Table {bob_dave.table_id}")
    expect(other.locator("summary", has_text="Move its deadline")).to_be_visible()
    expect(page.get_by_text("Extend the deadline: not yours to extend.")).to_be_visible()
    shot(page, f"organiser-refusals-{tag}")


def test_a_suspended_organiser_reads_why_the_page_is_refused(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    alice, running = alice_plays_erin()
    olga: User = UserFactory(username="olga", display_name="Olga")
    Membership.objects.create(club=running.club, user=olga, role=Role.ORGANISER)
    assert running.fixtures[0].table is not None
    suspend(olga, current_game(running.fixtures[0].table), alice, club=running.club)
    log_in(page, olga)

    response = page.goto(PAGE)
    assert response is not None and response.status == 403
    expect(page.get_by_text("You are suspended from the club Tile Club until")).to_be_visible()
    expect(page.get_by_text("while it lasts you do not organise or moderate there")).to_be_visible()
    shot(page, "organiser-suspended-phone")
