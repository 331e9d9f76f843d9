"""A member's record and a case's private notes, in the browser.

A club's moderator opens a case from the queue, follows the accused's name to their
record (their earlier case, warning and suspension with the ruling that lifted it),
finds the decided case in the archive by member, and on the case page writes a private
note and then a correction of it. The filer, a party, opens the same case page and
reads neither the notes nor any link to a record. At phone width nothing is wider than
the screen.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from leagues.models import Membership, Role
from moderation.models import Case, Category, Ruling
from tests.browser.test_clubs import snap
from tests.browser.test_moderation_queue import as_member
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import RunningSeason, running_season
from tests.moderation.conftest import finished_league_game, open_case, suspend

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

NOTE = "Erin says they share a flat."


@pytest.fixture
def season(page: Page) -> RunningSeason:
    names = ["alice", "bob", "dave", "erin"]
    alice, bob, dave, erin = (UserFactory(username=n, display_name=n.title()) for n in names)
    return running_season(alice, [bob, dave, erin, alice])


def fits_the_width(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_moderator_reads_a_members_record_and_keeps_private_notes(
    page: Page, season: RunningSeason
) -> None:
    game = finished_league_game(season.fixtures[0])
    bob, dave = season.players[0], season.players[1]
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=season.club, user=mo, role=Role.MODERATOR)
    # Dave's past: a decided case about him, a warning, and a suspension lifted later.
    now = timezone.now()
    earlier = open_case(game, bob, Category.ABUSE, accused=dave, fixture=season.fixtures[0])
    Ruling.objects.create(
        case=earlier,
        kind=Ruling.Kind.WARN,
        status=Ruling.Status.APPLIED,
        note="Keep the chat civil.",
        target=dave,
        by=mo,
        created_at=now,
        applied_at=now,
    )
    made = suspend(dave, game, mo, club=season.club, days=3)
    Ruling.objects.create(
        case=earlier,
        kind=Ruling.Kind.DISMISS,
        status=Ruling.Status.APPLIED,
        note="Three days was too much.",
        by=mo,
        supersedes=made.ruling,
        created_at=now + timedelta(seconds=1),
        applied_at=now + timedelta(seconds=1),
    )
    type(made).objects.filter(pk=made.pk).update(lifted_at=now)
    Case.objects.filter(pk=earlier.pk).update(status=Case.Status.DECIDED, decided_at=now)
    case = open_case(
        game,
        bob,
        Category.STALLING,
        accused=dave,
        fixture=season.fixtures[0],
        text="Dave waits out every turn.",
    )

    as_member(page, mo)
    page.goto("/moderation/")
    item = page.locator(f'.case-item[data-case="{case.pk}"]')
    item.get_by_role("link", name="Dave").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Dave")
    suspension = page.locator(".record-suspension")
    expect(suspension).to_contain_text("Lifted")
    expect(suspension).to_contain_text("Three days was too much.")
    expect(page.get_by_role("region", name="Warnings")).to_contain_text("Keep the chat civil.")
    cases = page.locator(".record-case")
    expect(cases).to_have_count(2)
    snap(page, "moderation-member-record")
    page.set_viewport_size({"width": 390, "height": 844})
    assert fits_the_width(page)
    page.set_viewport_size({"width": 1280, "height": 800})

    # The archive, by member.
    page.get_by_role("link", name="Decided cases of Dave in the archive").click()
    expect(page.locator(".record-case")).to_have_count(1)
    expect(page.get_by_label("Member (username)")).to_have_value("dave")
    snap(page, "moderation-archive")

    # The case page: a note, then its correction.
    page.goto(f"/moderation/cases/{case.pk}/")
    page.get_by_label("New note").fill("Erin says they share a house.")
    page.get_by_role("button", name="Add the note").click()
    expect(page.get_by_text("Your note is added")).to_be_visible()
    page.get_by_label("New note").fill(NOTE)
    page.get_by_label("Corrects").select_option(index=1)
    page.get_by_role("button", name="Add the note").click()
    notes = page.locator(".case-note")
    expect(notes).to_have_count(2)
    expect(notes.nth(1)).to_contain_text("corrects note")
    expect(notes.nth(0)).to_contain_text("Erin says they share a house.")
    snap(page, "moderation-case-notes")
    page.set_viewport_size({"width": 390, "height": 844})
    assert fits_the_width(page)

    # Bob, who filed, reads the case as a party: no notes, no records.
    as_member(page, bob)
    page.goto(f"/moderation/cases/{case.pk}/")
    expect(page.locator(".case-report-text")).to_have_text("Dave waits out every turn.")
    expect(page.get_by_text(NOTE)).to_have_count(0)
    expect(page.locator(".case-note")).to_have_count(0)
    expect(page.locator('a[href^="/moderation/members/"]')).to_have_count(0)
    snap(page, "moderation-case-party-no-notes")
    page.goto("/moderation/members/dave/")
    expect(page.get_by_text("Members' records are for moderators.")).to_be_visible()
