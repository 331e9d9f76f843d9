"""The Content-Security-Policy in a real browser: the pages and htmx work under it, and
nothing they do is refused (the `page` fixture fails any test with a violation)."""

import pytest
from playwright.sync_api import Page, expect

from games.services import vacations
from tests.browser.conftest import Violations, log_in
from tests.browser.test_games import open_game
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.browser


def test_the_policy_is_sent_and_a_refused_style_is_caught(
    page: Page, csp_violations: Violations
) -> None:
    response = page.goto("/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]

    # What htmx would do with its indicator styles if base.html let it: refused.
    page.evaluate(
        "() => { const s = document.createElement('style');"
        " s.textContent = '.x { color: red }'; document.head.append(s); }"
    )

    expect(page.locator("body")).to_be_visible()
    page.wait_for_timeout(200)
    assert any("style-src" in text for text in csp_violations)
    csp_violations.clear()  # the violation the test made on purpose


def test_a_member_goes_through_the_pages_and_plays_without_a_violation(page: Page) -> None:
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    game = current_game(start_table(alice, bob))
    player = alice if game.current_seat == 0 else bob
    vacations.plan_vacation(player, 2)
    log_in(page, player)

    for path in ("/", "/games/", "/games/new/", "/games/your-move/", "/games/notifications/"):
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
    page.goto("/games/vacation/")
    expect(page.locator("progress.vacation-meter")).to_be_visible()
    expect(page.locator("progress.vacation-meter")).to_have_attribute("value", "2")

    open_game(page, game)
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#game-help")).not_to_be_empty()
    page.get_by_role("button", name="Draw a tile").click()
    for _ in range(100):
        game.refresh_from_db()
        if game.version == 1:
            break
        page.wait_for_timeout(100)
    assert game.version == 1
    assert page.evaluate("htmx.config.allowEval") is False
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
