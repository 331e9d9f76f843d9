"""A player's league page in the browser: their fixtures, the calendar address with its
copy button, and withdrawing from a season after the confirmation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from leagues.models import Club, Entry, OnWithdrawal, Season
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

NAMES = ("alice", "bob", "carol")


@pytest.fixture
def season(page: Page) -> Season:
    """Alice, Bob and Carol play a season of 3-seat fixtures; the first is under way."""
    players = [
        UserFactory(username=name, display_name=name.title()) for name in ("alice", "bob", "carol")
    ]
    club = Club.objects.create(name="Tile Club", slug="tile-club")
    season = make_season(club, players, seats=3, on_withdrawal=OnWithdrawal.FORFEIT)
    open_fixture(season, 1, players)
    scheduled_fixture(season, 2, [players[1], players[2], players[0]])
    return season


def test_a_player_follows_their_fixtures_and_withdraws(page: Page, season: Season) -> None:
    entry = season.entries.get(user__username="alice")
    log_in(page, entry.user)
    page.goto("/clubs/me/leagues/")

    expect(page.get_by_role("heading", level=2, name="League 1, season 1")).to_be_visible()
    expect(page.get_by_text("vs Bob, Carol")).to_have_count(2)  # matchdays 1 and 2
    expect(page.get_by_role("link", name="Play your matchday 1 fixture")).to_be_visible()

    page.get_by_role("button", name="Get my calendar address").click()
    feed = page.get_by_label("The address of your calendar")
    expect(feed).to_have_value(re.compile(r"/clubs/calendar/[\w-]+\.ics$"))
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("[data-copy]")).to_have_text(re.compile("Copied|Press Ctrl\\+C"))

    page.get_by_role("link", name="Withdraw from this season…").click()
    expect(page.get_by_role("heading", name="What happens")).to_be_visible()
    page.get_by_role("button", name="Withdraw from the season").click()

    expect(page.get_by_text("You have withdrawn from League 1, season 1.")).to_be_visible()
    expect(page.get_by_text("Withdrawn", exact=False).first).to_be_visible()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    game = Game.objects.get(table__fixture__matchday__number=1, number=1)
    assert game.engine_state().dropped == (0,)
