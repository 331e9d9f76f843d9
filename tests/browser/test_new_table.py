"""The new table page in a real browser: the options the engine describes, filled in by
the chosen preset, house rules marked and counted, and shown on the table's page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Table
from tests.browser.conftest import log_in


def test_a_preset_fills_in_the_options_and_house_rules_are_marked(page: Page, alice: User) -> None:
    log_in(page, alice)
    page.goto("/games/new/")
    page.get_by_text("All options").click()
    wrap = page.get_by_label("13-1 runs")
    expect(page.get_by_role("heading", name="Sets and jokers")).to_be_visible()
    expect(wrap).not_to_be_checked()

    page.get_by_label("Start from").select_option("keadle_house")
    expect(wrap).to_be_checked()
    expect(page.get_by_label("Meld values")).to_have_value("house")
    expect(page.locator("[data-changed-count]")).to_have_text("")

    page.get_by_label("Joker left on a rack").select_option("25")
    expect(page.locator("[data-changed-count]")).to_have_text("(1 house rule)")
    expect(page.locator('[data-option="joker_penalty"]')).to_have_class(
        re.compile(r"\bis-changed\b")
    )
    page.get_by_role("button", name="Create the table").click()

    expect(
        page.get_by_text("Joker left on a rack: 25 points (instead of 30 points)")
    ).to_be_visible()
    table = Table.objects.get()
    assert (table.preset, table.options) == ("keadle_house", {"joker_penalty": 25})
