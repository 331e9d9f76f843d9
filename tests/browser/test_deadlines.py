"""A live turn runs out in front of the player: the countdown reaches nought, a real Celery
worker ends the turn at its deadline, and the page updates itself through its socket."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games import services
from games.models import Game, Move, Seat
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.browser.conftest import log_in
from tests.browser.test_games import open_game, worker
from tests.games.conftest import current_game

pytestmark = pytest.mark.browser

__all__ = ["worker"]  # fixtures shared with test_games

TURN_SECONDS = 10


def countdown_seconds(page: Page) -> int:
    minutes, seconds = page.locator("#game-status .countdown").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_a_live_turn_runs_out_in_front_of_the_player(
    page: Page, alice: User, bob: User, worker: None
) -> None:
    table = services.create_table(
        alice,
        TableSettings(turn_seconds=TURN_SECONDS, games_in_round=1),
        [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)],
    )
    game = current_game(table)
    if game.current_seat != 0:
        services.draw(game.pk, bob, game.version)  # alice's turn starts now
        game = Game.objects.get(pk=game.pk)
    log_in(page, alice)
    open_game(page, game)
    status = page.locator("#game-status")
    expect(status.locator(".turn-who")).to_have_text("Your turn")
    rack = page.locator("#game-rack .rack-tiles .tile")
    tiles_before = rack.count()

    # The clock counts down in front of her...
    expect(status.locator(".countdown")).to_have_text(re.compile(r"0:0\d|0:10"))
    first = countdown_seconds(page)
    page.wait_for_timeout(2_000)
    assert countdown_seconds(page) < first

    # ...the worker ends the turn at the deadline, and the page follows by itself.
    expect(status.locator(".turn-who")).to_have_text(
        "Bob\u2019s turn", timeout=TURN_SECONDS * 3_000
    )
    expect(rack).to_have_count(tiles_before + 1)  # the overtime penalty: one tile
    move = Move.objects.filter(game=game, by=Move.By.TIMEOUT).first()
    assert move is not None and move.seat == 0
    assert Seat.objects.get(table=table, number=0).timeouts_in_a_row == 1
    expect(status).to_have_attribute("data-turn", str(move.turn_number + 1))
