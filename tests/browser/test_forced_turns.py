"""Forced turns at phone size: a member who gave the standing order sees the draw made
for them after a delay like the table's turns (a real Celery worker proves the turn and
draws), and a member who drew such a turn themselves is offered the order."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from accounts.models import User
from engine.bots import has_play
from engine.round import Round
from engine.solver import Budget
from games import services
from games.models import ForcedTurn, Game, Move, Table
from games.models.table_settings import TableSettings
from games.rendering import game_context
from games.services import SeatPlan
from tests.browser.conftest import log_in
from tests.browser.test_games import open_game, worker
from tests.games.conftest import current_game

pytestmark = pytest.mark.browser

__all__ = ["worker"]  # the Celery worker (and beat) that proves and draws, from test_games

SHOTS = Path("/tmp/forced")
MINE = re.compile(r"\bis-mine\b")


def _seed_where_bob_starts_and_alice_cannot_meld(table: Table) -> str:
    """A round seed under which Bob (seat 1) starts and Alice's dealt rack holds no
    initial meld: her first turn, right after his, is forced."""
    ruleset = table.engine_ruleset()
    for n in range(1000):
        seed = f"forced-{n}"
        dealt = Round.start(ruleset, seed, table.games_in_round).game(0)
        if dealt.starting_player != 1:
            continue
        if has_play((), dealt.racks[0], False, ruleset, Budget(steps=200_000)).forced:
            return seed
    raise AssertionError("no such seed")


@contextmanager
def _forced_first_turn_for_alice() -> Iterator[None]:
    with override_settings(GAMES_ROUND_SEED=_seed_where_bob_starts_and_alice_cannot_meld):
        yield


def _table(alice: User, bob: User) -> Game:
    """A live game where Bob moves first; Alice's first turn has no play."""
    table = services.create_table(
        alice,
        TableSettings(games_in_round=1),
        [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)],
    )
    with _forced_first_turn_for_alice():
        services.join_table(table.pk, bob)
    game = current_game(table)
    assert game.current_seat == 1
    return game


def _wait_for(query: object, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not query.exists():  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the worker did not get to it"
        time.sleep(0.2)


def test_a_member_who_gave_the_order_sees_the_draw_made_for_them_after_the_delay(
    phone: Page, alice: User, bob: User, worker: None
) -> None:
    User.objects.filter(pk=alice.pk).update(draws_forced_turns=True)
    game = _table(alice, bob)
    log_in(phone, alice)
    open_game(phone, game)
    # Bob's turn took a moment (the table's only turn time so far): so will Alice's draw.
    services.draw(game.pk, bob, game.version)
    expect(phone.locator("#game-status")).to_have_class(MINE)
    started = time.monotonic()
    entry = phone.locator("#game-log .move-entry").first
    expect(entry).to_contain_text("No play: your standing order drew", timeout=30_000)
    waited = time.monotonic() - started
    expect(phone.locator("#game-status")).not_to_have_class(MINE)
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=SHOTS / "drawn-for-you-phone.png")
    forced = ForcedTurn.objects.get(game=game, turn_number=2)
    assert forced.drawn_for_them and forced.draw_at is not None
    assert waited >= 1.5  # after the delay (at least GAMES_FORCED_DRAW_SECONDS' 2 s)
    move = Move.objects.filter(game=game).last()
    assert move is not None and move.by == Move.By.ORDER
    # Bob reads an ordinary draw.
    game.refresh_from_db()
    bobs = game_context(game, bob)["log"].entries[0].words
    assert bobs == "Alice drew a tile."
    # Alice is told in her notices.
    phone.goto("/games/notifications/")
    expect(phone.get_by_text("Turn 2 had no play: drawn for you")).to_be_visible()


def test_a_member_who_drew_a_forced_turn_is_offered_the_order(
    phone: Page, page: Page, alice: User, bob: User, worker: None
) -> None:
    game = _table(alice, bob)
    services.draw(game.pk, bob, game.version)
    # The worker proves Alice's turn (she has not answered the offer yet).
    _wait_for(ForcedTurn.objects.filter(game=game, turn_number=2))
    log_in(phone, alice)
    open_game(phone, game)
    expect(phone.locator(".forced-offer")).to_have_count(0)  # not before she drew
    phone.get_by_role("button", name="Draw a tile").click()
    # The answer shows the offer (the move's push is not sent to the page it came from).
    expect(phone.locator("#game-status")).to_have_attribute("data-version", str(game.version + 2))
    offer = phone.locator(".forced-offer")
    expect(offer).to_contain_text("Turn 2 had no play. Draw for me when a turn has none?")
    SHOTS.mkdir(exist_ok=True)
    offer.scroll_into_view_if_needed()
    phone.screenshot(path=SHOTS / "offer-phone.png")
    log_in(page, alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    open_game(page, game)
    page.locator(".forced-offer").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / "offer-desktop.png")
    offer.get_by_role("button", name="Yes, draw for me").click()
    expect(phone.locator(".forced-offer")).to_have_count(0)
    expect(phone.locator("#game-message")).to_contain_text("drawn for you after a while")
    alice.refresh_from_db()
    assert alice.draws_forced_turns is True
