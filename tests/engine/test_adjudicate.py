"""A game stopped before its end by an authority above the table, scored as it stands."""

from __future__ import annotations

import pytest

from engine.actions import Adjudicate, Forfeit, GameOver, action_from_dict
from engine.game import apply, new_game, replay
from engine.ruleset import Ruleset
from engine.scoring import score_game
from engine.state import Termination
from tests.engine.test_drop_out import position


def test_it_ends_the_game_with_the_lowest_rack_winning_on_anyones_turn() -> None:
    state = position(["R1 R2 R13", "K5", "B7 B8"], pool="O1 O2 O3", current=2)

    after = apply(state, Adjudicate(), 0)

    assert after.is_over and after.outcome is not None
    assert after.outcome.termination is Termination.ADJUDICATED
    assert after.outcome.winner == 1
    assert after.outcome.rack_values == (16, 5, 15)
    # Scored as the pool-empty ending scores these racks, the player to move next first.
    racks = {seat: state.racks[seat] for seat in (0, 1, 2)}
    expected = score_game("pool_empty", racks, None, state.ruleset, contenders=(0, 1, 2))
    assert after.outcome.scores == tuple(expected.scores[seat] for seat in (0, 1, 2))


def test_a_seat_that_dropped_out_cannot_win_it() -> None:
    state = position(["R1 R2 R13", "K5", "B7 B8"], pool="O1 O2 O3")
    state = apply(state, Forfeit(), 1)

    after = apply(state, Adjudicate(), 0)

    assert after.outcome is not None and after.outcome.winner == 2


def test_a_finished_game_cannot_be_adjudicated_again() -> None:
    after = apply(position(["R5", "K4"], pool="O1"), Adjudicate(), 1)

    with pytest.raises(GameOver):
        apply(after, Adjudicate(), 0)


def test_it_round_trips_and_replays() -> None:
    assert action_from_dict(Adjudicate().to_dict()) == Adjudicate()
    rules = Ruleset(players=3)
    start = new_game(rules, "deadline", 0)

    ended = apply(start, Adjudicate(), start.current_player)

    assert replay(rules, "deadline", [(start.current_player, Adjudicate())], 0) == ended
