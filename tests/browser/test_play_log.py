"""What happened, in the browser: the move log followed live, a timeout told in words,
the tiles just drawn and just laid marked, tiles in sentences shown as tiles, one value
for an initial meld, one step of undo, and an alert when the turn comes round.

Games are dealt from their seed (no hand-made positions where the log matters: the log
is the replay of the moves). The server pushes what the test's services do.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.conftest import REPORT_VIOLATIONS, Violations, log_in, wait_until
from tests.browser.test_games import open_game
from tests.games.conftest import current_game, start_table
from tests.games.positions import set_position
from tests.games.test_move_log import seed_where_the_starter_melds_with_a_joker
from tests.games.views_support import mover, waiter

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def phone(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    """A touch phone's browser, 390 x 844."""
    context = browser.new_context(base_url=live_server_url, **PHONE)
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", csp_violations.record)
    yield page
    context.close()


@pytest.fixture(params=["desktop", "phone"])
def screen(request: pytest.FixtureRequest, page: Page, phone: Page) -> Page:
    """The player's browser: a desktop's, then a touch phone's."""
    return phone if request.param == "phone" else page


def is_phone(screen: Page) -> bool:
    return (screen.viewport_size or {"width": 1280})["width"] < 600


def time_out(game: Game) -> None:
    """The turn's clock runs out now (as the clock task would do it)."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.time_out_turn(game.pk, game.turn_number) is not None


# --- a timeout -------------------------------------------------------------------------


def test_a_timeout_is_told_in_words_where_the_player_looks(
    screen: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    player = mover(game)
    log_in(screen, player)
    open_game(screen, game)
    tile = screen.locator(".rack-tiles button.tile").first
    tile.click()
    screen.get_by_role("button", name="New set").click()
    expect(screen.locator("#game-board .meld:not(.meld-new)")).to_have_count(1)

    time_out(game)

    note = screen.locator("#game-rack .timeout-note")
    expect(note).to_contain_text(
        "Your time ran out: your tiles went back and you drew 3 penalty tiles"
    )
    expect(note.locator(".tile-small")).to_have_count(3)
    expect(screen.locator(".rack-tiles .tile.is-drawn")).to_have_count(3)
    expect(screen.locator("#game-board .meld:not(.meld-new)")).to_have_count(0)
    expect(screen.locator("#game-log .move-entry").first).to_contain_text("Your time ran out")
    # Told where the rack is, which is where the player was working.
    screen.locator(".rack-tiles").scroll_into_view_if_needed()
    expect(note).to_be_in_viewport()


# --- the move log, live ----------------------------------------------------------------


def test_the_others_see_a_draw_live_in_the_log_without_the_tile(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    first, second = mover(game), waiter(game)
    log_in(page, first)
    log_in(other_page, second)
    open_game(page, game)
    open_game(other_page, game)
    expect(page.locator("#game-log")).to_contain_text("No moves yet.")

    page.get_by_role("button", name="Draw a tile").click()

    mine = page.locator("#game-log .move-entry").first
    # Each move carries its time (walk W13), between its turn and its words.
    expect(mine).to_contain_text(re.compile(r"^Turn 1 \S.* You drew"))
    expect(mine.locator("time")).to_have_count(1)
    expect(mine.locator(".tile-small")).to_have_count(1)
    drawn = mine.locator(".tile-small").get_attribute("data-tile")
    expect(page.locator(f'.rack-tiles .tile.is-drawn[data-tile="{drawn}"]')).to_have_count(1)
    expect(page.locator(".drawn-note")).to_contain_text("the tile you just drew")

    theirs = other_page.locator("#game-log .move-entry").first
    expect(theirs).to_have_text(re.compile(rf"^Turn 1 \S.* {first.display_name} drew a tile\.$"))
    expect(theirs.locator(".tile")).to_have_count(0)
    expect(other_page.locator(".rack-tiles .tile.is-drawn")).to_have_count(0)

    other_page.get_by_role("button", name="Draw a tile").click()
    expect(page.locator("#game-log .move-entry")).to_have_count(2)
    expect(page.locator("#game-log .move-entry").first).to_have_text(
        re.compile(rf"^Turn 2 \S.* {second.display_name} drew a tile\.$")
    )
    # Still marked: the drawer has not moved since.
    expect(page.locator(".rack-tiles .tile.is-drawn")).to_have_count(1)


# --- one value for an initial meld, and the tiles of the last play ---------------------


def test_hint_verdict_and_log_give_an_initial_meld_one_value(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    with override_settings(GAMES_ROUND_SEED=seed_where_the_starter_melds_with_a_joker):
        game = current_game(start_table(alice, bob))
    first, second = mover(game), waiter(game)
    log_in(page, first)
    log_in(other_page, second)
    open_game(page, game)
    open_game(other_page, game)

    page.get_by_role("button", name="Hint").click()
    heading = page.locator("#game-help h3")
    expect(heading).to_contain_text("initial meld worth")
    worth = heading.inner_text().rsplit(" ", 1)[-1]
    expect(heading).not_to_contain_text("points")
    page.get_by_role("button", name="Use this").click()
    expect(page.locator("#verdict")).to_contain_text(f"initial meld worth {worth}")
    laid = page.locator("#game-board .meld .tile.is-new")
    expect(laid).not_to_have_count(0)
    count = laid.count()
    expect(page.locator(".laid-note")).to_contain_text("the tiles you laid this turn")

    page.get_by_role("button", name="End turn").click()

    expect(other_page.locator("#game-log .move-entry").first).to_contain_text(
        f"as the initial meld (worth {worth})."
    )
    expect(other_page.locator("#game-board .meld .tile.is-new")).to_have_count(count)
    expect(other_page.locator(".laid-note")).to_contain_text("the tiles of the last play")


# --- tiles in sentences, and undo ------------------------------------------------------


def test_sentences_show_tiles_and_a_step_is_taken_back(
    screen: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    set_position(game, [["R5", "R6", "R7"]], ["K1", "K2", "K3", "O4"])
    log_in(screen, mover(game))
    open_game(screen, game)
    rack = screen.locator(".rack-tiles")

    for code in ("K1", "K2"):
        rack.locator(f'[data-tile="{code}"]').click()
    screen.get_by_role("button", name="New set").click()
    note = screen.locator("#game-board .meld").nth(1).locator(".meld-note")
    expect(note).to_contain_text("has only 2 tiles")
    expect(note.get_by_role("img", name="black 1")).to_have_count(1)
    assert "K1" not in note.inner_text()  # no codes: a small black 1

    rack.locator('[data-tile="O4"]').click()
    screen.get_by_role("button", name="Put the picked tiles in set 2").click()
    expect(screen.locator("#game-board .meld").nth(1).locator(".meld-tiles .tile")).to_have_count(3)

    # As a player would: once the change is shown and no request is on its way.
    expect(screen.get_by_role("button", name="Undo")).to_be_visible()
    expect(screen.locator(".htmx-request")).to_have_count(0)
    if is_phone(screen):
        screen.get_by_role("button", name="Undo").tap()
    else:
        rack.locator("button.tile").first.focus()
        screen.keyboard.press("Control+z")

    expect(screen.locator("#game-message")).to_contain_text("Your last change is undone.")
    expect(screen.locator("#game-board .meld").nth(1).locator(".meld-tiles .tile")).to_have_count(2)
    expect(rack.locator('[data-tile="O4"]')).to_have_count(1)
    expect(screen.get_by_role("button", name="Undo")).to_have_count(0)
    # A refusal's sentence shows its tiles too.
    screen.get_by_role("button", name="End turn").click()
    alert = screen.locator("#game-message [role=alert]")
    expect(alert.get_by_role("img", name="black 2")).to_have_count(1)
    assert "K2" not in alert.inner_text()


# --- an alert when the turn comes round ------------------------------------------------

RECORD_ALERTS = """
window.__alerts = {chimes: 0, notes: [], asked: 0};
window.Notification = class {
  constructor(title, options) { window.__alerts.notes.push([title, options.body]); }
  close() {}
  static get permission() { return window.__alerts.asked ? "granted" : "default"; }
  static requestPermission() { window.__alerts.asked += 1; return Promise.resolve("granted"); }
};
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__alerts.chimes += 1; return super.createOscillator(); }
};
"""


def test_a_sound_and_a_notification_say_the_turn_came_round(
    page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    first, second = mover(game), waiter(game)
    page.context.add_init_script(RECORD_ALERTS)
    log_in(page, second)
    open_game(page, game)
    button = page.get_by_role("button", name="Alert me on my turn")

    button.click()

    expect(page.locator("[data-turn-alerts]")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__alerts.asked") == 1
    page.evaluate("window.__alerts.chimes = 0; document.hasFocus = () => false")

    services.draw(game.pk, first, 0)

    expect(page.locator("#game-status .turn-who")).to_have_text("Your turn")
    wait_until(page, "() => window.__alerts.notes.length > 0")
    assert page.evaluate("window.__alerts.notes.length") == 1
    assert page.evaluate("window.__alerts.notes[0][0]") == "Your turn"
    assert page.evaluate("window.__alerts.chimes") > 0
    # The setting outlives the page, and the push that re-renders the button keeps it.
    expect(page.locator("[data-turn-alerts]")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("[data-turn-alerts]")).to_have_attribute("aria-pressed", "true")
