"""The message area of every page: an htmx action refused with a 4xx and its sentence shows
the sentence, on any page, not only the game's (issue 25, a leftover of the last round)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Membership, Role
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.leagues.conftest import RunningSeason, olga, running

pytestmark = pytest.mark.browser

__all__ = ["olga", "running"]


def test_an_organiser_action_refused_says_why_on_the_organisers_page(
    page: Page, running: RunningSeason, olga: User
) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, olga)
    page.goto(f"/clubs/{running.club.slug}/winter/1/organiser/")
    area = page.locator("#game-message")
    expect(area).to_be_empty()
    # Another owner takes her role while her page is open: her next action is refused.
    Membership.objects.filter(club=running.club, user=olga).update(role=Role.MEMBER)

    page.get_by_text("Close matchday…").click()

    alert = area.locator("[role=alert]")
    expect(alert).to_have_text("Only the club's organisers may do that.")
    expect(alert).to_be_in_viewport()
    snap(page, "message-area-organiser-refused")
    assert [text for text in errors if "403" not in text] == []
