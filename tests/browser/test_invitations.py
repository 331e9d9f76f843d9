"""An invitation in the browser: the header counts it, the home page lists it, and
taking the seat from there answers it."""

import os
import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.browser.conftest import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.browser


SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_an_invited_member_finds_the_invitation_at_home_and_takes_the_seat(
    page: Page, alice: User, bob: User
) -> None:
    table = services.create_table(
        alice,
        TableSettings(clock="correspondence"),
        [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob), SeatPlan.open()],
    )
    log_in(page, bob)

    expect(page.locator("#notification-count")).to_have_text("1")
    invitation = page.locator(".invitation-list .table-item")
    expect(invitation).to_have_count(1)
    expect(invitation).to_contain_text(f"Alice invited you to table {table.pk}")
    expect(page.get_by_text("No game in play")).to_have_count(0)
    if SCREENSHOTS:  # for a look at the page; nothing checks the picture
        page.screenshot(path=f"{SCREENSHOTS}/home-invitation-desktop.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{SCREENSHOTS}/home-invitation-phone.png", full_page=True)

    invitation.get_by_role("button", name="Take your seat").click()

    expect(page).to_have_url(re.compile(rf"/games/tables/{table.pk}/$"))
    expect(page.locator("#notification-count")).to_have_text("0")
    page.goto("/")
    expect(page.locator(".home-games")).to_have_count(0)  # htmx swapped the list in
    expect(page.locator(".invitation-list")).to_have_count(0)


def test_a_member_not_invited_sees_no_invitation(page: Page, alice: User, bob: User) -> None:
    services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )
    log_in(page, UserFactory(username="carol", display_name="Carol"))

    expect(page.get_by_text("No game in play")).to_be_visible()
    expect(page.locator(".invitation-list")).to_have_count(0)
    expect(page.locator("#notification-count")).to_have_text("0")
