"""A club in the browser: its owner starts it and invites a member by username; the
member answers from their notification and finds the club's page."""

import os
import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Membership, Role
from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser


SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")


def snap(page: Page, name: str) -> None:
    """A picture of the page at desktop and phone sizes, when asked for (nothing checks it)."""
    if not SCREENSHOTS:
        return
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=f"{SCREENSHOTS}/{name}-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=f"{SCREENSHOTS}/{name}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


def test_an_owner_invites_a_member_who_joins_from_the_notification(
    page: Page, alice: User, bob: User
) -> None:
    log_in(page, alice)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Clubs").click()
    expect(page.get_by_text("No club yet.")).to_be_visible()
    snap(page, "clubs-empty")
    page.get_by_role("link", name="New club").click()
    page.get_by_label("Name").fill("Tile Club")
    page.get_by_label("Description").fill("We play on Tuesday evenings.\nNewcomers welcome.")
    snap(page, "club-new")
    page.get_by_role("button", name="Create the club").click()

    expect(page).to_have_url(re.compile(r"/clubs/tile-club/$"))
    expect(page.get_by_text("Tile Club is open.")).to_be_visible()
    page.get_by_role("link", name="Invite members").click()
    page.get_by_label("Their username").fill("nobody")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text("No member is called 'nobody'")).to_be_visible()
    page.get_by_label("Their username").fill("bob")
    page.get_by_role("button", name="Invite", exact=True).click()

    # htmx swapped the section in place: the invitation is listed, the form is empty.
    expect(page.get_by_text("Bob is invited")).to_be_visible()
    expect(page.locator(".invitation-list")).to_contain_text("@bob")
    expect(page.get_by_label("Their username")).to_have_value("")
    snap(page, "club-members-owner")

    page.context.clear_cookies()
    log_in(page, bob)
    expect(page.locator("#notification-count")).to_have_text("1")
    page.get_by_role("link", name=re.compile("Notices")).click()
    page.get_by_role("link", name=re.compile("Alice invited you to join Tile Club")).click()
    expect(page).to_have_url(re.compile(r"/clubs/tile-club/invitation/$"))
    snap(page, "club-invitation")
    page.get_by_role("button", name="Accept and join").click()

    expect(page).to_have_url(re.compile(r"/clubs/tile-club/$"))
    expect(page.get_by_text("Welcome to Tile Club!")).to_be_visible()
    expect(page.locator(".member-list")).to_contain_text("Bob")
    expect(page.locator(".member-list")).to_contain_text("Alice")
    expect(page.get_by_text("Newcomers welcome.")).to_be_visible()
    expect(page.locator("#notification-count")).to_have_text("0")
    snap(page, "club-page-member")
    page.get_by_text("Leave the club").click()
    expect(page.get_by_role("button", name="Yes, leave Tile Club")).to_be_visible()
    snap(page, "club-leave")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Clubs").click()
    expect(page.locator(".club-item")).to_contain_text("Member")
    snap(page, "clubs")
    page.get_by_label("Search clubs by name").fill("chess")
    expect(page.get_by_text("No club's name contains “chess”.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/clubs/\?q=chess$"))
    assert Membership.objects.get(club__slug="tile-club", user=bob).role == Role.MEMBER
