"""The notices page at phone size: a member in Asia/Tokyo chooses the hour of their daily
digest and quiet hours across midnight, on their own clocks; an hour inside the quiet
hours is refused beside the field, and nothing is saved; the page stays within the
phone's width."""

from __future__ import annotations

import os
from datetime import time

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.conftest import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def test_a_member_chooses_the_digest_hour_and_quiet_hours_on_a_phone(phone: Page) -> None:
    member: User = UserFactory(username="aiko", display_name="Aiko", time_zone="Asia/Tokyo")
    log_in(phone, member)
    phone.goto("/games/notifications/")

    when = phone.get_by_role("group", name="When", exact=True)
    expect(when).to_contain_text("Times of your day in Asia/Tokyo")
    expect(when.get_by_label("Daily digest at")).to_have_value("8")
    when.get_by_label("Daily digest at").select_option(label="09:00")
    when.get_by_label("Quiet from").fill("22:30")
    when.get_by_label("Quiet until").fill("06:45")
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/phone-notice-hours.png", full_page=True)
    phone.get_by_role("button", name="Save").tap()

    expect(phone.get_by_role("status").first).to_contain_text("preferences are saved")
    member.refresh_from_db()
    assert (member.digest_hour, member.quiet_from, member.quiet_until) == (
        9,
        time(22, 30),
        time(6, 45),
    )
    when = phone.get_by_role("group", name="When", exact=True)
    expect(when.get_by_label("Daily digest at")).to_have_value("9")
    expect(when.get_by_label("Quiet from")).to_have_value("22:30")
    expect(when).to_contain_text("Your next digest comes")
    expect(when.locator("time").first).to_contain_text("09:00 JST")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # An hour in the quiet hours: refused beside its field, nothing changed.
    when.get_by_label("Daily digest at").select_option(label="23:00")
    phone.get_by_role("button", name="Save").tap()

    expect(phone.get_by_role("alert").first).to_contain_text("need another look")
    expect(phone.get_by_role("group", name="When", exact=True)).to_contain_text(
        "That hour is in your quiet hours: choose one from 06:45 to 22:30."
    )
    member.refresh_from_db()
    assert member.digest_hour == 9
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
