"""The club's members page after an invitation (walk turn 4, W19): the walk's console
showed a Content-Security-Policy error, "Applying inline style violates ... style-src
'self'", on the members page after inviting. These are the walk's steps, htmx's swaps
included: a refused invitation, an invitation, the page again, the invitation withdrawn.
The ``page`` fixture fails the test on any violation the policy reports."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Club
from tests.browser.conftest import Violations, log_in
from tests.factories import UserFactory
from tests.leagues.conftest import club

__all__ = ["club"]

pytestmark = pytest.mark.browser


def test_inviting_from_the_members_page_breaks_no_policy(
    page: Page, alice: User, club: Club, csp_violations: Violations
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    UserFactory(username="kenji", display_name="Kenji")
    log_in(page, alice)
    page.goto(f"/clubs/{club.slug}/members/")
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False

    page.get_by_label("Their username").fill("nobody-here")
    page.get_by_role("button", name="Invite").click()
    expect(page.locator("#invite-error")).to_be_visible()

    page.get_by_label("Their username").fill("kenji")
    page.get_by_role("button", name="Invite").click()
    expect(page.locator(".invite-notice")).to_contain_text("Kenji is invited")
    expect(page.locator(".invitation-list")).to_contain_text("Kenji")

    page.goto(f"/clubs/{club.slug}/members/")
    expect(page.locator(".invitation-list")).to_contain_text("Kenji")
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator(".invitation-list")).to_have_count(0)
    page.go_back()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)

    assert not csp_violations, csp_violations
    assert [e for e in errors if "policy" in e.lower() or "inline" in e.lower()] == []
