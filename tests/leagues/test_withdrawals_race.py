"""Withdrawals racing each other and the game: the entry's row lock serves them one at a
time, so a player is withdrawn once and their seat forfeits once.

Each thread has its own database connection, so the row locks really are contended.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.errors import GameActionError
from games.models import Game, Move
from leagues.errors import LeaguesError
from leagues.models import Club, Entry, OnWithdrawal
from leagues.services.withdrawals import withdraw
from notifications.models import Notification
from tests.games.test_concurrency import race
from tests.leagues.conftest import make_season, open_fixture

pytestmark = pytest.mark.django_db(transaction=True)


def attempt(entry: Entry, by: User, reason: str = "") -> Callable[[], object]:
    """A withdrawal, for :func:`race`: its refusal told as the games' refusals are."""

    def run() -> object:
        try:
            return withdraw(entry, by, reason)
        except LeaguesError as refusal:
            raise GameActionError(refusal.message) from None

    return run


def test_a_player_and_an_organiser_withdrawing_at_once_withdraw_once(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    season = make_season(
        league_club, [alice, bob, carol], seats=3, on_withdrawal=OnWithdrawal.FORFEIT
    )
    fixture = open_fixture(season, 1, [alice, bob, carol])
    entry = season.entries.get(user=bob)

    results = race(
        attempt(entry, bob), attempt(entry, alice, "Asked to leave."), attempt(entry, bob)
    )

    assert results == ["ok", "refused", "refused"]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    game = Game.objects.get(table_id=fixture.table_id, number=1)
    assert Move.objects.filter(game=game, by=Move.By.RULING, seat=1).count() == 1
    assert game.replay_state() == game.engine_state()
    assert Notification.objects.filter(key=f"league-withdrawal-{entry.pk}").count() == 2
