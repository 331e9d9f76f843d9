"""Nothing moves under the reader while a page settles (issue 26, item 5; the front-end
audit's layout shifts): the signed-in home page's "Your games" came by htmx after the
page (CLS 0.04-0.14) and the new-table form folded its seats after its script ran
(0.147 on a phone). Chromium's layout-shift entries, summed from the first paint, at a
desktop's size and a phone's.

What a page loads after itself (an htmx request, a deferred script) comes 0.5 s late
here, as on a slow phone's network: on a fast machine it came before the first paint,
and nothing was seen to move."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Route

from accounts.models import User
from tests.browser.conftest import PHONE, Violations, log_in, new_page
from tests.games.conftest import _eager_celery, start_table

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": PHONE,
}

# Every shift since the page began (buffered), not caused by the reader's input.
SHIFTS = """() => new Promise((resolve) => {
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) shifts.push(entry.value);
    }
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => resolve(shifts.reduce((a, b) => a + b, 0)), 300);
})"""

LATE = re.compile(r"/games/mine/|/js/table-form[^/]*\.js$")
"""The home page's list of games (fetched after the page before) and the form's script."""


def late(route: Route) -> None:
    time.sleep(0.5)
    route.continue_()


MOST = 0.005
"""Far under the 0.1 that Core Web Vitals call good: the old pages shifted 0.008-0.025 here."""


@pytest.mark.parametrize("size", SIZES)
def test_the_home_page_and_the_new_table_form_do_not_shift(
    browser: Browser,
    live_server_url: str,
    transactional_db: None,
    alice: User,
    bob: User,
    size: str,
) -> None:
    start_table(alice, bob, first=0)
    violations = Violations()
    page = new_page(browser, live_server_url, violations, **SIZES[size])
    log_in(page, alice)
    page.route(LATE, late)
    shifted = {}
    for path in ("/", "/games/new/"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        shifted[path] = page.evaluate(SHIFTS)
    page.context.close()
    assert all(value < MOST for value in shifted.values()), shifted
    assert not violations, violations
