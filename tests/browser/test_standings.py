"""The standings page in the browser: a division's crosstable loads when first opened."""

import pytest
from playwright.sync_api import Page, expect

from tests.leagues.standings_support import small_season

pytestmark = pytest.mark.browser


def test_opening_a_divisions_crosstable_loads_it_from_its_own_url(page: Page) -> None:
    built = small_season()
    built.play(1, ["ann", "bob"], [30, -30], [12, -12])
    crosstables: list[str] = []
    page.on("request", lambda r: crosstables.append(r.url) if "/crosstable/" in r.url else None)

    page.goto(f"/clubs/{built.club.slug}/winter/1/standings/")
    expect(page.locator(".standings-table tbody tr")).to_have_count(4)
    expect(page.locator(".crosstable-table")).to_have_count(0)
    assert crosstables == []
    page.get_by_text("Who met whom").click()

    table = page.locator(".crosstable-table")
    expect(table).to_be_visible()
    expect(table.locator('td[title="2 games together"]').first).to_have_text("2\u20130")
    page.get_by_text("Who met whom").click()  # closed and opened again: fetched once
    page.get_by_text("Who met whom").click()
    expect(table).to_be_visible()
    assert len(crosstables) == 1
