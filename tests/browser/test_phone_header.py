"""The site's header on a phone (390 px wide): every link of a moderator's header, the
Moderation link and its count among them, is on screen and clear of the avatar."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import Page, expect

from moderation.models import SITE_MODERATORS, Category
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.browser

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def test_a_moderators_header_fits_a_phone_with_every_link_clear_of_the_avatar(
    page: Page,
) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    casual_game = current_game(start_table(alice, bob, first=0))
    moderator = UserFactory(username="sid", display_name="Sid", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    open_case(casual_game, alice, Category.ABUSE, accused=bob)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, moderator)
    page.goto("/moderation/")
    moderation = page.locator(".site-header .nav-moderation")
    expect(moderation).to_be_visible()
    expect(moderation.locator(".header-count")).to_have_text("1")
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/phone-header.png")
    avatar = box(page, ".site-header .avatar")
    links = page.locator(".site-header .main-nav a:visible")
    assert links.count() >= 4  # Play, Your move, Notices, Clubs, Moderation, Admin
    for index in range(links.count()):
        link = links.nth(index)
        found = link.bounding_box()
        assert found is not None
        name = link.inner_text()
        # On screen, inside the page's width, and left of the avatar: nothing covers it.
        assert found["x"] >= 0, name
        assert found["x"] + found["width"] <= avatar["x"], name
        assert found["x"] + found["width"] <= 390, name
        # Nothing is drawn over its middle (the nav does not clip it away).
        middle = (found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.textContent", middle
        )
        assert on_top is not None and name.split()[0] in on_top, (name, on_top)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    moderation.click()
    expect(page).to_have_url("/moderation/")
