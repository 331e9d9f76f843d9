"""The standings table in a real browser, desktop (1280 px) and phone (390 px): every
column that matters fits without scrolling sideways, the viewer's own row is marked,
the tiebreaks mark the columns they read instead of repeating them, and the best and
worst ranks show once they say something. An opened crosstable survives a push."""

from __future__ import annotations

import os
import time

import pytest
from playwright.sync_api import Locator, Page, expect

from leagues.consumers import publish_season_changed
from tests.browser.conftest import log_in
from tests.leagues.standings_support import SmallSeason, small_season

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")
TIEBREAKS = ["fixtures_won", "head_to_head", "games_won", "total_score"]


def nearly_over() -> SmallSeason:
    """Two matchdays of four players, all played but one game: the bounds have narrowed."""
    built = small_season(("ann", "bob", "cy", "dee"), tiebreaks=TIEBREAKS)
    built.play(1, ["ann", "bob"], [30, -30], [12, -12])
    built.play(1, ["cy", "dee"], [10, -10], [-4, 4])
    built.play(2, ["ann", "cy"], [-5, 5], [6, -6])
    built.play(2, ["bob", "dee"], [-5, 5], complete=False)
    return built


def right_edge(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_standings_table_fits_and_marks_the_viewer(page: Page, size: tuple[int, int]) -> None:
    built = nearly_over()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    log_in(page, built.players["cy"])

    page.goto("/clubs/tile-club/winter/1/standings/")

    table = page.locator(".standings-table")
    expect(table).to_be_visible()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/standings-{size[0]}.png", full_page=True)
    # Nothing is cut: the table ends inside its scrolling box and inside the window.
    assert right_edge(table) <= right_edge(page.locator(".table-scroll", has=table)) + 0.5
    assert right_edge(table) <= size[0]
    headers = table.locator("thead th")
    expect(headers.filter(has_text="Worst")).to_be_in_viewport()
    expect(headers.filter(has_text="H2H")).to_have_count(0)  # nobody is tied
    expect(headers.filter(has_text="TB")).to_have_count(0)
    mine = table.locator("tr.is-viewer")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Cy")
    expect(mine.get_by_text("you", exact=True)).to_be_visible()
    expect(mine.locator("td[data-best]")).to_have_text("2")
    if size[0] < 600:
        # The phone leaves out what was played and the average, nothing that ranks.
        expect(headers.filter(has_text="Games")).to_be_hidden()
        expect(headers.filter(has_text="Avg")).to_be_hidden()
        expect(headers.filter(has_text="Points")).to_be_visible()
    else:
        expect(headers.filter(has_text="Games")).to_be_visible()
    # The standings come before the long explanation of how they count.
    explanation = page.get_by_role("heading", name="How the standings count")
    table_box, text_box = table.bounding_box(), explanation.bounding_box()
    assert table_box is not None and text_box is not None and table_box["y"] < text_box["y"]


def test_an_open_crosstable_stays_open_when_the_standings_are_pushed(page: Page) -> None:
    built = nearly_over()
    log_in(page, built.players["cy"])
    page.add_init_script(
        "document.addEventListener('htmx:wsOpen', () => { window.standingsSocket = true; });"
    )
    page.goto("/clubs/tile-club/winter/1/standings/")
    # Polled from here: wait_for_function polls by eval, which the CSP refuses.
    deadline = time.monotonic() + 15
    while not page.evaluate("window.standingsSocket === true") and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    crosstable = page.locator("details.crosstable")
    crosstable.locator("summary").click()
    expect(crosstable.locator(".crosstable-table")).to_be_visible()
    page.evaluate("document.getElementById('standings-tables').dataset.old = '1'")

    publish_season_changed(built.season.pk)

    # The tables were read again (a fresh element), and the crosstable with them.
    expect(page.locator("#standings-tables[data-old]")).to_have_count(0)
    expect(crosstable).to_have_attribute("open", "")
    expect(crosstable.locator(".crosstable-table")).to_be_visible()
