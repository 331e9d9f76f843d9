"""Bots think on a worker of their own: a bot stuck in its turn holds up no clock.

Real workers on real Redis and PostgreSQL. The bots' worker runs with
tests/slow_bot_settings.py, where every bot sits on its process for a minute before
thinking (``GAMES_BOT_STALL_SECONDS``), as one lost in a huge position would; it has one
process, so that bot occupies the whole worker.
"""

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from accounts.models import User
from games import services
from games.models import Game, Move
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from games.tasks import BOT_SOFT_TIME_LIMIT
from tests.games.conftest import current_game, seat_starts
from tests.games.test_worker import main_worker, queues, running
from tests.games.workers import Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.serial]

__all__ = ["main_worker", "queues"]  # fixtures shared with test_worker

BOT_TURN_SECONDS = 40
HUMAN_TURN_SECONDS = 10


@pytest.fixture
def stuck_bots_worker(queues: str, tmp_path: Path) -> Iterator[Worker]:
    log = tmp_path / "bots-worker.log"
    with running(Worker(queues, "bots", log, settings_module="tests.slow_bot_settings")) as worker:
        yield worker


def bots_turn(alice: User) -> Game:
    """A game against a bot, at the bot's turn (its task is queued as the game starts)."""
    with seat_starts(1):
        table = services.create_table(
            alice,
            TableSettings(turn_seconds=BOT_TURN_SECONDS),
            [SeatPlan.taken_by(alice), SeatPlan.bot("strong")],
        )
    game = current_game(table)
    assert game.current_seat == 1
    return game


def moves_by(game: Game, by: str) -> list[Move]:
    return list(Move.objects.filter(game=game, by=by).order_by("seq"))


def test_a_stuck_bot_delays_no_deadline_and_gives_up_cleanly(
    alice: User, bob: User, main_worker: Worker, stuck_bots_worker: Worker
) -> None:
    stuck = bots_turn(alice)
    wait_for(lambda: "the bot stalls" in stuck_bots_worker.text(), seconds=30)

    # Meanwhile, in another game, a turn runs out.
    table = services.create_table(
        alice,
        TableSettings(turn_seconds=HUMAN_TURN_SECONDS),
        [SeatPlan.taken_by(alice), SeatPlan.taken_by(bob)],
    )
    other = current_game(table)
    deadline = other.turn_deadline
    assert deadline is not None

    wait_for(lambda: moves_by(other, Move.By.TIMEOUT), seconds=HUMAN_TURN_SECONDS + 20)
    late = moves_by(other, Move.By.TIMEOUT)[0].created_at - deadline
    assert timedelta(0) <= late < timedelta(seconds=settings.GAMES_SWEEP_SECONDS + 2)
    # ...while the bot was still in its turn, holding the bots' worker.
    assert "gave up" not in stuck_bots_worker.text()
    assert Game.objects.get(pk=stuck.pk).version == stuck.version

    # At its soft time limit the bot gives up, having written nothing...
    wait_for(lambda: "gave up" in stuck_bots_worker.text(), seconds=BOT_SOFT_TIME_LIMIT + 10)
    assert Game.objects.get(pk=stuck.pk).version == stuck.version
    assert not moves_by(stuck, Move.By.BOT)
    # ...and its turn ends by the clock, as anyone's would.
    wait_for(lambda: moves_by(stuck, Move.By.TIMEOUT), seconds=BOT_TURN_SECONDS + 10)
    stuck.refresh_from_db()
    assert moves_by(stuck, Move.By.TIMEOUT)[0].seat == 1
    assert stuck.replay_state() == stuck.engine_state()
