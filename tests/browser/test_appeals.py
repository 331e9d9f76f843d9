"""Outcomes and appeals in the browser.

A league game's dispute was decided (a ruling set its result): the filer and the
accused find the outcome in their notifications with its reason, the division's
standings mark the corrected game, the filer appeals from the outcome page, the
moderator who ruled finds the appeal in their notifications and the queue, answers and
closes it, and the filer reads the answer. A member suspended by a ruling logs in
through the log-in form and appeals like anyone else.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from games.services.results import SeatCorrection
from leagues.models import Fixture
from moderation.models import Case, Category, Ruling, Suspension
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.conftest import (
    _eager_celery,
    club_moderator,
    league_fixture,
    league_game,
    open_case,
)
from tests.moderation.telling_support import apply_ruling

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery", "club_moderator", "league_fixture", "league_game", "running"]

NOTE = "The clock skipped dave's turn 3 by mistake: the game is scored as dave's win."


@pytest.fixture
def decided(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
) -> Case:
    """Bob reported the clock; mo set the result (dave wins)."""
    case = open_case(league_game, bob, Category.CLOCK, fixture=league_fixture, accused=dave)
    apply_ruling(
        case, club_moderator, note=NOTE, corrections={1: SeatCorrection(score=25, is_winner=True)}
    )
    return case


def open_notice(page: Page, text: str) -> None:
    page.goto("/games/notifications/")
    notice = page.locator(".notification-list a", has_text=text).first
    expect(notice).to_be_visible()
    notice.click()


def test_the_parties_are_told_one_appeals_and_a_moderator_answers(
    page: Page,
    other_page: Page,
    decided: Case,
    bob: User,
    dave: User,
    club_moderator: User,
    running: RunningSeason,
) -> None:
    log_in(other_page, dave)
    open_notice(other_page, "A ruling about you")
    expect(other_page.get_by_role("heading", level=1)).to_have_text(
        f"Case {decided.pk}: the outcome"
    )
    expect(other_page.locator(".ruling")).to_contain_text(NOTE)
    other_page.goto(f"/clubs/{running.club.slug}/winter/1/standings/")
    corrections = other_page.locator(".corrections")
    expect(corrections).to_contain_text("Corrected by a ruling")
    # The ruling's note is the parties' (walk W3): the standings say a ruling corrected
    # the game, without its reasons.
    expect(corrections).not_to_contain_text("The clock skipped dave's turn 3")
    expect(other_page.locator(".status-corrected")).to_have_count(2)
    snap(other_page, "standings-corrected")

    log_in(page, bob)
    open_notice(page, "Your report on game 1")
    outcome = page.locator(".outcome")
    expect(outcome).to_contain_text("Set the result")
    expect(outcome).to_contain_text(NOTE)
    expect(outcome.locator(".result-changes")).to_contain_text("25")
    snap(page, "outcome")
    page.get_by_label("Your message").fill("Dave's clock was right: he left the table for an hour.")
    page.get_by_role("button", name="Appeal").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your appeal")
    expect(page.locator(".appeal-thread")).to_contain_text("he left the table for an hour")
    expect(page.locator(".lead")).to_contain_text("Waiting for the moderators since")
    snap(page, "appeal-appellant")

    other_page.context.clear_cookies()
    log_in(other_page, club_moderator)
    open_notice(other_page, "is waiting for an answer to their appeal")
    expect(other_page.get_by_role("heading", level=1)).to_contain_text("The appeal of")
    other_page.get_by_label("Your message").fill(
        "The clock log shows the turn was skipped, not left."
    )
    other_page.get_by_role("button", name="Answer").click()
    expect(other_page.locator(".from-moderator")).to_contain_text("the turn was skipped")
    expect(other_page.locator(".lead")).to_contain_text("The moderators answered last")
    other_page.goto("/moderation/appeals/")
    expect(other_page.locator(".appeal-queue li")).to_have_count(1)
    expect(other_page.locator(".appeal-queue")).to_contain_text("answered")
    snap(other_page, "appeals-queue")
    other_page.locator(".appeal-queue a").click()
    other_page.get_by_label("A last word (optional)").fill("The ruling stands.")
    other_page.get_by_role("button", name="Close the appeal").click()
    expect(other_page.locator(".appeal-status")).to_have_text("Closed")
    other_page.goto("/moderation/log/")
    expect(other_page.locator(".log-list")).to_contain_text("closed the appeal")
    snap(other_page, "moderation-log")

    open_notice(page, "The moderators closed your appeal")
    expect(page.locator(".appeal-thread")).to_contain_text("The ruling stands.")
    expect(page.get_by_label("Your message")).to_have_count(0)


def test_a_suspended_member_logs_in_and_appeals(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
) -> None:
    case = open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=dave)
    ruling = apply_ruling(
        case, club_moderator, Ruling.Kind.SUSPEND, target=dave, note="Three games left to time out."
    )
    now = timezone.now()
    Suspension.objects.create(
        user=dave, ruling=ruling, starts_at=now, ends_at=now + timedelta(days=14)
    )
    # The server checks passwords with its own hasher, not the tests' fast one.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        dave.set_password("a-long-password-of-dave")
        dave.save(update_fields=["password"])

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("dave")
    page.get_by_label("Password").fill("a-long-password-of-dave")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Good to see you")
    open_notice(page, "A ruling about you")
    expect(page.locator(".suspension-note")).to_contain_text("Suspended from the whole site")
    expect(page.locator(".suspension-note")).to_contain_text(
        "You can still log in, read, and appeal"
    )
    page.get_by_label("Your message").fill("I was in hospital; here is the note.")
    page.get_by_role("button", name="Appeal").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your appeal")
    expect(page.locator(".appeal-thread")).to_contain_text("I was in hospital")
    snap(page, "appeal-suspended")
