"""A newcomer's first game on a touch phone (390x844), from the sign-up form to the
result: at every one of their turns the clock and the turn's buttons are on screen without
scrolling; then Back and Forward through the game, its replay and the table page each show
a whole, styled page.

The game is kept short without touching its record: the table's pool ends the game at once
when it runs out, and the newcomer draws every turn, so the rack grows to some 50 tiles
(the replay then rebuilds the game from its seed and moves, as for any game). The bot may
go out first; either way the game ends in at most some 40 turns of the newcomer's.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Table
from tests.browser.test_games import worker
from tests.browser.test_signup import sign_up

pytestmark = pytest.mark.browser

__all__ = ["worker"]  # the Celery worker that plays the bot's turns, from test_games

PASSWORD = "first-game-5678"
SITE_BACKGROUND = "rgb(246, 242, 234)"  # static/css: the body's colour on every page
SHOTS = Path("/tmp/newcomer")


def shot(page: Page, name: str) -> None:
    """A screenshot of the phone's screen (not the whole page) to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png")


def create_a_table_against_a_bot(page: Page) -> None:
    page.get_by_role("link", name="New table").first.click()
    page.get_by_label("Seat 2", exact=True).select_option("bot_easy")
    page.get_by_label("Games in the round").fill("1")
    page.get_by_text("All options").click()
    page.get_by_label("The game ends").select_option("immediate")
    shot(page, "1-new-table")
    page.get_by_role("button", name="Create the table").click()
    # Every seat is taken: the game starts and the newcomer is taken to it.
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("#game-board")).to_be_visible()


# Which of the elements have something else laid over their middle (the rack's dock grows
# with the rack).
UNCOVERED = """selectors => selectors.filter(selector => {
  const element = document.querySelector(selector);
  const box = element.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return !(hit && element.contains(hit));
})"""
TURN_PARTS = ["#game-status .turn-who", "#game-status .countdown", ".button-end", ".button-draw"]


def on_screen_without_scrolling(page: Page) -> None:
    """The turn, its clock, Draw and End turn are inside the phone's screen, uncovered."""
    for what in TURN_PARTS:
        expect(page.locator(what).first).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(UNCOVERED, TURN_PARTS) == []


def play_by_drawing_to_the_result(page: Page) -> int:
    """Draw at each of the newcomer's turns until the game ends; the turns played."""
    turn = page.locator("#game-status .turn-who")
    result = page.locator("#game-status .result")
    turns = 0
    while True:
        # The bot's turn (a second or two) ends in the newcomer's turn or in the result.
        expect(turn.filter(has_text="Your turn").or_(result)).to_be_visible(timeout=30_000)
        if result.count():
            return turns
        on_screen_without_scrolling(page)
        # The first turn, and the last (with the longest rack) once the game is over.
        shot(page, "2-turn-first" if turns == 0 else "2-turn-last")
        turns += 1
        page.get_by_role("button", name="Draw a tile").click()
        expect(turn.filter(has_text="Your turn")).to_have_count(0)


def whole_page(page: Page, url: re.Pattern[str], heading: str | None = None) -> None:
    """``page`` is at ``url`` and shows a whole page: the site's header and its styles."""
    expect(page).to_have_url(url)
    expect(page.locator(".site-header")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == SITE_BACKGROUND
    if heading is not None:
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)


def test_a_newcomer_plays_a_first_game_on_a_phone_from_sign_up_to_the_result(
    phone: Page, worker: None
) -> None:
    page = phone
    page.goto("/")
    sign_up(page, "nova", "Nova", PASSWORD)
    expect(page.get_by_role("status")).to_contain_text("Welcome to the club, Nova!")
    create_a_table_against_a_bot(page)
    game = Game.objects.get()
    assert game.engine_state().ruleset.pool_empty_end == "immediate"

    turns = play_by_drawing_to_the_result(page)

    heading = page.locator("#game-status .result h2")
    expect(heading).to_contain_text("game 1")
    expect(page.locator("#game-status .result")).to_contain_text(
        re.compile("The pool ran out.|A player emptied their rack.")
    )
    expect(heading).to_be_in_viewport(ratio=1)
    shot(page, "3-result")
    assert turns > 0
    game.refresh_from_db()
    assert game.table.status == Table.Status.FINISHED

    # Back and Forward: the game, its replay (two turns in) and the table page.
    game_url = re.compile(rf"/games/{game.pk}/$")
    replay_at = [re.compile(rf"/games/{game.pk}/replay/$")]
    table_url = re.compile(rf"/games/tables/{game.table_id}/$")
    page.get_by_role("link", name="Replay this game").click()
    whole_page(page, replay_at[0])
    for step in (1, 2):
        page.get_by_role("link", name="Next →").click()
        replay_at.append(re.compile(rf"/games/{game.pk}/replay/\?turn={step}$"))
        expect(page.locator(".replay-position")).to_contain_text(f"Turn {step}")
    page.get_by_role("link", name=f"Table {game.table_id}").click()
    whole_page(page, table_url, f"Table {game.table_id}")
    shot(page, "4-table")

    for at in reversed(replay_at):
        page.go_back()
        whole_page(page, at)
        expect(page.locator(".replay-position")).to_be_visible()
    shot(page, "5-back-to-replay")
    page.go_back()
    whole_page(page, game_url)
    expect(page.locator("#game-status .result h2")).to_contain_text("game 1")
    shot(page, "6-back-to-game")

    for at in replay_at:
        page.go_forward()
        whole_page(page, at)
        expect(page.locator(".replay-position")).to_be_visible()
    page.go_forward()
    whole_page(page, table_url, f"Table {game.table_id}")
    shot(page, "7-forward-to-table")
