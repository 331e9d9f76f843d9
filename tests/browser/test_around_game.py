"""Around a game: Back and Forward through the table page, the game and the replay show
whole pages; lists beside the live header stay current; a finished game is played again,
a game is found at once, a replay tells the best play of each turn.
"""

import random
import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from notifications.models import Notification
from tests.browser.conftest import log_in
from tests.browser.test_your_move import awaiting
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over

# The solver works on its own worker; its answers are pushed to the page.
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_back_from_the_game_shows_the_whole_table_page_it_came_from(
    page: Page, alice: User, bob: User
) -> None:
    log_in(page, alice)
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )
    page.goto(f"/games/tables/{table.pk}/")
    expect(page.locator("#table-seats")).to_be_visible()
    # Let the page poll its own address at least once before the table fills.
    with page.expect_response(re.compile(rf"/games/tables/{table.pk}/$")):
        pass
    services.join_table(table.pk, bob)
    expect(page).to_have_url(re.compile(r"/games/\d+/$"), timeout=10_000)
    game_url = page.url

    page.go_back()
    expect(page).to_have_url(re.compile(rf"/games/tables/{table.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Table {table.pk}")
    expect(page.locator(".site-header")).to_be_visible()

    page.go_forward()
    expect(page).to_have_url(game_url)
    expect(page.locator("#game-board")).to_be_visible()


def test_back_into_a_replay_shows_the_whole_page_with_its_styles(
    page: Page, alice: User, bob: User
) -> None:
    game = play_until_over(current_game(start_table(alice, bob)), random.Random(5))
    log_in(page, alice)
    page.goto(f"/games/{game.pk}/replay/")
    for turn in (1, 2):
        page.get_by_role("link", name="Next →").click()
        expect(page).to_have_url(re.compile(rf"\?turn={turn}$"))
    page.get_by_role("link", name=f"Table {game.table_id}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Table {game.table_id}")

    page.go_back()
    expect(page).to_have_url(re.compile(r"\?turn=2$"))
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator(".replay-position")).to_contain_text("Turn 2")
    # Styled: the page's own stylesheet is loaded, not a bare fragment.
    expect(page.locator('link[href*="game"]')).not_to_have_count(0)

    page.go_back()
    expect(page).to_have_url(re.compile(r"\?turn=1$"))
    expect(page.locator(".replay-position")).to_contain_text("Turn 1")
    expect(page.locator(".site-header")).to_be_visible()


# --- lists beside the live header ------------------------------------------------------


def test_the_lobby_list_follows_the_header_when_the_turn_comes_to_the_member(
    page: Page, alice: User, bob: User
) -> None:
    game = awaiting(bob, alice)
    log_in(page, alice)
    page.goto("/games/")
    mine = page.locator("#my-games")
    expect(mine.locator(".turn-tag")).to_have_text("Bob to play")
    expect(page.locator("#your-move-count")).to_have_text("0")

    services.draw(game.pk, bob, game.version)

    expect(page.locator("#your-move-count")).to_have_text("1")
    expect(mine.locator(".turn-tag")).to_have_text("Your turn")


# A message that comes right after a read's answer was swapped in, before htmx would
# settle it (20 ms by default), found no list listening and was lost: the list stayed a
# turn behind the header (seen once in CI). The hook sends such a message on purpose.
FOLLOW_THE_SWAP = """(id) => {
  window.__reads = 0;
  document.addEventListener("htmx:beforeRequest", (e) => {
    if (e.detail.elt.id === id) window.__reads += 1;
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target.id !== id || window.__hooked) return;
    window.__hooked = true;
    setTimeout(() => document.body.dispatchEvent(
      new CustomEvent("htmx:wsAfterMessage", {bubbles: true})), 0);
  });
  document.body.dispatchEvent(new CustomEvent("htmx:wsAfterMessage", {bubbles: true}));
}"""


@pytest.mark.parametrize(
    ("address", "list_id"),
    [("/games/", "my-games"), ("/games/notifications/", "notification-list")],
)
def test_a_push_just_after_a_read_was_swapped_in_is_read_again(
    page: Page, alice: User, bob: User, address: str, list_id: str
) -> None:
    awaiting(bob, alice)
    log_in(page, alice)
    page.goto(address)
    # The header's socket says hello once it is open; its read is let through first.
    page.wait_for_function("() => document.querySelector('#your-move-count') !== null")
    expect(page.locator(f"#{list_id}.htmx-request")).to_have_count(0)
    page.wait_for_timeout(300)
    expect(page.locator(f"#{list_id}.htmx-request")).to_have_count(0)

    page.evaluate(FOLLOW_THE_SWAP, list_id)

    page.wait_for_function("() => window.__reads >= 2", timeout=5_000)
    expect(page.locator(f"#{list_id}.htmx-request")).to_have_count(0)


def test_a_your_turn_notice_names_the_turn_and_leaves_once_the_turn_has_passed(
    page: Page, alice: User, bob: User
) -> None:
    game = awaiting(bob, alice)
    services.draw(game.pk, bob, game.version)
    log_in(page, alice)
    page.goto("/games/notifications/")
    notices = page.locator("#notification-list li", has_text="against")
    expect(notices).to_have_count(1)
    expect(notices).to_contain_text(re.compile(r"Your turn \d+ against Bob in game 1"))

    game.refresh_from_db()
    services.draw(game.pk, alice, game.version)

    expect(notices).to_have_count(0)


def test_a_notice_whose_mail_failed_says_why(page: Page, alice: User) -> None:
    Notification.objects.create(
        user=alice,
        kind="league_matchday",
        text="Matchday 2 of Spring is open.",
        link="/games/",
        email=Notification.Email.FAILED,
        email_error="the mail server did not take it after 6 tries (SMTPServerDisconnected)",
    )
    log_in(page, alice)
    page.goto("/games/notifications/")

    notice = page.locator("#notification-list li", has_text="Matchday 2 of Spring")
    expect(notice.locator(".notice-error")).to_have_text(
        "We could not e-mail this notice: the mail server did not take it after 6 tries "
        "(SMTPServerDisconnected)."
    )
    expect(notice.locator(".notice-error")).to_be_visible()


# --- the new table form ------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, PHONE["viewport"]])
def test_every_choice_of_the_forfeit_select_is_read_whole(
    page: Page, alice: User, viewport: dict[str, int]
) -> None:
    log_in(page, alice)
    page.set_viewport_size(viewport)
    page.goto("/games/new/")
    select = page.get_by_label("When a player forfeits")
    expect(select).to_be_visible()
    # The widest choice's text, in the select's own font, against the room the select
    # gives it (its width less the arrow and padding).
    spare = select.evaluate(
        """s => {
          const pen = document.createElement("canvas").getContext("2d");
          pen.font = getComputedStyle(s).font;
          const widest = Math.max(...[...s.options].map(o => pen.measureText(o.text).width));
          return s.clientWidth - 40 - widest;
        }"""
    )
    assert spare >= 0


# --- a waiting table -----------------------------------------------------------------------


def waiting_on_a_phone(page: Page, alice: User, bob: User) -> Table:
    """Alice's table, bob invited to its other seat, open on alice's phone."""
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )
    log_in(page, alice)
    page.set_viewport_size(PHONE["viewport"])
    page.goto(f"/games/tables/{table.pk}/")
    return table


def test_the_creator_calls_off_a_waiting_table_on_a_phone(
    page: Page, alice: User, bob: User
) -> None:
    table = waiting_on_a_phone(page, alice, bob)

    page.get_by_text("Call off this table").click()
    # The seats refresh every 3 s; the question stays open meanwhile.
    with page.expect_response(re.compile(rf"/games/tables/{table.pk}/$")):
        pass
    page.wait_for_timeout(300)
    page.get_by_role("button", name="Yes, call it off").click()

    expect(page).to_have_url(re.compile(r"/games/$"))
    expect(page.locator(".messages")).to_contain_text(f"Table {table.pk} is called off.")
    expect(page.get_by_text(f"Table {table.pk}", exact=True)).to_have_count(0)


def test_the_creator_seats_a_bot_instead_of_an_invited_member_on_a_phone(
    page: Page, alice: User, bob: User
) -> None:
    waiting_on_a_phone(page, alice, bob)

    page.get_by_text("Change a seat").click()
    page.get_by_label("Seat 2", exact=True).select_option("bot-normal")
    page.get_by_role("button", name="Change").click()

    # The last seat is filled: the round starts, and the creator is taken to the game.
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("#game-board")).to_be_visible()


# --- analysis in the replay --------------------------------------------------------------


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, PHONE["viewport"]])
def test_the_replay_shows_the_best_play_beside_each_turn(
    page: Page, alice: User, bob: User, viewport: dict[str, int]
) -> None:
    game = play_until_over(current_game(start_table(alice, bob)), random.Random(5))
    log_in(page, alice)
    page.set_viewport_size(viewport)
    page.goto(f"/games/{game.pk}/replay/")
    expect(page.locator("#replay-analysis")).to_have_count(0)  # the deal: nothing to judge

    page.get_by_role("link", name="Next →").click()
    analysis = page.locator("#replay-analysis")
    expect(analysis).to_contain_text("Best play")
    expect(analysis).to_contain_text(re.compile(r"found the best play|could go out|No play"))
    page.screenshot(path=f"/tmp/fn/analysis_{viewport['width']}.png", full_page=True)

    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-position")).to_contain_text("Turn 2")
    expect(analysis).to_contain_text("Best play")


# --- play again ----------------------------------------------------------------------------


def both_in_one_game(waiter: Page, waiting_url: str, joiner: Page) -> None:
    """The joiner lands in the game; the waiter's table page follows them into it."""
    expect(joiner).to_have_url(re.compile(r"/games/\d+/$"))
    expect(joiner.locator("#game-board")).to_be_visible()
    expect(waiter).not_to_have_url(waiting_url, timeout=10_000)
    expect(waiter.locator("#game-board")).to_be_visible()
    assert waiter.url == joiner.url


def test_both_players_play_again_with_the_same_seats(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    table = start_table(alice, bob, games_in_round=1)
    game = play_until_over(current_game(table), random.Random(5))
    log_in(page, alice)
    log_in(other_page, bob)
    other_page.set_viewport_size(PHONE["viewport"])

    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="Play again").click()
    expect(page).to_have_url(re.compile(r"/games/tables/\d+/$"))
    expect(page.get_by_text("Bob (invited)")).to_be_visible()
    again = page.url

    other_page.goto(f"/games/tables/{table.pk}/")
    other_page.get_by_role("button", name="Play again").click()
    both_in_one_game(page, again, other_page)


# --- play now ------------------------------------------------------------------------------


def test_two_members_who_ask_to_play_now_meet_at_one_table(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    log_in(page, alice)
    log_in(other_page, bob)
    page.set_viewport_size(PHONE["viewport"])

    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/games/tables/\d+/$"))
    expect(page.locator(".messages")).to_contain_text("Waiting for an opponent")
    waiting = page.url

    other_page.goto("/games/")
    other_page.get_by_role("button", name="Play now").click()
    both_in_one_game(page, waiting, other_page)
