"""Issue 26: a visitor reads the site's times in their browser's zone. A phone in
Tokyo, signed in to nothing, opens a league season's page: static/js/visitor-zone.js
tells the server its zone (the cookie ``tz``) and the page, loaded again once, says the
matchday's deadline in Tokyo time, JST named, under the page's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.browser.conftest import PHONE, Violations, new_page
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.browser

# Tue 15 Jan 2036 03:47 UTC: 12:47 in Tokyo.
DEADLINE = datetime(2036, 1, 15, 3, 47, tzinfo=UTC)


@pytest.fixture
def tokyo_phone(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    """A touch phone's browser whose clock is set to Tokyo."""
    page = new_page(browser, live_server_url, csp_violations, **PHONE, timezone_id="Asia/Tokyo")
    yield page
    page.context.close()
    assert not csp_violations, csp_violations


def test_a_visitor_in_tokyo_reads_a_deadline_in_tokyo_time(
    tokyo_phone: Page, alice: User, bob: User, dave: User
) -> None:
    running_season(alice, [bob, dave], deadline=DEADLINE)

    tokyo_phone.goto("/clubs/tile-club/winter/1/")

    dates = tokyo_phone.locator(".matchday summary").first
    expect(dates).to_contain_text("deadline Tue 15 Jan, 12:47 JST")
    expect(dates).not_to_contain_text("UTC")
    cookies = {c["name"]: c["value"] for c in tokyo_phone.context.cookies()}
    assert cookies["tz"] == "Asia/Tokyo"
    # Read in Tokyo time from now on, without loading any page twice.
    tokyo_phone.goto("/clubs/tile-club/winter/1/")
    expect(dates).to_contain_text("12:47 JST")
