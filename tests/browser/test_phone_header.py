"""The site's header on a phone (390 x 844, a touch screen): one row (the logo, a menu
button, the avatar) whose menu holds every link of a moderator's header, Home and the
Moderation link with its count among them, opened by mouse, touch or keyboard; on a
desktop the links stay in the header. And the replay's keyboard hints show only where
there is a mouse or a pad."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Game
from moderation.models import SITE_MODERATORS, Category
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.browser

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")
LINKS = ["Home", "Play", "Your move", "Notices", "Clubs", "Moderation", "Admin"]


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


@pytest.fixture
def moderator(db: None) -> User:
    """A site moderator and staff member (every link of the header) with one open case."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    casual_game = current_game(start_table(alice, bob, first=0))
    moderator = UserFactory(username="sid", display_name="Sid", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    open_case(casual_game, alice, Category.ABUSE, accused=bob)
    return moderator


def test_a_moderators_header_is_one_row_on_a_phone_with_every_link_in_its_menu(
    phone: Page, moderator: User
) -> None:
    log_in(phone, moderator)
    phone.goto("/moderation/")
    header = box(phone, ".site-header")
    assert header["height"] <= 64, header
    menu = phone.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(phone.locator(".site-header .main-nav")).to_be_hidden()
    if SCREENSHOTS:
        phone.screenshot(path=f"{SCREENSHOTS}/phone-header.png")

    menu.tap()

    expect(menu).to_have_attribute("aria-expanded", "true")
    nav = phone.get_by_role("navigation", name="Main")
    for name in LINKS:
        link = nav.get_by_role("link", name=name, exact=False).first
        expect(link).to_be_visible()
        found = link.bounding_box()
        assert found is not None
        assert found["x"] >= 0 and found["x"] + found["width"] <= 390, name
    expect(nav.locator(".nav-moderation .header-count")).to_have_text("1")
    assert box(phone, ".site-header")["height"] <= 64  # the menu lies over the page
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if SCREENSHOTS:
        phone.screenshot(path=f"{SCREENSHOTS}/phone-menu.png")
    nav.get_by_role("link", name="Clubs").tap()
    expect(phone).to_have_url("/clubs/")


def test_the_menu_opens_and_closes_from_the_keyboard(phone: Page, moderator: User) -> None:
    log_in(phone, moderator)
    phone.goto("/games/")
    menu = phone.get_by_role("button", name="Menu")
    menu.focus()

    phone.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    phone.keyboard.press("Tab")
    expect(phone.get_by_role("link", name="Home")).to_be_focused()
    phone.keyboard.press("Escape")

    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(phone.locator(".site-header .main-nav")).to_be_hidden()
    phone.keyboard.press("Space")
    expect(phone.get_by_role("link", name="Home")).to_be_visible()


def test_on_a_desktop_the_links_stay_in_the_header(page: Page, moderator: User) -> None:
    log_in(page, moderator)
    page.goto("/moderation/")

    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    nav = page.get_by_role("navigation", name="Main")
    for name in LINKS:
        expect(nav.get_by_role("link", name=name, exact=False).first).to_be_visible()
    assert box(page, ".site-header")["height"] <= 72
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/desktop-header.png")


@pytest.fixture
def finished(alice: User, bob: User) -> Game:
    game = current_game(start_table(alice, bob, first=0))
    services.resign(game.pk, bob)
    return game


def test_the_replay_gives_keyboard_hints_only_where_there_is_a_mouse(
    page: Page, phone: Page, alice: User, finished: Game
) -> None:
    for browser in (page, phone):
        log_in(browser, alice)
        browser.goto(f"/games/{finished.pk}/replay/")
        expect(browser.locator(".replay-position")).to_be_visible()

    expect(page.locator(".replay-keys")).to_be_visible()
    expect(phone.locator(".replay-keys")).to_be_hidden()
