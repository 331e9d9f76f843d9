"""A moderator hides a reported chat message from the table, in the browser: the
players' chat no longer shows it, and the case's page says it is hidden."""

import pytest
from playwright.sync_api import Page, expect

from games.models import ChatMessage
from leagues.models import Membership, Role
from moderation.models import Category
from moderation.services.filing import file_message_report
from tests.browser.test_clubs import snap
from tests.browser.test_moderation_queue import as_member, season
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import finished_league_game
from tests.moderation.evidence_support import claim

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery", "season"]


def test_the_cases_moderator_hides_a_reported_message_from_the_table(
    page: Page, season: RunningSeason
) -> None:
    game = finished_league_game(season.fixtures[0])
    bob, dave = season.players[0], season.players[1]
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=season.club, user=mo, role=Role.MODERATOR)
    message = ChatMessage.objects.create(
        table=game.table, game=game, turn_number=2, author=dave, text="You play like a potato."
    )
    case = file_message_report(message.pk, bob, Category.ABUSE, "Insulting.").case
    claim(case, mo)

    as_member(page, bob)
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_text("You play like a potato.")).to_be_visible()

    as_member(page, mo)
    page.goto(f"/moderation/cases/{case.pk}/")
    page.get_by_role("button", name="Hide it from the table").click()
    expect(page.get_by_text("The message is hidden from the table")).to_be_visible()
    expect(page.locator("[data-message-hidden]")).to_have_text("hidden from the table")
    expect(page.get_by_role("button", name="Show it at the table again")).to_be_visible()
    snap(page, "moderation-message-hidden")

    as_member(page, bob)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#table-chat")).to_be_visible()
    expect(page.get_by_text("You play like a potato.")).to_have_count(0)
