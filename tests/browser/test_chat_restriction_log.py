"""A chat restriction ruled from the browser, and the log that tells it in sentences.

The club's moderator restricts bob's chat at the club's tables for 3 days (the form
shows the member and how long and where once the kind is chosen); bob, at his league
table, is told why his message is refused and still has his game; the log says what
happened with names; its member filter finds everything about bob, and after Back the
filter form shows the filters of the list it stands above.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import ChatMessage, Game
from leagues.models import Fixture
from moderation.models import Category, Ruling, Suspension
from tests.browser.test_clubs import snap
from tests.browser.test_moderation_queue import as_member
from tests.games.conftest import _eager_celery, current_game
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.conftest import club_moderator, league_fixture, league_game, open_case

pytestmark = pytest.mark.browser

__all__ = [
    "_eager_celery",
    "club_moderator",
    "league_fixture",
    "league_game",
    "running",
]


def test_a_moderator_restricts_a_members_chat_and_reads_it_in_the_log(
    page: Page,
    running: RunningSeason,
    league_fixture: Fixture,
    league_game: Game,
    club_moderator: User,
    bob: User,
    dave: User,
) -> None:
    case = open_case(
        league_game,
        dave,
        Category.ABUSE,
        fixture=league_fixture,
        accused=bob,
        text="Bob insulted me in the chat.",
    )
    case.claimed_by, case.claimed_at = club_moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])

    as_member(page, club_moderator)
    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    how = page.get_by_role("group", name="How long, and where")
    expect(how).to_be_hidden()
    page.get_by_label("Restrict a member's chat, not their play").check()
    expect(how).to_be_visible()
    expect(how).to_contain_text("they still sit and play")
    page.get_by_label("Member", exact=True).select_option(label="Bob")
    how.get_by_label("Days").fill("3")
    page.get_by_label("Note").fill("Insults in the chat of game 1.")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()
    expect(page.locator("body")).to_contain_text("Bob's chat was restricted at the club")
    snap(page, "ruling-chat-restriction")
    assert Suspension.objects.get(user=bob).chat_only

    # Bob at his league table: the chat tells him why he cannot write; he still plays.
    assert league_fixture.table is not None
    game = current_game(league_fixture.table)
    as_member(page, bob)
    page.goto(f"/games/{game.pk}/")
    chat = page.locator("#table-chat")
    expect(chat.locator(".chat-barred")).to_contain_text("Your chat is restricted at the club")
    expect(chat.locator(".chat-barred")).to_contain_text("You can still play")
    expect(chat.locator(".chat-form")).to_have_count(0)
    snap(page, "chat-restricted-member")
    assert not ChatMessage.objects.filter(table=league_fixture.table).exists()

    # The log, in sentences; everything about bob; Back shows the unfiltered list's form.
    as_member(page, club_moderator)
    page.goto("/moderation/log/")
    ruled = page.locator('.history-item[data-action="ruled"]')
    expect(ruled).to_contain_text("Bob's chat was restricted at the club")
    expect(ruled.get_by_role("link", name="Read the ruling")).to_be_visible()
    page.get_by_label("About or by (username)").fill("bob")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"member=bob"))
    expect(page.locator(".history-item").first).to_be_visible()
    snap(page, "moderation-log-about-bob")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/moderation/log/$"))
    expect(page.get_by_label("About or by (username)")).to_have_value("")
    assert Ruling.objects.get().kind == Ruling.Kind.RESTRICT_CHAT
