"""The table chat in the browser: two players talk live, a spectator reads them and talks
with the spectators apart, a mute hides a member, and a message can be reported."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page, expect

from accounts.models import User
from games import services
from games.models import ChatMessage, Game
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.browser.conftest import REPORT_VIOLATIONS, Violations, log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("CHAT_SCREENSHOTS", "")


@pytest.fixture
def third_page(
    browser: Browser, live_server_url: str, page: Page, csp_violations: Violations
) -> Iterator[Page]:
    """A spectator's browser, with cookies of its own."""
    context = browser.new_context(base_url=live_server_url)
    context.add_init_script(REPORT_VIOLATIONS)
    third = context.new_page()
    third.set_default_timeout(15_000)
    third.on("console", csp_violations.record)
    yield third
    context.close()


def open_game(page: Page, user: User, game: Game) -> None:
    log_in(page, user)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".live-pill")).to_have_attribute("data-live", "open")


def send(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")


def lines(page: Page) -> Locator:
    return page.locator("#table-chat-lines .chat-text")


def test_players_talk_live_a_spectator_reads_and_a_mute_hides(
    page: Page, other_page: Page, third_page: Page, alice: User, bob: User
) -> None:
    carol = UserFactory(username="carol", display_name="Carol")
    game = current_game(start_table(alice, bob, first=0, turn_seconds=600))
    open_game(page, alice, game)
    open_game(other_page, bob, game)
    open_game(third_page, carol, game)

    send(page, "Good luck, <b>Bob</b>!")

    for reader in (page, other_page, third_page):
        expect(lines(reader)).to_have_text(["Good luck, <b>Bob</b>!"])
    send(other_page, "You too")
    expect(lines(page)).to_have_text(["Good luck, <b>Bob</b>!", "You too"])

    expect(third_page.locator(".chat-note")).to_contain_text("players do not see it")
    send(third_page, "Alice has a nice run")
    expect(third_page.locator(".chat-line.is-aside")).to_contain_text("Alice has a nice run")
    send(page, "Your move soon")
    expect(lines(other_page)).to_have_text(["Good luck, <b>Bob</b>!", "You too", "Your move soon"])
    expect(page.locator("#table-chat-lines")).not_to_contain_text("nice run")
    if SHOTS:
        for reader, name in ((page, "player"), (third_page, "spectator")):
            reader.screenshot(path=f"{SHOTS}/chat-{name}-desktop.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#table-chat").screenshot(path=f"{SHOTS}/chat-player-phone.png")

    other_page.get_by_role("button", name="Mute Alice").first.click()
    expect(other_page.locator("#table-chat-lines")).not_to_contain_text("Good luck")
    expect(other_page.get_by_role("button", name="Unmute Alice")).to_be_visible()
    send(page, "Are you there?")
    expect(lines(third_page)).to_contain_text(["Are you there?"])
    expect(other_page.locator("#table-chat-lines")).not_to_contain_text("Are you there?")
    other_page.get_by_role("button", name="Unmute Alice").click()
    expect(other_page.locator("#table-chat-lines")).to_contain_text("Are you there?")
    assert ChatMessage.objects.count() == 5


def test_a_message_is_reported_from_its_report_link(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob, first=0, turn_seconds=600))
    open_game(page, alice, game)
    open_game(other_page, bob, game)
    send(page, "You play like a bot")
    message = ChatMessage.objects.get()
    report = reverse("moderation:file_message", args=[message.pk])

    link = other_page.get_by_role("link", name="Report this message of Alice")
    expect(link).to_have_attribute("href", report)
    link.click()

    other_page.wait_for_url(f"**{report}")
    expect(other_page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_role("link", name="Report this message of Alice")).to_have_count(0)


def test_on_a_waiting_tables_page_a_visitor_and_the_host_talk_live(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    seats = [SeatPlan.taken_by(alice), SeatPlan.open()]
    table = services.create_table(alice, TableSettings(), seats)
    for reader, user in ((page, alice), (other_page, bob)):
        log_in(reader, user)
        reader.goto(f"/games/tables/{table.pk}/")
        expect(reader.get_by_role("heading", name="Table chat")).to_be_visible()

    send(other_page, "Is this seat free for me?")

    expect(lines(page)).to_have_text(["Is this seat free for me?"])
    send(page, "Sit down!")
    expect(lines(other_page)).to_have_text(["Is this seat free for me?", "Sit down!"])
    if SHOTS:
        other_page.screenshot(path=f"{SHOTS}/chat-table-desktop.png", full_page=True)
        other_page.set_viewport_size({"width": 390, "height": 844})
        other_page.screenshot(path=f"{SHOTS}/chat-table-phone.png", full_page=True)
