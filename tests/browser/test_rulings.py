"""A moderator sets a league game's result with a note, previews the standings before
and after, confirms, and the division's standings page shows the corrected standings."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game, Result
from leagues.models import Fixture
from moderation.models import Case, Category, Ruling
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.games.conftest import _eager_celery
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


def test_a_moderator_sets_a_result_previews_the_standings_and_confirms(
    page: Page,
    running: RunningSeason,
    league_fixture: Fixture,
    league_game: Game,
    club_moderator: User,
    dave: User,
) -> None:
    built, fixture, game, moderator = running, league_fixture, league_game, club_moderator
    case = open_case(game, dave, Category.BUG, fixture=fixture, text="My last play was refused.")
    case.claimed_by, case.claimed_at = moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])

    standings_url = f"/clubs/{built.club.slug}/winter/1/standings/"
    log_in(page, moderator)
    page.goto(standings_url)
    first_row = page.locator(".standings-table tbody tr").first
    expect(first_row).to_contain_text("Bob")

    page.goto(f"/moderation/cases/{case.pk}/rulings/new/")
    page.get_by_label("Set the result").check()
    form = page.locator(".ruling-form")
    form.locator('input[name="score_0"]').fill("-30")
    form.locator('input[name="score_1"]').fill("30")
    form.locator('input[name="winner"][value="1"]').check()
    page.get_by_label("Note").fill("Dave's winning play was refused by a bug (turn 3).")
    page.get_by_role("button", name="Preview").click()

    preview = page.get_by_role("region", name="Preview: what the ruling changes")
    expect(preview).to_contain_text("Division 1: the standings")
    standings = preview.locator(".preview-standings tbody tr")
    expect(standings.first).to_contain_text("Dave")
    expect(standings.first.locator("td").nth(1)).to_have_text("4 · -136")  # last before
    expect(standings.first.locator("td").nth(2)).to_have_text("1 · 30")  # first after
    snap(page, "ruling-preview")
    assert not Ruling.objects.exists()  # a preview writes nothing

    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("The ruling is applied.")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Set the result")
    snap(page, "ruling-applied")
    ruling = Ruling.objects.get()
    assert ruling.status == Ruling.Status.APPLIED and ruling.by == moderator
    assert Result.objects.current().of_game(game).get(seat=1).is_winner
    assert Case.objects.get(pk=case.pk).status == Case.Status.DECIDED

    page.goto(standings_url)
    expect(page.locator(".standings-table tbody tr").first).to_contain_text("Dave")
