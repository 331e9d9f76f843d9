"""Withdrawals racing each other and the game: the entry's row lock serves them one at a
time, so a player is withdrawn once and their seat forfeits once.

Each thread has its own database connection, so the row locks really are contended.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from accounts.models import User
from games.models import Game, Move, Notification
from leagues.models import Club, Entry, OnWithdrawal
from leagues.services.withdrawals import WithdrawalRefused, withdraw
from tests.leagues.conftest import make_season, open_fixture

pytestmark = pytest.mark.django_db(transaction=True)


def race(*attempts: Callable[[], object]) -> list[str]:
    """Run the attempts at the same moment in threads: ``"ok"`` or the refusal's status."""
    start = threading.Barrier(len(attempts))

    def run(attempt: Callable[[], object]) -> str:
        try:
            start.wait()
            attempt()
            return "ok"
        except WithdrawalRefused as refusal:
            return str(refusal.status)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(attempts)) as pool:
        return sorted(pool.map(run, attempts))


def test_a_player_and_an_organiser_withdrawing_at_once_withdraw_once(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    season = make_season(
        league_club, [alice, bob, carol], seats=3, on_withdrawal=OnWithdrawal.FORFEIT
    )
    fixture = open_fixture(season, 1, [alice, bob, carol])
    entry = season.entries.get(user=bob)

    results = race(
        lambda: withdraw(entry, bob),
        lambda: withdraw(entry, alice, "Asked to leave."),
        lambda: withdraw(entry, bob),
    )

    assert results == ["409", "409", "ok"]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    game = Game.objects.get(table_id=fixture.table_id, number=1)
    assert Move.objects.filter(game=game, by=Move.By.RULING, seat=1).count() == 1
    assert game.replay_state() == game.engine_state()
    assert Notification.objects.filter(key=f"league-withdrawal-{entry.pk}").count() == 2
