"""The organisers' page of a season in a real browser: the close preview comes in by htmx,
the confirmation closes the matchday, and the history shows why; a score change one
organiser proposes waits until a second one confirms it from the page that shows what
it changes."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game, Result
from games.services.adjudication import stop_round
from leagues.models import Membership, Role
from tests.browser.conftest import log_in
from tests.factories import UserFactory
from tests.leagues.conftest import running_season

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_an_organiser_closes_a_matchday_from_its_preview(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    alice: User = UserFactory(username="alice", display_name="Alice")
    # Alice organises and plays in no fixture: she may close the matchday early.
    players = [
        UserFactory(username=name, display_name=name.title())
        for name in ("bob", "dave", "erin", "frank")
    ]
    running_season(alice, players)
    log_in(page, alice)
    tag = "desktop" if size[0] > 400 else "phone"

    page.goto("/clubs/tile-club/winter/1/organiser/")
    expect(page.get_by_role("heading", name="Matchday 1")).to_be_visible()
    page.get_by_text("Close matchday…").click()
    expect(page.get_by_text("Before you confirm")).to_be_visible()
    shot(page, f"organiser-{tag}")
    page.locator(".organiser-close").get_by_label("Reason").fill("Everyone agreed to stop.")
    page.get_by_role("button", name="Confirm: close matchday 1").click()
    expect(page.get_by_text("Matchday 1 is closed.")).to_be_visible()
    expect(page.get_by_text("game 1 of 2 scored as it stands").first).to_be_visible()
    shot(page, f"organiser-closed-{tag}")

    page.goto("/clubs/tile-club/winter/1/history/")
    expect(page.get_by_text("Why: Everyone agreed to stop.").first).to_be_visible()
    shot(page, f"history-{tag}")


def test_a_score_change_waits_for_a_second_organiser_who_confirms_it(
    page: Page, other_page: Page
) -> None:
    alice: User = UserFactory(username="alice", display_name="Alice")
    players = [
        UserFactory(username=name, display_name=name.title()) for name in ("bob", "dave", "erin")
    ]
    running = running_season(alice, [*players, alice])
    olga: User = UserFactory(username="olga", display_name="Olga")
    Membership.objects.create(club=running.club, user=olga, role=Role.ORGANISER)
    bob_dave = running.fixtures[0]
    assert bob_dave.table_id is not None
    stop_round(bob_dave.table_id)
    game = Game.objects.get(table_id=bob_dave.table_id, number=1)

    # Alice proposes dave's score in bob-dave (she plays erin-alice, not this fixture);
    # bob won it, and under zero-sum scoring his score follows.
    log_in(page, alice)
    page.goto(f"/clubs/tile-club/winter/1/organiser/fixtures/{bob_dave.pk}/result/")
    page.get_by_label("Seat").select_option("1")
    expect(page.locator("[data-zero-sum]")).to_contain_text("the winner's moves the other way")
    page.get_by_label("New score").fill("-77")
    page.get_by_label("Reason").fill("The rack was counted twice.")
    page.get_by_role("button", name="Adjust").click()
    expect(page.get_by_text("waits for a second organiser or moderator")).to_be_visible()
    expect(page.get_by_role("link", name="Game 1, seat 2:")).to_be_visible()
    shot(page, "adjustment-proposed")
    before = dict(Result.objects.current().of_game(game).values_list("seat", "score"))
    assert before[1] != -77

    # Olga finds it on the organisers' page, reads what it changes, and confirms it.
    log_in(other_page, olga)
    other_page.goto("/clubs/tile-club/winter/1/organiser/")
    waiting = other_page.locator("#waiting-adjustments")
    expect(waiting.get_by_text("proposed by Alice")).to_be_visible()
    waiting.get_by_role("link").first.click()
    expect(other_page.get_by_role("heading", name="What it changes")).to_be_visible()
    expect(other_page.get_by_text("→ -77").first).to_be_visible()
    winner = before[0] - (-77 - before[1])
    expect(other_page.get_by_text(f"→ {winner}").first).to_be_visible()
    shot(other_page, "adjustment-to-confirm")
    other_page.get_by_role("button", name="Confirm").click()
    expect(other_page.get_by_text("You confirmed the score change")).to_be_visible()
    expect(other_page.locator("#adjustment-status")).to_contain_text("Confirmed")
    after = dict(Result.objects.current().of_game(game).values_list("seat", "score"))
    assert after == {0: winner, 1: -77} and sum(after.values()) == sum(before.values())

    # Alice's page of the fixture shows it confirmed.
    page.reload()
    expect(page.get_by_text("Confirmed by a second organiser")).to_be_visible()
