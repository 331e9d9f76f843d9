"""The whole of a dispute, through the real pages, as the issue's "Done when" walks it.

A player files a dispute from a finished league game; a moderator of the club claims it
from the queue, opens the evidence from the case hub (every rack, turn by turn, and the
solver's line), sets the result with a note, previews the standings and proposes it; a
second moderator of the club confirms it. The parties find the outcome in their
notices, the division sees the corrected standings, one of them appeals and a moderator
answers. A moderator who sat at that table may not claim the case. Apart: a chat
message is reported and its sender warned (and reads the warning), and a member
suspended through the ruling form still logs in and appeals.
"""

from __future__ import annotations

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import ChatMessage, Game, Result
from leagues.models import Fixture, Membership, Role
from moderation.models import Case, Ruling, Suspension
from tests.browser.conftest import log_in
from tests.browser.test_appeals import open_notice
from tests.browser.test_chat import open_game, send
from tests.browser.test_clubs import snap
from tests.browser.test_evidence import site_moderator
from tests.browser.test_moderation_queue import as_member
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.conftest import club_moderator, league_fixture, league_game

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

__all__ = [
    "_eager_celery",
    "club_moderator",
    "league_fixture",
    "league_game",
    "running",
    "site_moderator",
]

NOTE = "The server refused Dave's winning play on turn 3: the game is scored as his win."


@pytest.fixture
def second_moderator(running: RunningSeason) -> User:
    """Max moderates the club too and plays in no division: he may confirm."""
    user = UserFactory(username="max", display_name="Max")
    Membership.objects.create(club=running.club, user=user, role=Role.MODERATOR)
    return user


def test_a_league_dispute_from_filing_to_appeal(
    page: Page,
    other_page: Page,
    running: RunningSeason,
    league_fixture: Fixture,
    league_game: Game,
    bob: User,
    dave: User,
    club_moderator: User,
    second_moderator: User,
) -> None:
    game, mo, max_ = league_game, club_moderator, second_moderator
    standings_url = f"/clubs/{running.club.slug}/winter/1/standings/"
    # Dave moderates the club as well, but he sat at this table.
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)

    # Bob files from the finished league game's page.
    log_in(page, bob)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("link", name="Report a problem").click()
    page.get_by_label("A bug: my move was refused or went wrong").check()
    page.get_by_label("Turn").fill("3")
    page.get_by_label("About whom").select_option(label="Dave")
    page.get_by_label("What happened").fill("Dave's last play vanished and I was scored the win.")
    page.get_by_role("button", name="File the report").click()
    case = Case.objects.get()
    expect(page.get_by_text(f"Your report is filed as case {case.pk}")).to_be_visible()
    snap(page, "flow-1-filed")

    # Dave, a moderator who sat at the table, may not claim it.
    log_in(other_page, dave)
    other_page.goto("/moderation/")
    item = other_page.locator(f'.case-item[data-case="{case.pk}"]')
    expect(item).to_contain_text("You sat at this game's table.")
    expect(item.get_by_role("button", name="Claim")).to_have_count(0)
    snap(other_page, "flow-2-conflict")
    item.get_by_role("link", name=f"Case {case.pk}").click()
    expect(other_page.get_by_role("heading", name="The case")).to_be_visible()
    expect(other_page.locator(".case-report-text")).to_have_count(0)  # not who reported him

    # Mo claims it from the queue and reads the evidence from the case hub.
    as_member(page, mo)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Moderation").click()
    item = page.locator(f'.case-item[data-case="{case.pk}"]')
    expect(item).to_contain_text("1 filer")
    snap(page, "flow-3-queue")
    item.get_by_role("button", name="Claim").click()
    expect(page.get_by_text(f"You took case {case.pk}")).to_be_visible()
    snap(page, "flow-4-hub-claimed")
    page.get_by_role("link", name="Evidence: every rack, turn by turn").click()
    panel = page.locator("#evidence-turn")
    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 1: Bob")
    expect(panel.locator("[data-rack-seat]")).to_have_count(2)
    expect(panel.locator("[data-rack-seat] .tile").first).to_be_visible()
    expect(panel.locator("[data-solver-line]")).to_contain_text("Solver:")
    snap(page, "flow-5-evidence")
    panel.locator('[data-evidence-nav="next"]').click()
    expect(panel.get_by_role("heading", level=2)).to_have_text("Turn 2: Dave")
    expect(panel.locator("[data-solver-line]")).to_contain_text("Solver:")

    # Back on the hub, mo sets the result with a note and previews the standings.
    page.goto(f"/moderation/cases/{case.pk}/")
    page.get_by_role("link", name="Make a ruling").click()
    page.get_by_label("Set the result").check()
    form = page.locator(".ruling-form")
    form.locator('input[name="score_0"]').fill("-30")
    form.locator('input[name="score_1"]').fill("30")
    form.locator('input[name="winner"][value="1"]').check()
    page.get_by_label("Note").fill(NOTE)
    page.get_by_role("button", name="Preview").click()
    preview = page.get_by_role("region", name="Preview: what the ruling changes")
    expect(preview.locator(".preview-standings tbody tr").first).to_contain_text("Dave")
    snap(page, "flow-6-preview")
    assert not Ruling.objects.exists()
    page.get_by_role("button", name="Propose to a second moderator").click()
    expect(page.locator(".ruling-status")).to_have_text("Awaiting a second moderator")
    snap(page, "flow-7-proposed")
    ruling = Ruling.objects.get()
    assert ruling.status == Ruling.Status.PROPOSED
    assert Result.objects.current().of_game(game).get(seat=0).is_winner  # not yet

    # Max, the club's second moderator, confirms it from his notice.
    as_member(other_page, max_)
    open_notice(other_page, f"proposes a ruling in case {case.pk}")
    confirming = other_page.get_by_role("region", name="Preview: what the ruling changes")
    expect(confirming.locator(".preview-standings tbody tr").first).to_contain_text("Dave")
    snap(other_page, "flow-8-to-confirm")
    other_page.get_by_role("button", name="Confirm and apply").click()
    expect(other_page.locator(".ruling-status")).to_have_text("Applied")
    expect(other_page.locator(".lead")).to_contain_text("confirmed by Max")
    snap(other_page, "flow-8-confirmed")
    assert Result.objects.current().of_game(game).get(seat=1).is_winner

    # The parties are told; the division sees the correction.
    as_member(other_page, dave)
    open_notice(other_page, "A ruling about you")
    expect(other_page.locator(".ruling")).to_contain_text(NOTE)
    other_page.goto(f"/moderation/cases/{case.pk}/")
    other_page.locator(".rulings-slot").get_by_role("link", name="Set the result").click()
    expect(other_page.get_by_role("heading", level=1)).to_have_text(f"Case {case.pk}: the outcome")
    other_page.goto(standings_url)
    expect(other_page.locator(".standings-table tbody tr").first).to_contain_text("Dave")
    expect(other_page.locator(".corrections")).to_contain_text("Corrected by a ruling")
    snap(other_page, "flow-9-standings")

    as_member(page, bob)
    open_notice(page, "Your report on game 1")
    expect(page.locator(".outcome")).to_contain_text(NOTE)
    snap(page, "flow-10-outcome")
    page.get_by_label("Your message").fill("Dave's play was illegal: the server was right.")
    page.get_by_role("button", name="Appeal").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your appeal")

    # Mo answers the appeal from the appeals queue; bob reads it.
    as_member(other_page, mo)
    other_page.goto("/moderation/appeals/")
    other_page.locator(".appeal-queue a").first.click()
    other_page.get_by_label("Your message").fill("The move log shows a valid run of four.")
    other_page.get_by_role("button", name="Answer").click()
    expect(other_page.locator(".from-moderator")).to_contain_text("a valid run of four")
    snap(other_page, "flow-11-appeal-answered")
    page.reload()
    expect(page.locator(".appeal-thread")).to_contain_text("a valid run of four")


def test_a_reported_chat_message_leads_to_a_warning_its_sender_reads(
    page: Page, other_page: Page, alice: User, bob: User, site_moderator: User
) -> None:
    game = current_game(start_table(alice, bob, first=0, turn_seconds=600))
    open_game(page, alice, game)
    open_game(other_page, bob, game)
    send(page, "You play like a donkey")
    message = ChatMessage.objects.get()

    other_page.get_by_role("link", name="Report this message of Alice").click()
    other_page.get_by_label("Abusive chat").check()
    other_page.get_by_label("What happened").fill("Insults at the table.")
    other_page.get_by_role("button", name="Report the message").click()
    expect(other_page.get_by_text("Your report is filed as case")).to_be_visible()
    case = Case.objects.get()
    assert case.message_id == message.pk
    snap(other_page, "flow-chat-1-filed")

    as_member(other_page, site_moderator)
    other_page.goto("/moderation/")
    other_page.locator(f'.case-item[data-case="{case.pk}"]').get_by_role(
        "button", name="Claim"
    ).click()
    expect(other_page.locator(".reported-message")).to_contain_text("You play like a donkey")
    other_page.get_by_role("link", name="Make a ruling").click()
    other_page.get_by_label("Warn a member").check()
    other_page.get_by_label("Member", exact=True).select_option(label="Alice")
    other_page.get_by_label("Note").fill("Insulting another player is not allowed here.")
    other_page.get_by_role("button", name="Preview").click()
    other_page.get_by_role("button", name="Confirm and apply").click()
    expect(other_page.locator(".ruling-status")).to_have_text("Applied")
    snap(other_page, "flow-chat-2-warned")
    ruling = Ruling.objects.get()
    assert ruling.kind == Ruling.Kind.WARN and ruling.target == alice

    open_notice(page, "A ruling about you")
    expect(page.locator(".ruling")).to_contain_text("Insulting another player is not allowed")
    expect(page.locator(".outcome .reported-message")).to_contain_text("You play like a donkey")
    snap(page, "flow-chat-3-warning-read")


def test_a_member_suspended_from_the_ruling_form_logs_in_and_appeals(
    page: Page,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
) -> None:
    log_in(page, bob)
    page.goto(f"/moderation/report/game/{league_game.pk}/")
    page.get_by_label("Stalling or abandonment").check()
    page.get_by_label("About whom").select_option(label="Dave")
    page.get_by_label("What happened").fill("Dave left and never came back.")
    page.get_by_role("button", name="File the report").click()
    case = Case.objects.get()

    as_member(page, club_moderator)
    page.goto(f"/moderation/cases/{case.pk}/")
    page.get_by_role("button", name="Claim").click()
    page.get_by_role("link", name="Make a ruling").click()
    page.get_by_label("Suspend a member").check()
    page.get_by_label("Member", exact=True).select_option(label="Dave")
    page.locator('input[name="days"]').fill("14")
    page.get_by_label("from the club").check()
    page.get_by_label("Note").fill("Three games left to time out this month.")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Confirm and apply").click()
    expect(page.locator(".ruling-status")).to_have_text("Applied")
    assert Suspension.objects.get(user=dave).club is not None  # the club's

    page.context.clear_cookies()
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        dave.set_password("a-long-password-of-dave")
        dave.save(update_fields=["password"])
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("dave")
    page.get_by_label("Password").fill("a-long-password-of-dave")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Good to see you")
    open_notice(page, "A ruling about you")
    expect(page.locator(".suspension-note")).to_contain_text("Suspended from Tile Club")
    expect(page.locator(".suspension-note")).to_contain_text("You can still log in")
    page.get_by_label("Your message").fill("I was in hospital; here is the note.")
    page.get_by_role("button", name="Appeal").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your appeal")
    snap(page, "flow-suspended-appeal")
