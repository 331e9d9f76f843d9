"""No console errors on the notices page (walk turn 4, W19): its list refreshes on every
push of the notices socket, and a refresh that cut the one in flight short (hx-sync
"replace") had htmx log htmx:afterRequest and htmx:sendAbort as errors."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.conftest import log_in

pytestmark = pytest.mark.browser

PUSHES = """() => {
  for (let i = 0; i < 3; i++) document.body.dispatchEvent(new CustomEvent("htmx:wsAfterMessage"));
}"""


def test_pushes_in_quick_succession_refresh_the_notices_without_errors(
    page: Page, alice: User
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    refreshed: list[str] = []
    page.on(
        "requestfinished",
        lambda r: refreshed.append(r.url) if "/notifications/" in r.url else None,
    )
    log_in(page, alice)
    page.goto("/games/notifications/")
    expect(page.locator("#notification-list")).to_be_visible()
    refreshed.clear()

    page.evaluate(PUSHES)

    page.wait_for_timeout(1500)
    assert refreshed, "the list was not refreshed"
    assert errors == []
