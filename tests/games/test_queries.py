import pytest

from accounts.models import User
from games import services
from games.models import Game
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db


def test_a_member_sees_the_games_awaiting_her_move(alice: User, bob: User, carol: User) -> None:
    with_bob = current_game(start_table(alice, bob))
    with_carol = current_game(start_table(carol, alice))
    assert with_bob.current_seat is not None and with_carol.current_seat is not None
    alice_to_move = {g for g in (with_bob, with_carol) if user_at(g, g.current_seat or 0) == alice}

    assert set(Game.objects.active().awaiting(alice)) == alice_to_move
    assert set(Game.objects.active().played_by(alice)) == {with_bob, with_carol}
    assert set(Game.objects.active().played_by(bob)) == {with_bob}


def test_a_game_leaves_the_waiting_list_once_the_member_has_moved(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    mover = user_at(game, game.current_seat or 0)
    other = bob if mover == alice else alice

    services.draw(game.pk, mover, 0)

    assert not Game.objects.active().awaiting(mover).exists()
    assert list(Game.objects.active().awaiting(other)) == [game]


def test_an_invited_member_has_no_games_yet(alice: User, bob: User, carol: User) -> None:
    services.create_table(
        alice,
        TableSettings(),
        [SeatPlan.taken_by(alice), SeatPlan.bot("easy"), SeatPlan.reserved_for(carol)],
    )
    start_table(alice, bob)

    assert not Game.objects.played_by(carol).exists()


def test_finished_games_are_listed_apart(alice: User, bob: User) -> None:
    game = current_game(
        start_table(alice, bob, options={"pool_empty_end": "immediate"}, games_in_round=1)
    )
    while not game.is_over:
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()

    assert list(Game.objects.finished().played_by(alice)) == [game]
    assert not Game.objects.active().exists()
    assert not Game.objects.active().awaiting(alice).exists()
