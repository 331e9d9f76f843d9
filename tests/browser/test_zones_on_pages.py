"""Every time in the reader's zone, at phone size (issue 26's "done when"): a member in
Asia/Tokyo reads the deadline of her own game, the deadline and the moves of a game she
watches, and the table chat's times in Tokyo time, each naming the zone, both as the
pages load and in the pushes that follow (rendered by the server's sockets, which know no
request and so no zone of their own)."""

from __future__ import annotations

import os
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from common.moments import when_in
from games import services
from games.models import ChatMessage, Game, Move
from games.services import chat
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.browser

TOKYO = ZoneInfo("Asia/Tokyo")
SHOTS = os.environ.get("ZONE_SCREENSHOTS", "")


def correspondence(first: User, second: User) -> Game:
    return current_game(start_table(first, second, first=0, clock="correspondence"))


def tokyo_time(moment: object) -> str:
    """``moment`` as the pages write it for a reader in Tokyo ("Wed 9 Dec, 08:23 JST")."""
    written = when_in(moment, TOKYO)  # type: ignore[arg-type]
    assert written.endswith(" JST")
    return written


def chat_time(page: Page, message: ChatMessage) -> None:
    """The chat line of ``message`` shows its hour in Tokyo and names the day and zone."""
    line = page.locator(f'#table-chat-lines [data-message="{message.pk}"] time')
    local = message.created_at.astimezone(TOKYO)
    expect(line).to_have_text(f"{local:%H:%M}")
    expect(line).to_have_attribute("title", tokyo_time(message.created_at))
    expect(line).to_have_attribute("datetime", local.replace(microsecond=0).isoformat())


def test_a_member_in_tokyo_reads_every_time_of_the_game_pages_in_tokyo_time(
    phone: Page, alice: User, bob: User
) -> None:
    mika = UserFactory(username="mika", display_name="Mika", time_zone=TOKYO.key)
    carol = UserFactory(username="carol", display_name="Carol")
    own, watched = correspondence(mika, bob), correspondence(alice, carol)
    said_before = chat.say(watched.table_id, alice, "Good luck, Carol")
    log_in(phone, mika)

    # Her own game: the deadline that binds her, in Tokyo time.
    phone.goto(f"/games/{own.pk}/")
    assert own.turn_deadline is not None
    expect(phone.locator("#game-status .turn-facts")).to_contain_text(
        f"due {tokyo_time(own.turn_deadline)}"
    )

    # A game she watches: its chat as the page loads, then a move and a message pushed.
    phone.goto(f"/games/{watched.pk}/")
    expect(phone.locator(".live-pill")).to_have_attribute("data-live", "open")
    chat_time(phone, said_before)

    services.draw(watched.pk, alice, watched.version)

    watched.refresh_from_db()
    moved = Move.objects.get(game=watched, seq=1)
    assert watched.turn_deadline is not None
    expect(phone.locator("#game-log .move-at").first).to_have_text(tokyo_time(moved.created_at))
    expect(phone.locator("#game-status .turn-facts")).to_contain_text(
        f"due {tokyo_time(watched.turn_deadline)}"
    )
    said_after = chat.say(watched.table_id, carol, "Thanks, Alice")
    expect(phone.locator("#table-chat-lines .chat-text")).to_have_text(
        ["Good luck, Carol", "Thanks, Alice"]
    )
    chat_time(phone, said_before)
    chat_time(phone, said_after)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/zones-spectator-phone.png", full_page=True)
