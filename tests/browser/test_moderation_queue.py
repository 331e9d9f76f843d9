"""Filing a dispute and the moderators' queue, in the browser.

A player files a dispute from a finished league game (the game page's "Report a
problem"); a moderator of the club sees it in the queue with the reasons of its priority
and claims it; a moderator who sat at that table is told why they may not claim it.
"""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from leagues.models import Membership, Role
from moderation.models import Case
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import RunningSeason, running_season
from tests.moderation.conftest import finished_league_game

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]


@pytest.fixture
def season(page: Page) -> RunningSeason:
    names = ["alice", "bob", "dave", "erin"]
    alice, bob, dave, erin = (UserFactory(username=n, display_name=n.title()) for n in names)
    return running_season(alice, [bob, dave, erin, alice])


def as_member(page: Page, user: User) -> None:
    page.context.clear_cookies()
    log_in(page, user)


def test_a_dispute_is_filed_queued_and_claimed_by_a_moderator_without_a_conflict(
    page: Page, season: RunningSeason
) -> None:
    game = finished_league_game(season.fixtures[0])  # dave resigned
    bob, dave = season.players[0], season.players[1]
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=season.club, user=mo, role=Role.MODERATOR)
    Membership.objects.filter(club=season.club, user=dave).update(role=Role.MODERATOR)

    # Bob files from the finished game's page.
    log_in(page, bob)
    page.goto(f"/games/{game.pk}/")
    snap(page, "moderation-game-link")
    page.get_by_role("link", name="Report a problem").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Report a problem in game 1")
    page.get_by_label("Wrong timeout or clock").check()
    page.get_by_label("What happened").fill("The clock took my turn.")
    page.get_by_role("button", name="File the report").click()
    expect(page.locator(".form-errors")).to_contain_text("No turn of this game ran out of time")
    snap(page, "moderation-file-refused")
    page.get_by_label("A bug: my move was refused or went wrong").check()
    page.get_by_label("Turn").fill("3")
    page.get_by_label("About whom").select_option(label="Dave")
    page.get_by_label("What happened").fill("My draw on turn 3 gave me no tile.")
    page.get_by_role("button", name="File the report").click()
    case = Case.objects.get()
    expect(page.get_by_text(f"Your report is filed as case {case.pk}")).to_be_visible()
    expect(page.locator(".case-report-text")).to_have_text("My draw on turn 3 gave me no tile.")
    snap(page, "moderation-case-party")

    # Mo sees it in the queue, with the reasons of its priority, and claims it.
    as_member(page, mo)
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Moderation")).to_contain_text("1")
    nav.get_by_role("link", name="Moderation").click()
    item = page.locator(f'.case-item[data-case="{case.pk}"]')
    expect(item).to_contain_text("A bug: my move was refused or went wrong (severity 5 of 6)")
    expect(item).to_contain_text("1 filer")
    expect(item).to_contain_text("Its matchday closes in")
    expect(item).to_contain_text("about Dave")
    snap(page, "moderation-queue")
    item.get_by_role("button", name="Claim").click()
    expect(page.get_by_text(f"You took case {case.pk}")).to_be_visible()
    expect(page.locator(".case-report-text")).to_have_text("My draw on turn 3 gave me no tile.")
    expect(page.get_by_text("Mo claimed case")).to_be_visible()
    snap(page, "moderation-case-moderator")
    case.refresh_from_db()
    assert case.claimed_by == mo

    # Dave moderates the club too, but he sat at that table: a party reads that a
    # moderator has it, not who (security review wave 3, S8).
    as_member(page, dave)
    page.goto("/moderation/")
    item = page.locator(f'.case-item[data-case="{case.pk}"]')
    expect(item).to_contain_text("A moderator has it.")
    expect(item).not_to_contain_text("Claimed by Mo")
    Case.objects.filter(pk=case.pk).update(claimed_by=None, claimed_at=None, claim_seen_at=None)
    page.reload()
    expect(item).to_contain_text("You may not take this case:")
    expect(item).to_contain_text("You sat at this game's table.")
    expect(item.get_by_role("button", name="Claim")).to_have_count(0)
    page.get_by_role("button", name="Take the next case").click()
    expect(page.get_by_text("No case that you may take is waiting.")).to_be_visible()
    case.refresh_from_db()
    assert case.claimed_by is None
