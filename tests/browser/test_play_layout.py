"""The game page's layout on a desktop (1280x800) and a touch phone (390x844): the turn,
its clock and End turn stay on screen, the result of a game comes into view, a finger
reaches every set, the keyboard reaches the table in a few keys, and tiles do not rely on
colour alone.

Each test plays on a long table (more sets than a screen holds), where the page scrolls.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games.models import Game
from tests.browser.conftest import Violations, log_in, new_page, wait_until
from tests.browser.test_games import board_sets, open_game
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.positions import set_position
from tests.games.views_support import mover, url, waiter

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]

SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}

LONG_TABLE = [
    ["R1", "R2", "R3"],
    ["B4", "B5", "B6", "B7"],
    ["K9", "O9", "R9"],
    ["O10", "O11", "O12", "O13"],
    ["K5", "K6", "K7"],
    ["B11", "R11", "O11"],
    ["R12", "R13", "J"],
    ["B1", "B2", "B3"],
    ["K10", "K11", "K12"],
    ["O4", "O5", "O6"],
]
RACK = ["R4", "R5", "B9", "B10", "K1", "K13", "O1", "O2", "O3", "B12", "R7", "O7", "K2", "B13"]


def pages_on(browser: Browser, url: str, violations: Violations, screen: str) -> Iterator[Page]:
    """A page on ``screen``, closed after the test; the CSP's refusals fail the test."""
    page = new_page(browser, url, violations, **SCREENS[screen])
    yield page
    page.context.close()
    assert not violations, violations


@pytest.fixture(params=list(SCREENS))
def player_page(
    request: pytest.FixtureRequest,
    browser: Browser,
    live_server_url: str,
    transactional_db: None,
    csp_violations: Violations,
) -> Iterator[Page]:
    yield from pages_on(browser, live_server_url, csp_violations, request.param)


@pytest.fixture
def phone_page(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    yield from pages_on(browser, live_server_url, csp_violations, "phone")


@pytest.fixture
def desktop_page(
    browser: Browser, live_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    yield from pages_on(browser, live_server_url, csp_violations, "desktop")


@pytest.fixture
def game(transactional_db: None) -> Game:
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    return current_game(start_table(alice, bob))


def play_long_table(page: Page, game: Game, rack: list[str] = RACK) -> User:
    set_position(game, LONG_TABLE, rack)
    player = mover(game)
    log_in(page, player)
    open_game(page, game)
    return player


def scroll_to(page: Page, where: str) -> None:
    page.evaluate(
        "where => window.scrollTo(0, where === 'bottom' ? document.body.scrollHeight"
        " : where === 'middle' ? document.body.scrollHeight / 3 : 0)",
        where,
    )


def fully_in_view(page: Page, selector: str) -> None:
    expect(page.locator(selector).first).to_be_in_viewport(ratio=1)


# --- the turn, the clock and End turn ---------------------------------------------------


def test_end_turn_is_on_screen_at_once_and_wherever_the_table_is_scrolled(
    player_page: Page, game: Game
) -> None:
    play_long_table(player_page, game)

    assert player_page.evaluate("window.scrollY") == 0
    for where in ("top", "middle", "bottom"):
        scroll_to(player_page, where)
        fully_in_view(player_page, ".button-end")
        if player_page.viewport_size == SCREENS["phone"]["viewport"]:
            # On one column the turn and its clock stick to the top as well.
            fully_in_view(player_page, "#game-status .turn-who")
            fully_in_view(player_page, "#game-status .countdown")


def test_end_turn_stays_on_screen_with_the_hint_open_and_the_hint_comes_into_view(
    player_page: Page, game: Game
) -> None:
    play_long_table(player_page, game)

    player_page.get_by_role("button", name="Hint").click()

    expect(player_page.locator("#game-help h3")).to_contain_text("Hint")
    fully_in_view(player_page, "#game-help .hint-head")
    fully_in_view(player_page, ".button-end")
    player_page.get_by_role("button", name="Use this").click()
    expect(player_page.locator("#verdict")).to_contain_text("ready to end your turn")
    fully_in_view(player_page, ".button-end")


def test_a_refusal_shows_above_the_rack_not_behind_it(player_page: Page, game: Game) -> None:
    set_position(game, LONG_TABLE, RACK, meld_done=False)
    log_in(player_page, mover(game))
    open_game(player_page, game)

    player_page.locator('.rack-tiles [data-tile="K1"]').click()
    player_page.locator('.rack-tiles [data-tile="K2"]').click()
    player_page.get_by_role("button", name="New set").click()
    expect(player_page.locator("#game-board .meld.is-invalid")).to_have_count(1)
    player_page.get_by_role("button", name="End turn").click()

    alert = player_page.locator("#game-message [role=alert]")
    expect(alert).to_be_visible()
    expect(alert).to_be_in_viewport(ratio=1)
    # Not under the dock: the point at the alert's middle is the alert.
    assert player_page.evaluate(
        """() => {
            const alert = document.querySelector('#game-message [role=alert]');
            const box = alert.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return Boolean(hit && hit.closest('#game-message'));
        }"""
    )


# --- the end of the game --------------------------------------------------------------


def test_the_result_comes_into_view_when_the_player_ends_the_game_from_the_rack(
    player_page: Page, game: Game
) -> None:
    play_long_table(player_page, game, rack=["B10", "B11", "B12"])
    for tile in ("B10", "B11", "B12"):
        player_page.locator(f'.rack-tiles [data-tile="{tile}"]').click()
    player_page.get_by_role("button", name="New set").click()
    expect(player_page.locator("#verdict")).to_contain_text("ready to end your turn")
    # The player is down at the rack when they end the game.
    scroll_to(player_page, "bottom")
    player_page.get_by_role("button", name="End turn").click()

    heading = player_page.locator("#game-status .result h2")
    expect(heading).to_have_text("You win game 1!")
    expect(heading).to_be_in_viewport(ratio=1)
    expect(heading).to_be_focused()


def test_the_result_comes_into_view_when_another_player_ends_the_game(
    player_page: Page, game: Game
) -> None:
    set_position(game, LONG_TABLE, ["O8", "K8", "B8"])
    log_in(player_page, waiter(game))
    open_game(player_page, game)
    scroll_to(player_page, "bottom")

    # The other player goes out (their own browser is not needed for that).
    client = client_as(mover(game))
    laid = client.post(
        url("move", game),
        {"tile": ["O8", "K8", "B8"], "source": ["rack"] * 3, "target": "new"},
        headers={"HX-Request": "true"},
    )
    assert laid.status_code == 200
    ended = client.post(
        url("play", game), {"version": game.version}, headers={"HX-Request": "true"}
    )
    assert ended.status_code == 200

    heading = player_page.locator("#game-status .result h2")
    expect(heading).to_contain_text("wins game 1")
    expect(heading).to_be_in_viewport(ratio=1)


# --- the phone ------------------------------------------------------------------------


def test_the_phone_header_is_one_row_and_the_logo_leads_home(phone_page: Page, game: Game) -> None:
    play_long_table(phone_page, game)

    header = phone_page.locator(".site-header").bounding_box()
    assert header is not None
    assert header["height"] <= 64
    tops = phone_page.eval_on_selector_all(
        ".header-inner > *, .main-nav a",
        """els => els.filter(e => e.offsetParent).map(e => {
            const box = e.getBoundingClientRect();
            return Math.round(box.top + box.height / 2);
        })""",
    )
    assert max(tops) - min(tops) <= 4, tops
    for link in phone_page.locator(".main-nav a").all():
        if link.is_visible():
            expect(link).to_be_in_viewport(ratio=1)
    expect(phone_page.get_by_role("link", name="Rummikub Club")).to_be_visible()


def test_each_sets_plus_is_a_finger_wide(phone_page: Page, game: Game) -> None:
    play_long_table(phone_page, game)

    sizes = phone_page.eval_on_selector_all(
        "#game-board .drop-slot",
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])",
    )
    assert len(sizes) == len(LONG_TABLE)
    assert all(width >= 44 and height >= 44 for width, height in sizes), sizes


TOUCH = """
window.touchAt = (type, x, y) => {
    const init = {bubbles: true, cancelable: true, pointerType: "touch", pointerId: 9,
                  isPrimary: true, clientX: x, clientY: y};
    const target = type === "pointerdown" ? document.elementFromPoint(x, y) : document;
    target.dispatchEvent(new PointerEvent(type, init));
};
"""


def test_a_finger_dragging_a_tile_scrolls_to_a_set_out_of_view(
    phone_page: Page, game: Game
) -> None:
    play_long_table(phone_page, game)
    scroll_to(phone_page, "bottom")
    first_set = "#game-board .meld:first-child"
    expect(phone_page.locator(first_set)).not_to_be_in_viewport()
    phone_page.evaluate(TOUCH)
    # The page's foot (help, the rules) may run below the rack: the finger starts on a
    # tile it can see.
    phone_page.locator('.rack-tiles [data-tile="R4"]').scroll_into_view_if_needed()
    expect(phone_page.locator(first_set)).not_to_be_in_viewport()
    tile = phone_page.locator('.rack-tiles [data-tile="R4"]').bounding_box()
    assert tile is not None
    x, y = tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2
    phone_page.evaluate("([x, y]) => touchAt('pointerdown', x, y)", [x, y])
    # Up out of the rack, to just under the turn bar, and held there.
    bar = phone_page.locator(".status-live").bounding_box()
    assert bar is not None
    edge = bar["y"] + bar["height"] + 10
    for step in range(1, 6):
        phone_page.evaluate(
            "([x, y]) => touchAt('pointermove', x, y)", [x, y + (edge - y) * step / 5]
        )

    wait_until(
        phone_page,
        """([selector, edge]) => {
            const slot = document.querySelector(selector + ' .drop-slot').getBoundingClientRect();
            return slot.top > edge;
        }""",
        arg=[first_set, bar["y"] + bar["height"]],
    )
    # Onto the set's "+" where it is now (in one go: the page scrolls while the finger
    # stays near the edge).
    phone_page.evaluate(
        """selector => {
            const slot = document.querySelector(selector + ' .drop-slot').getBoundingClientRect();
            const x = slot.x + slot.width / 2, y = slot.y + slot.height / 2;
            touchAt('pointermove', x, y);
            touchAt('pointerup', x, y);
        }""",
        first_set,
    )

    expect(phone_page.locator("#verdict")).to_contain_text("Plays 1 tile")
    assert board_sets(phone_page)[0] == ["R1", "R2", "R3", "R4"]


# --- the keyboard ---------------------------------------------------------------------


def test_a_set_is_a_few_keys_from_the_rack(desktop_page: Page, game: Game) -> None:
    play_long_table(desktop_page, game)
    page = desktop_page
    page.locator('.rack-tiles [data-tile="R4"]').focus()
    page.keyboard.press("Enter")

    presses = 0
    while not page.evaluate("document.activeElement.matches('#game-board .drop-slot')"):
        page.keyboard.press("Shift+Tab")
        presses += 1
        assert presses <= 4, "a set's + is more than 4 Shift+Tabs from the rack"

    # Up from the rack goes to the table; down walks from set to set.
    page.locator('.rack-tiles [data-tile="R5"]').focus()
    page.keyboard.press("ArrowUp")
    expect(page.locator('#game-board [data-target="0"]')).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator('#game-board [data-target="1"]')).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict")).to_contain_text("Plays 1 tile")
    assert board_sets(page)[0] == ["R1", "R2", "R3", "R4"]


def test_the_keyboard_stays_at_the_rack_after_ending_the_turn(
    desktop_page: Page, game: Game
) -> None:
    play_long_table(desktop_page, game)
    page = desktop_page
    page.locator('.rack-tiles [data-tile="R4"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict")).to_contain_text("ready to end your turn")

    page.get_by_role("button", name="End turn").focus()
    page.keyboard.press("Enter")

    expect(page.locator("#game-status .turn-who")).to_contain_text("\u2019s turn")
    # The rack's tiles are no longer buttons: the focus is on the rack, not lost.
    wait_until(page, "() => Boolean(document.activeElement.closest('#game-rack .rack-tiles'))")
    expect(page.locator("body")).not_to_be_focused()


# --- colours --------------------------------------------------------------------------


def test_each_colour_has_a_mark_of_its_own(player_page: Page, game: Game) -> None:
    play_long_table(player_page, game)
    marks = player_page.evaluate(
        """() => Object.fromEntries(["R", "B", "K", "O"].map(c => {
            const tile = document.querySelector(`.rack-tiles .tile[data-tile^="${c}"]`);
            const mark = getComputedStyle(tile, "::after");
            return [c, [mark.clipPath, mark.borderRadius, mark.width].join(" ")];
        }))"""
    )
    assert len(set(marks.values())) == 4, marks
    expect(player_page.locator(".how-to")).to_contain_text("black")


# --- what each page loads -------------------------------------------------------------


def loaded(page: Page, kind: str) -> list[str]:
    return page.evaluate(
        """kind => performance.getEntriesByType('resource')
            .map(e => new URL(e.name).pathname)
            .filter(path => path.endsWith(kind))
            .map(path => path.split('/').pop().split('.')[0])""",
        kind,
    )


def test_only_the_game_and_its_replay_load_the_game_pages_styles_and_script(
    desktop_page: Page, game: Game
) -> None:
    play_long_table(desktop_page, game)
    assert {"play", "game"} <= set(loaded(desktop_page, ".css"))
    assert {"clock", "game"} <= set(loaded(desktop_page, ".js"))

    for address in ("/clubs/", "/games/", "/games/your-move/"):
        desktop_page.goto(address)
        expect(desktop_page.locator("h1")).to_be_visible()
        assert "play" not in loaded(desktop_page, ".css"), address
        assert "game" not in loaded(desktop_page, ".js"), address
