"""The organisers' page of a season in a real browser: the close preview comes in by htmx,
the confirmation closes the matchday, and the history shows why."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.test_games import log_in
from tests.factories import UserFactory
from tests.leagues.conftest import running_season

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_an_organiser_closes_a_matchday_from_its_preview(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    alice: User = UserFactory(username="alice", display_name="Alice")
    players = [
        UserFactory(username=name, display_name=name.title()) for name in ("bob", "dave", "erin")
    ]
    running_season(alice, [*players, alice])
    log_in(page, alice)
    tag = "desktop" if size[0] > 400 else "phone"

    page.goto("/clubs/tile-club/winter/1/organiser/")
    expect(page.get_by_role("heading", name="Matchday 1")).to_be_visible()
    page.get_by_text("Close matchday…").click()
    expect(page.get_by_text("Before you confirm")).to_be_visible()
    shot(page, f"organiser-{tag}")
    page.locator(".organiser-close").get_by_label("Reason").fill("Everyone agreed to stop.")
    page.get_by_role("button", name="Confirm: close matchday 1").click()
    expect(page.get_by_text("Matchday 1 is closed.")).to_be_visible()
    expect(page.get_by_text("game 1 of 2 scored as it stands").first).to_be_visible()
    shot(page, f"organiser-closed-{tag}")

    page.goto("/clubs/tile-club/winter/1/history/")
    expect(page.get_by_text("Why: Everyone agreed to stop.").first).to_be_visible()
    shot(page, f"history-{tag}")
