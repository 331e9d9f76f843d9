"""A season that could not start at its time, in the browser: its organiser reads why on
the season's page, follows the link to the preview and starts it, which clears the mark."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models.table_settings import TableSettings
from leagues.models import League, Membership, Season
from leagues.services import clubs
from leagues.services.seasons import register
from leagues.tasks import start_due_seasons
from tests.browser.conftest import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.browser


def test_the_organiser_reads_why_the_season_did_not_start_and_starts_it(
    page: Page, alice: User
) -> None:
    club = clubs.create_club(alice, "Tile Club")
    league = League.objects.create(
        club=club,
        name="Winter",
        slug="winter",
        seats=3,
        table_settings=TableSettings(clock="correspondence").to_dict(),
    )
    season = Season.objects.create(
        league=league,
        number=1,
        starts_at=timezone.now() - timedelta(minutes=1),
        **league.house_rules(),
    )
    start_due_seasons(timezone.now())
    for name in ("Ann", "Ben", "Cat"):
        member = UserFactory(username=name.lower(), display_name=name)
        Membership.objects.create(club=club, user=member)
        register(season, member)

    log_in(page, alice)
    page.goto("/clubs/tile-club/winter/1/")
    notice = page.get_by_role("status").filter(has_text="could not start at its time")
    expect(notice).to_contain_text("Nobody is registered yet.")
    notice.get_by_role("link", name="the preview").click()
    page.get_by_role("button", name="Start the season").click()

    expect(page.get_by_text("Season 1 has started: matchday 1 is open.")).to_be_visible()
    expect(page.get_by_text("could not start at its time")).to_have_count(0)
    assert Season.objects.get(pk=season.pk).start_failed_at is None
