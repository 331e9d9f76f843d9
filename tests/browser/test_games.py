"""Playing in the browser: live tables for two, moves by keys and clicks, drag and drop,
refusals in words, and a game against a bot played to its end.

Games are set up through the services (or the pages); a test that needs a particular
hand deals it with :func:`deal`, which rewrites the game's state in the database.
"""

import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import Page, expect

from accounts.models import User
from config.celery_app import app as celery_app
from engine.actions import parse_table
from engine.tiles import full_set, parse_tiles
from games import services
from games.models import Game, Table
from games.models.table_settings import TableSettings
from games.selectors.replay import replay_frame
from games.services import SeatPlan
from tests.browser.conftest import CACHE_PREFIXES, database_url, log_in
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over
from tests.games.positions import set_position
from tests.games.views_support import mover, waiter

pytestmark = pytest.mark.browser


def open_game(page: Page, game: Game) -> None:
    """Open the game page and wait until its socket is open and the page shows the game's
    version (a page that is current is sent nothing when it connects; one that is behind,
    a bot having moved meanwhile, is sent the game)."""
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".live-pill")).to_have_attribute("data-live", "open")
    wait_until_current(page, game.pk)


def wait_until_current(page: Page, game_id: int, timeout: float = 15) -> None:
    """Wait until ``page`` shows the version the game has in the database (read afresh
    at each look: a bot may move meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = page.locator("#game-status").get_attribute("data-version")
        if shown == str(Game.objects.values_list("version", flat=True).get(pk=game_id)):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the page still shows version {shown} after {timeout} s")
        page.wait_for_timeout(50)


def board_sets(page: Page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#game-board .meld:not(.meld-new)",
        "melds => melds.map(m => [...m.querySelectorAll('.meld-tiles .tile')]"
        ".map(t => t.dataset.tile))",
    )


def deal(game: Game, hands: dict[int, list[str]], current: int) -> Game:
    """Give seats the tiles of ``hands`` (the others get 14 of the rest), empty the table,
    and make it ``current``'s turn. For tests only: the game no longer replays."""
    state = game.engine_state()
    rest = Counter(full_set())
    for tiles in hands.values():
        rest.subtract(parse_tiles(tiles))
    pool = sorted(rest.elements())
    racks = []
    for seat in range(state.players):
        if seat in hands:
            racks.append(tuple(sorted(parse_tiles(hands[seat]))))
        else:
            racks.append(tuple(pool[:14]))
            pool = pool[14:]
    state = replace(
        state,
        racks=tuple(racks),
        pool=tuple(pool),
        table=parse_table([]),
        current_player=current,
        initial_meld_done=(False,) * state.players,
    )
    state.check()
    game.state = state.to_dict()
    game.current_seat = current
    game.save(update_fields=["state", "current_seat"])
    return game


# --- two people at one table -----------------------------------------------------------


def test_two_players_set_up_a_table_and_see_each_others_moves_live(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    log_in(page, alice)
    log_in(other_page, bob)

    page.get_by_role("link", name="New table").first.click()
    page.get_by_label("Seat 2", exact=True).select_option("invite")
    page.get_by_label("Username for seat 2").fill("bob")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_text("Bob (invited)")).to_be_visible()

    other_page.goto("/games/")
    other_page.get_by_role("button", name="Take a seat").click()
    expect(other_page).to_have_url(re.compile(r"/games/\d+/$"))
    # Alice's waiting page follows the table and takes her to the game.
    expect(page).to_have_url(re.compile(r"/games/\d+/$"), timeout=15_000)

    game = Game.objects.get()
    pages = {alice.pk: page, bob.pk: other_page}
    first, second = pages[mover(game).pk], pages[waiter(game).pk]
    for each in (first, second):
        expect(each.locator(".live-pill")).to_have_attribute("data-live", "open")
        each.evaluate("window.loadedOnce = true")
    expect(first.locator("#game-status .turn-who")).to_have_text("Your turn")
    expect(second.locator("#game-status")).to_contain_text(f"{mover(game)}\u2019s turn")

    # Building a move shows the other player a notice, never the tiles.
    first.locator(".rack-tiles button.tile").first.click()
    first.get_by_role("button", name="New set").click()
    expect(second.locator("#game-building")).to_have_text(f"{mover(game)} is building a move.")

    first.get_by_role("button", name="Draw a tile").click()

    expect(second.locator("#game-status .turn-who")).to_have_text("Your turn")
    expect(first.locator("#game-status")).to_contain_text(f"{waiter(game)}\u2019s turn")
    seat = game.current_seat
    expect(second.locator(f'#game-players [data-seat="{seat}"] .player-rack')).to_contain_text("15")
    expect(second.locator("#game-building")).to_be_empty()

    second.get_by_role("button", name="Draw a tile").click()

    expect(first.locator("#game-status .turn-who")).to_have_text("Your turn")
    for each in (first, second):
        assert each.evaluate("window.loadedOnce") is True  # no page was reloaded
    game.refresh_from_db()
    assert game.version == 2


# --- building a move without a mouse ---------------------------------------------------


def test_a_set_built_with_the_keyboard_only_is_played(page: Page, alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    set_position(game, [["R5", "R6", "R7"]], ["K1", "K2", "K3", "B10", "O4"])
    player = mover(game)
    log_in(page, player)
    open_game(page, game)
    rack = page.locator(".rack-tiles")

    rack.locator('[data-tile="K1"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")  # arrows walk along the rack
    expect(rack.locator('[data-tile="K2"]')).to_be_focused()
    page.keyboard.press("Space")
    rack.locator('[data-tile="B10"]').focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")  # drops every pick
    expect(rack.locator('[aria-pressed="true"]')).to_have_count(0)
    for tile in ("K1", "K2", "K3"):
        rack.locator(f'[data-tile="{tile}"]').focus()
        page.keyboard.press("Enter")
    expect(rack.locator('[aria-pressed="true"]')).to_have_count(3)
    page.locator('[data-target="new"]').focus()
    page.keyboard.press("Enter")

    expect(page.locator("#game-board .meld").nth(1)).to_contain_text("run")
    assert board_sets(page) == [["R5", "R6", "R7"], ["K1", "K2", "K3"]]
    # The keyboard stays on the rack, ready for the next tile.
    expect(rack.locator("button.tile:focus")).to_have_count(1)
    expect(page.locator("#verdict")).to_contain_text("Plays 3 tiles")

    page.get_by_role("button", name="End turn").focus()
    page.keyboard.press("Enter")

    expect(page.locator("#game-status")).to_contain_text(f"{waiter(game)}\u2019s turn")
    expect(page.locator("#game-board .meld")).to_have_count(2)
    game.refresh_from_db()
    assert game.version == 1
    assert [str(t) for t in game.engine_state().table[1]] == ["K1", "K2", "K3"]


def test_tiles_dragged_onto_a_run_land_where_they_are_dropped(
    page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    set_position(game, [["R5", "R6", "R7"]], ["R4", "R8", "K1"])
    log_in(page, mover(game))
    open_game(page, game)
    rack = page.locator(".rack-tiles")

    rack.locator('[data-tile="R8"]').drag_to(page.locator("#game-board .drop-slot").first)
    expect(page.locator('#game-board .meld-tiles [data-tile="R8"]')).to_have_count(1)
    rack.locator('[data-tile="R4"]').drag_to(
        page.locator('#game-board [data-tile="R5"]'), target_position={"x": 4, "y": 20}
    )

    expect(page.locator("#verdict")).to_contain_text("Plays 2 tiles")
    assert board_sets(page) == [["R4", "R5", "R6", "R7", "R8"]]
    page.locator('#game-board [data-tile="R8"]').drag_to(page.locator(".rack-wood"))
    expect(rack.locator('[data-tile="R8"]')).to_have_count(1)

    # A finger: pointer events of type touch, with a copy of the tile under it.
    touch_drag(page, '.rack-tiles [data-tile="K1"]', "#game-board .new-set")
    expect(page.locator('#game-board .meld-tiles [data-tile="K1"]')).to_have_count(1)
    assert board_sets(page) == [["R4", "R5", "R6", "R7"], ["K1"]]


def touch_drag(page: Page, source: str, target: str) -> None:
    page.evaluate(
        """([source, target]) => {
            const from = document.querySelector(source).getBoundingClientRect();
            const to = document.querySelector(target).getBoundingClientRect();
            const at = (x, y) => ({bubbles: true, cancelable: true, pointerType: "touch",
                                   pointerId: 7, isPrimary: true, clientX: x, clientY: y});
            const x0 = from.x + from.width / 2, y0 = from.y + from.height / 2;
            const x1 = to.x + to.width / 2, y1 = to.y + to.height / 2;
            const tile = document.querySelector(source);
            tile.dispatchEvent(new PointerEvent("pointerdown", at(x0, y0)));
            for (let i = 1; i <= 5; i++) {
                const x = x0 + (x1 - x0) * i / 5, y = y0 + (y1 - y0) * i / 5;
                document.dispatchEvent(new PointerEvent("pointermove", at(x, y)));
            }
            document.dispatchEvent(new PointerEvent("pointerup", at(x1, y1)));
        }""",
        [source, target],
    )


def test_a_refused_initial_meld_shows_the_rules_sentence(
    page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    set_position(game, [], ["R1", "R2", "R3", "B9"], meld_done=False)
    log_in(page, mover(game))
    open_game(page, game)

    for tile in ("R1", "R2", "R3"):
        page.locator(f'.rack-tiles [data-tile="{tile}"]').click()
    page.get_by_role("button", name="New set").click()
    expect(page.locator("#game-board .meld").first).to_contain_text("run · 6")
    page.get_by_role("button", name="End turn").click()

    alert = page.locator("#game-message [role=alert]")
    expect(alert).to_contain_text("30")
    expect(alert).to_contain_text("initial meld")
    game.refresh_from_db()
    assert game.version == 0
    expect(page.locator("#game-status .turn-who")).to_have_text("Your turn")


# --- a game against a bot --------------------------------------------------------------


@pytest.fixture
def worker(live_server_url: str, tmp_path: Path) -> Iterator[None]:
    """A Celery worker on the test database: it plays the bots' turns the server schedules."""
    # Earlier tests of the run leave their tasks (clocks, reminders, many due minutes
    # ahead) in the shared queues; a worker taking one task at a time would work through
    # all of them before this test's own, and a 10 s turn would outlive its wait.
    celery_app.control.purge()
    log_path = tmp_path / "worker.log"
    # The server's cache keys too: it serves the solver's queue as well (a hint's job).
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "CACHE_KEY_PREFIX": CACHE_PREFIXES[live_server_url],
    }
    command = [
        *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker"),
        *("--pool", "solo", "--loglevel", "INFO"),
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
    ]
    # Beat too, as in production: its sweep ends a due turn whose timeout task is late
    # (the full run once left one reserved and unrun in the worker).
    beat = [*(sys.executable, "-m", "celery", "-A", "config.celery_app", "beat")]
    beat += ["--schedule", str(tmp_path / "beat-schedule")]
    with log_path.open("w") as log:
        processes = [
            subprocess.Popen(
                args, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            for args in (command, beat)
        ]
    try:
        yield
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        print(log_path.read_text())  # shown when the test fails


def test_a_game_against_a_bot_is_played_to_its_end(page: Page, alice: User, worker: None) -> None:
    table = services.create_table(
        alice, TableSettings(games_in_round=1), [SeatPlan.taken_by(alice), SeatPlan.bot("strong")]
    )
    game = current_game(table)
    # Alice can lay an initial meld; the bot can go out at once when its turn comes.
    deal(
        game,
        {0: ["R10", "R11", "R12", "B5", "B6"], 1: ["K1", "K2", "K3", "K4", "O7", "O8", "O9"]},
        0,
    )
    log_in(page, alice)
    open_game(page, game)

    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#game-help")).to_contain_text("Hint: lay 3 tiles")
    page.get_by_role("button", name="Use this").click()
    expect(page.locator("#verdict")).to_contain_text("Plays 3 tiles")
    page.get_by_role("button", name="End turn").click()
    expect(page.locator("#game-status")).to_contain_text("Bot (strong)\u2019s turn")

    # The bot's move arrives through the websocket: it goes out and the round is over.
    result = page.locator("#game-status .result")
    expect(result).to_contain_text("Bot (strong) wins game 1", timeout=30_000)
    expect(result).to_contain_text("11")  # B5 + B6 left on Alice's rack
    expect(page.locator("#game-board .final-racks")).to_contain_text("Racks at the end")
    page.get_by_role("link", name="The round is over: final scoreboard").click()
    expect(page.locator(".round-winner")).to_contain_text("Bot (strong) wins the round!")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_a_finished_game_is_replayed_turn_by_turn_with_the_arrow_keys(
    page: Page, alice: User, bob: User
) -> None:
    game = play_until_over(current_game(start_table(alice, bob)), random.Random(5))
    log_in(page, bob)

    page.goto(f"/games/{game.pk}/replay/")
    expect(page.locator(".replay-position")).to_contain_text("The deal")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-position")).to_contain_text("Turn 1")
    expect(page).to_have_url(re.compile(r"\?turn=1$"))
    page.keyboard.press("End")
    expect(page.locator(".replay-outcome")).to_contain_text("Result")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-outcome")).to_have_count(0)
    page.get_by_role("link", name="Previous").click()
    expect(page).to_have_url(re.compile(rf"\?turn={replay_frame(game, 0).steps - 2}$"))
    page.keyboard.press("Home")
    expect(page.locator(".replay-position")).to_contain_text("The deal")


def test_a_resignation_ends_the_game_for_both_and_the_round_goes_on(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    log_in(page, alice)
    log_in(other_page, bob)
    open_game(page, game)
    open_game(other_page, game)

    page.get_by_text("Resign this game…").click()
    page.get_by_role("button", name="Resign", exact=True).click()

    expect(page.locator("#game-message")).to_contain_text("You resigned this game.")
    expect(page.locator("#game-status .result")).to_contain_text("Bob wins game 1")
    result = other_page.locator("#game-status .result")
    expect(result).to_contain_text("You win game 1!")
    expect(result).to_contain_text("The other players resigned.")
    # The round goes on: the next game is offered, and opens on its own unless one stays.
    expect(other_page.locator("[data-next-note]")).to_contain_text("Next game in")
    other_page.get_by_role("button", name="Stay here").click()
    expect(other_page.locator("[data-next-note]")).to_be_empty()
    other_page.get_by_role("link", name="Play game 2 of 2").click()
    next_game = Game.objects.get(table=game.table, number=2)
    expect(other_page).to_have_url(re.compile(rf"/games/{next_game.pk}/$"))
    expect(other_page.locator("h1")).to_contain_text("Game 2")


def test_the_movers_page_counts_no_push_for_its_own_move(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    pages = {alice.pk: page, bob.pk: other_page}
    here, there = pages[mover(game).pk], pages[waiter(game).pk]
    log_in(here, mover(game))
    log_in(there, waiter(game))
    open_game(here, game)
    open_game(there, game)

    here.get_by_role("button", name="Draw a tile").click()

    # The answer showed the mover her move; the other page was pushed it.
    expect(here.locator("#game-status")).to_have_attribute("data-version", "1")
    expect(there.locator(".game-page")).to_have_attribute("data-pushes", "1")
    expect(there.locator("#game-status")).to_have_attribute("data-version", "1")
    here.wait_for_timeout(500)  # a push would have come by now: the other page's did
    expect(here.locator(".game-page[data-pushes]")).to_have_count(0)
    # Reloaded, a page that is current is sent nothing either.
    there.reload()
    expect(there.locator(".live-pill")).to_have_attribute("data-live", "open")
    there.wait_for_timeout(500)
    expect(there.locator(".game-page[data-pushes]")).to_have_count(0)
