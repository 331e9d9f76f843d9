"""Stopping a round before its end: the game in play scored as it stands, no game after it."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from games.errors import TableError
from games.models import Game, Move, Result, Table
from games.models.table_settings import TableSettings
from games.services.adjudication import stop_round
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db


def three_game_round(*players: User) -> Table:
    return start_table(*players, first=0, games_in_round=3)


def draw_once(game: Game) -> Game:
    services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
    game.refresh_from_db()
    return game


def test_it_scores_the_game_in_play_as_it_stands_and_plays_no_more(alice: User, bob: User) -> None:
    table = three_game_round(alice, bob)
    game = draw_once(current_game(table))

    stopped = stop_round(table.pk)

    game.refresh_from_db()
    assert stopped.status == Table.Status.FINISHED
    assert stopped.games_in_round == 1 and stopped.engine_round().games == 1  # type: ignore[union-attr]
    assert list(stopped.games.values_list("number", flat=True)) == [1]
    outcome = game.engine_state().outcome
    assert outcome is not None and outcome.termination.value == "adjudicated"
    assert Result.objects.current().of_game(game).count() == 2
    last = game.moves.order_by("-seq").first()
    assert last is not None and (last.by, last.action) == (Move.By.RULING, {"type": "adjudicate"})
    assert game.replay_state() == game.engine_state()


def test_the_player_to_move_can_be_made_to_forfeit_first(alice: User, bob: User) -> None:
    carol = UserFactory(username="carol")
    table = three_game_round(alice, bob, carol)
    game = current_game(table)
    to_move = game.current_seat

    stop_round(table.pk, forfeit_to_move=True)

    game.refresh_from_db()
    actions = [(m.seat, m.action["type"], m.by) for m in game.moves.order_by("seq")]
    assert actions[-2:] == [
        (to_move, "forfeit", Move.By.RULING),
        (actions[-1][0], "adjudicate", Move.By.RULING),
    ]
    assert game.engine_state().dropped == (to_move,)
    assert not Result.objects.current().of_game(game).get(seat=to_move).is_winner


def test_in_a_two_seat_game_the_forfeit_decides_it(alice: User, bob: User) -> None:
    table = three_game_round(alice, bob)
    game = current_game(table)

    stop_round(table.pk, forfeit_to_move=True)

    game.refresh_from_db()
    outcome = game.engine_state().outcome
    assert outcome is not None and outcome.termination.value == "forfeit"
    assert outcome.winner == 1 - (game.moves.last().seat)  # type: ignore[union-attr]


def test_games_finished_before_the_stop_keep_their_results(alice: User, bob: User) -> None:
    table = start_table(alice, bob, first=0, games_in_round=3)
    first = current_game(table)
    services.resign(first.pk, bob)
    before = list(Result.objects.current().of_game(first).values_list("score", flat=True))

    stopped = stop_round(table.pk)

    assert list(stopped.games.values_list("number", flat=True)) == [1, 2]
    assert stopped.games_in_round == 2
    assert list(Result.objects.current().of_game(first).values_list("score", flat=True)) == before


def test_a_finished_round_is_left_as_it_is_and_an_unstarted_one_is_refused(
    alice: User, bob: User
) -> None:
    table = start_table(alice, bob, first=0, games_in_round=1)
    services.resign(current_game(table).pk, bob)
    moves = Move.objects.count()

    assert stop_round(table.pk).status == Table.Status.FINISHED
    assert Move.objects.count() == moves

    waiting = services.create_table(
        alice, TableSettings(), [services.SeatPlan.taken_by(alice), services.SeatPlan.open()]
    )
    with pytest.raises(TableError):
        stop_round(waiting.pk)
