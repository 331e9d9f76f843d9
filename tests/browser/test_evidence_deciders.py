"""The second moderator reads the evidence before confirming: from the ruling page that
asks for a confirmation, to every rack (read only), and back to confirm; the proposer is
told."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import Category, LogEntry, Ruling
from moderation.services.rulings import rule
from notifications.models import Notification
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.conftest import club_moderator, league_fixture, league_game, open_case

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = [
    "_eager_celery",
    "club_moderator",
    "league_fixture",
    "league_game",
    "running",
]


def test_the_confirming_moderator_opens_the_evidence_from_the_ruling_page(
    page: Page,
    running: RunningSeason,
    league_fixture: Fixture,
    league_game: Game,
    club_moderator: User,
    dave: User,
) -> None:
    case = open_case(league_game, dave, Category.BUG, fixture=league_fixture)
    case.claimed_by, case.claimed_at = club_moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])
    second = UserFactory(username="max", display_name="Max")
    Membership.objects.create(club=running.club, user=second, role=Role.MODERATOR)
    ruling = rule(case.pk, club_moderator, Ruling.Kind.VOID, "Dave's play was refused by a bug.")
    assert ruling.status == Ruling.Status.PROPOSED

    log_in(page, second)
    page.goto(f"/moderation/rulings/{ruling.pk}/")
    page.get_by_role("link", name="Read the evidence first").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Game {league_game.number}")
    expect(page.locator(".evidence-secret")).to_contain_text("not change anything")
    assert LogEntry.objects.filter(
        case=case, actor=second, action=LogEntry.Action.EVIDENCE_OPENED
    ).exists()

    page.go_back()
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.get_by_text("You confirmed the ruling: it is applied.")).to_be_visible()
    told = Notification.objects.get(user=club_moderator)
    assert told.text.startswith("Max confirmed your ruling")
