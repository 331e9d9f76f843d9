import random
import re

import pytest
import time_machine
from django.db.models import ProtectedError
from django.utils import timezone

from accounts.models import User
from engine.actions import Play
from games import services
from games.errors import (
    GameFinished,
    IllegalPlay,
    InvalidMove,
    NotFound,
    NotSeated,
    NotYourTurn,
    StaleVersion,
)
from games.models import Game, Move, MoveLogError
from tests.games.conftest import current_game, start_table
from tests.games.players import find_play, send
from tests.games.views_support import mover, waiter

pytestmark = pytest.mark.django_db


def test_a_player_draws_on_her_turn_and_the_turn_passes(game: Game) -> None:
    seat, player = game.current_seat, mover(game)
    deadline = game.turn_deadline

    with time_machine.travel(timezone.now() + timezone.timedelta(seconds=5)):
        services.draw(game.pk, player, version=0)

    game.refresh_from_db()
    assert (game.version, game.turn_number, game.current_seat) == (1, 2, 1 - seat)
    assert len(game.engine_state().racks[seat]) == 15
    assert game.turn_deadline is not None and deadline is not None
    assert game.turn_deadline > deadline
    move = game.moves.get()
    assert (move.seq, move.seat, move.turn_number, move.by, move.user) == (
        1,
        seat,
        1,
        Move.By.USER,
        player,
    )
    assert move.action == {"type": "draw"}


def test_a_repeated_submission_is_stale_and_changes_nothing(game: Game) -> None:
    player = mover(game)
    services.draw(game.pk, player, version=0)
    game.refresh_from_db()
    services.draw(game.pk, mover(game), version=1)

    with pytest.raises(StaleVersion, match="The game has changed since your page was loaded"):
        services.draw(game.pk, player, version=1)

    game.refresh_from_db()
    assert (game.version, game.moves.count()) == (2, 2)


def test_a_player_cannot_move_out_of_turn(game: Game) -> None:
    with pytest.raises(NotYourTurn, match=re.escape("It is not your turn.")):
        services.draw(game.pk, waiter(game), version=0)

    assert not game.moves.exists()


def test_a_member_without_a_seat_cannot_move(game: Game, carol: User) -> None:
    with pytest.raises(NotSeated, match=re.escape("You are not playing in this game.")):
        services.draw(game.pk, carol, version=0)


def test_a_missing_game_is_not_found(game: Game, alice: User) -> None:
    with pytest.raises(NotFound):
        services.draw(game.pk + 1000, alice, version=0)


def test_an_illegal_play_is_refused_with_the_rules_sentence(game: Game) -> None:
    rack = game.engine_state().racks[game.current_seat or 0]
    tile = next(str(t) for t in rack if not t.is_joker)

    with pytest.raises(IllegalPlay) as refused:
        services.play(game.pk, mover(game), 0, [[tile]])

    assert refused.value.reason == "invalid_set"
    assert refused.value.message == f"{tile} has only 1 tile: a set needs at least 3 tiles"
    game.refresh_from_db()
    assert (game.version, game.moves.count()) == (0, 0)


def test_a_play_of_tiles_not_on_the_rack_is_refused(game: Game) -> None:
    state = game.engine_state()
    seat = game.current_seat or 0
    absent = next(
        str(t) for t in state.racks[1 - seat] if t not in state.racks[seat] and not t.is_joker
    )

    with pytest.raises(IllegalPlay, match=re.escape(f"{absent} is not on your rack")):
        services.play(game.pk, mover(game), 0, [[absent, absent, absent]])


def test_a_malformed_table_is_an_invalid_move(game: Game) -> None:
    with pytest.raises(InvalidMove, match="'X1' is not a tile"):
        services.play(game.pk, mover(game), 0, [["X1", "R2", "R3"]])


def test_a_pass_while_the_pool_has_tiles_is_refused(game: Game) -> None:
    with pytest.raises(InvalidMove, match=re.escape("You can only pass when the pool is empty")):
        services.pass_turn(game.pk, mover(game), 0)


def test_a_discard_without_the_river_is_refused(game: Game) -> None:
    with pytest.raises(InvalidMove, match="There is nothing to discard"):
        services.discard(game.pk, mover(game), 0, "R5")
    with pytest.raises(InvalidMove, match="'Z' is not a tile"):
        services.discard(game.pk, mover(game), 0, "Z")


def test_a_legal_play_puts_the_tiles_on_the_table(game: Game) -> None:
    for _ in range(200):
        game.refresh_from_db()
        state = game.engine_state()
        assert game.current_seat is not None
        table = find_play(state, game.current_seat)
        if table is None:
            services.draw(game.pk, mover(game), game.version)
            continue
        seat = game.current_seat
        send(game, mover(game), Play(table))
        game.refresh_from_db()
        after = game.engine_state()
        assert after.table == table
        assert after.initial_meld_done[seat]
        assert game.moves.last().action["type"] == "play"  # type: ignore[union-attr]
        return
    pytest.fail("nobody found a play in 200 turns")


def test_the_move_log_cannot_be_changed_or_deleted(game: Game) -> None:
    services.draw(game.pk, mover(game), 0)
    move = Move.objects.get()

    move.seat = 1 - move.seat
    with pytest.raises(MoveLogError):
        move.save()
    with pytest.raises(MoveLogError):
        move.delete()
    with pytest.raises(MoveLogError):
        Move.objects.filter(pk=move.pk).update(seat=3)
    with pytest.raises(MoveLogError):
        Move.objects.all().delete()
    with pytest.raises(ProtectedError):
        Game.objects.filter(pk=game.pk).delete()
    assert Move.objects.get().seat == 1 - move.seat


def test_a_finished_game_refuses_moves(alice: User, bob: User) -> None:
    table = start_table(alice, bob, options={"pool_empty_end": "immediate"}, games_in_round=1)
    game = current_game(table)
    for _ in range(100):
        game.refresh_from_db()
        if game.is_over:
            break
        services.draw(game.pk, mover(game), game.version)

    assert game.is_over and game.current_seat is None and game.turn_deadline is None
    assert game.outcome is not None and game.outcome["termination"] == "pool_empty_immediate"
    with pytest.raises(GameFinished, match=re.escape("This game is over.")):
        services.draw(game.pk, alice, game.version)


def test_the_river_takes_two_moves_in_one_turn(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, options={"draw_mode": "river"}))
    player, seat = mover(game), game.current_seat

    services.draw(game.pk, player, 0)
    game.refresh_from_db()
    pending = game.engine_state().pending_draw
    assert (game.version, game.turn_number, game.current_seat) == (1, 1, seat)

    services.discard(game.pk, player, 1, str(pending[1]))
    game.refresh_from_db()
    state = game.engine_state()
    assert (game.version, game.turn_number) == (2, 2)
    assert state.river == (pending[1],)


def test_taking_from_the_river_without_playing_is_refused(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, options={"draw_mode": "river"}))
    for _ in range(2):
        services.draw(game.pk, mover(game), game.version)
        game.refresh_from_db()
        pending = game.engine_state().pending_draw
        services.discard(game.pk, mover(game), game.version, str(pending[0]))
        game.refresh_from_db()

    with pytest.raises(IllegalPlay) as refused:
        services.take_from_river(game.pk, mover(game), game.version, 1, [])

    assert refused.value.reason == "no_tile_played"
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_random_game_tells_every_move_apart(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    rng = random.Random(3)
    for expected_version in range(1, 11):
        game.refresh_from_db()
        state = game.engine_state()
        assert game.current_seat is not None
        table = find_play(state, game.current_seat) if rng.random() < 0.5 else None
        if table is None:
            services.draw(game.pk, mover(game), game.version)
        else:
            send(game, mover(game), Play(table))
        game.refresh_from_db()
        assert game.version == expected_version == game.moves.count()
