"""Seats that resign or forfeit: play skips them, the last seat in play wins, scores follow."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Draw,
    Forfeit,
    GameOver,
    InvalidAction,
    OutOfTurn,
    Pass,
    Play,
    Resign,
    Timeout,
    action_from_dict,
)
from engine.game import apply, legal_action_types, new_game, replay
from engine.ruleset import Ruleset
from engine.scoring import ScoringError, score_game
from engine.state import GameState, Termination
from engine.tiles import full_set, parse_tiles
from engine.views import spectator_view, view_for
from tests.engine.test_game_properties import GAME_SETTINGS, choose_action, rulesets, seeds


def position(
    racks: list[str],
    *,
    pool: str = "",
    pending: str = "",
    current: int = 0,
    **options: Any,
) -> GameState:
    """A hand-made position (tiles not mentioned are out of the game)."""
    return GameState(
        ruleset=Ruleset(players=len(racks), **options),
        racks=tuple(tuple(sorted(parse_tiles(rack.split()))) for rack in racks),
        pool=parse_tiles(pool.split()),
        table=(),
        river=(),
        pending_draw=parse_tiles(pending.split()),
        current_player=current,
        starting_player=current,
        turn_number=5,
        initial_meld_done=(True,) * len(racks),
        passes_in_a_row=0,
        final_turns_left=None,
        first_player_draw=(),
    )


def moves(state: GameState, *steps: tuple[int, Action]) -> GameState:
    for seat, action in steps:
        state = apply(state, action, seat)
    return state


# --- resigning and forfeiting -----------------------------------------------------------


def test_it_passes_the_turn_on_when_a_player_resigns_on_their_turn() -> None:
    state = position(["R1 R2", "K5", "B7 B8"], pool="O1 O2 O3")

    after = apply(state, Resign(), 0)

    assert after.dropped == (0,)
    assert (after.current_player, after.turn_number) == (1, 6)
    assert after.racks == state.racks and after.pool == state.pool
    assert not after.is_over


def test_a_player_may_resign_on_another_players_turn_and_the_turn_goes_on() -> None:
    state = position(["R1 R2", "K5", "B7 B8"], pool="O1 O2 O3")

    after = apply(state, Resign(), 1)

    assert after.dropped == (1,)
    assert (after.current_player, after.turn_number) == (0, 5)
    # Play skips the seat that left.
    assert apply(after, Draw(), 0).current_player == 2


def test_play_skips_dropped_seats_in_either_direction() -> None:
    state = position(["R1", "R2", "R3", "R4"], pool="O1 O2 O3 O4", direction="counter_clockwise")

    state = moves(state, (2, Resign()), (3, Forfeit()), (0, Draw()))

    assert state.current_player == 1
    assert apply(state, Draw(), 1).current_player == 0


def test_the_last_seat_in_play_wins_as_if_it_had_gone_out() -> None:
    state = position(["R10 R11", "K5 J"], pool="O1")

    after = apply(state, Resign(), 0)

    outcome = after.outcome
    assert outcome is not None
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.winner == 1
    assert outcome.rack_values == (21, 35)
    # The winner's own tiles do not count: the loser's rack is the whole score.
    assert outcome.scores == (-21, 21)


def test_a_forfeit_ends_the_game_with_its_own_termination_and_penalty_scores() -> None:
    state = position(["R10 R11", "K5", "B3"], pool="O1", score_mode="penalty_only")

    state = moves(state, (1, Forfeit()), (0, Forfeit()))

    assert state.outcome is not None
    assert state.outcome.termination is Termination.FORFEIT
    assert state.outcome.winner == 2
    assert state.outcome.scores == (21, 5, 0)


def test_a_dropped_seat_scores_as_a_loser_when_another_goes_out() -> None:
    state = position(["R1", "K5 K6", "B3 B4 B5"], pool="O1")
    state = apply(state, Resign(), 1)

    state = apply(state, Draw(), 0)
    state = apply(state, _play_rack(state, 2), 2)

    assert state.outcome is not None
    assert (state.outcome.termination, state.outcome.winner) == (Termination.WENT_OUT, 2)
    assert state.outcome.scores == (-2, -11, 13)


def _play_rack(state: GameState, seat: int) -> Action:
    return Play((*state.table, state.racks[seat]))


def test_a_dropped_seat_cannot_win_an_empty_pool_and_never_gains() -> None:
    # Seat 1 leaves with the lowest rack; seats 0 and 2 then pass until blocked.
    state = position(["R9 R10", "K1", "B5 B6"])
    state = apply(state, Resign(), 1)

    state = moves(state, (0, Pass()), (2, Pass()))

    outcome = state.outcome
    assert outcome is not None
    assert outcome.termination is Termination.POOL_EMPTY_BLOCKED
    assert outcome.winner == 2
    assert outcome.rack_values == (19, 1, 11)
    # difference scoring: seat 0 loses 19 - 11; seat 1's difference would be below zero.
    assert outcome.scores == (-8, 0, 8)


def test_a_river_draw_left_unsorted_is_settled_like_a_timeout_when_its_player_resigns() -> None:
    state = position(["R1", "K5", "B3"], pending="O7 O8", draw_mode="river")

    after = apply(state, Resign(), 0)

    assert after.pending_draw == ()
    assert after.river == parse_tiles(["O8"])
    assert Counter(after.racks[0]) == Counter(parse_tiles(["R1", "O7"]))
    assert after.current_player == 1


# --- what cannot be done ----------------------------------------------------------------


def test_it_refuses_a_second_resignation_and_moves_by_a_seat_that_left() -> None:
    state = apply(position(["R1", "K5", "B3"], pool="O1 O2"), Resign(), 2)

    with pytest.raises(InvalidAction, match="already left"):
        apply(state, Forfeit(), 2)
    with pytest.raises(OutOfTurn):
        apply(state, Draw(), 2)
    assert legal_action_types(state, 2) == frozenset()


def test_nobody_resigns_a_finished_game() -> None:
    state = apply(position(["R1", "K5"], pool="O1"), Resign(), 0)

    with pytest.raises(GameOver):
        apply(state, Resign(), 1)


# --- the end of the pool ----------------------------------------------------------------


def test_a_seat_that_leaves_no_longer_counts_among_the_passes_in_a_row() -> None:
    state = position(["R9", "K1", "B5"])
    state = apply(state, Pass(), 0)
    assert state.passes_in_a_row == 1

    state = apply(state, Resign(), 0)  # on seat 1's turn: its pass no longer counts
    assert state.passes_in_a_row == 0
    state = apply(state, Pass(), 1)

    assert not state.is_over  # seat 2 has not passed yet
    state = apply(state, Pass(), 2)
    assert state.outcome is not None and state.outcome.winner == 1


def test_leaving_on_ones_own_turn_neither_counts_as_a_pass_nor_breaks_the_passes() -> None:
    state = moves(position(["R9", "K1", "B5"]), (0, Pass()), (1, Pass()))

    state = apply(state, Resign(), 2)

    assert state.outcome is not None
    assert state.outcome.termination is Termination.POOL_EMPTY_BLOCKED
    assert state.outcome.winner == 1


def test_the_final_round_waits_only_for_seats_still_in_play() -> None:
    state = position(["R9", "K1", "B5 B6"], pool="O1", pool_empty_end="one_more_round")
    state = apply(state, Draw(), 0)  # the last tile: seat 0 starts the final round
    assert (state.final_turns_left, state.current_player) == (3, 0)

    state = apply(state, Resign(), 2)  # seat 2 still had its final turn to come
    assert state.final_turns_left == 2
    state = apply(state, Pass(), 0)

    assert not state.is_over
    state = apply(state, Pass(), 1)
    assert state.outcome is not None
    assert state.outcome.termination is Termination.ONE_MORE_ROUND_ENDED


def test_a_river_draw_of_the_last_tiles_left_unsorted_starts_the_final_round_after_it() -> None:
    state = position(
        ["R9", "K1", "B5"], pending="O1 O2", draw_mode="river", pool_empty_end="one_more_round"
    )

    state = apply(state, Forfeit(), 0)

    assert (state.final_turns_left, state.current_player) == (2, 1)
    state = moves(state, (1, Pass()), (2, Pass()))
    assert state.outcome is not None


# --- records and views ------------------------------------------------------------------


def test_resign_and_forfeit_are_written_down_and_read_back() -> None:
    assert action_from_dict({"type": "resign"}) == Resign()
    assert action_from_dict(Forfeit().to_dict()) == Forfeit()
    with pytest.raises(InvalidAction):
        action_from_dict({"type": "resign", "seat": 1})


def test_a_state_with_dropped_seats_round_trips_and_old_states_read_without_them() -> None:
    state = apply(new_game(Ruleset(players=3), seed=3, starting_player=0), Resign(), 1)

    data = json.loads(json.dumps(state.to_dict()))
    assert data["dropped"] == [1]
    assert GameState.from_dict(data) == state
    del data["dropped"]
    assert GameState.from_dict(data).dropped == ()


def test_views_show_who_left() -> None:
    state = apply(new_game(Ruleset(players=3), seed=3, starting_player=0), Forfeit(), 2)

    assert view_for(state, 0).dropped == (2,)
    assert spectator_view(state).to_dict()["dropped"] == [2]


# --- scoring with contenders ------------------------------------------------------------


def test_scoring_an_empty_pool_chooses_the_winner_among_contenders_only() -> None:
    racks = {"A": parse_tiles(["R9"]), "B": parse_tiles(["K1"]), "C": parse_tiles(["B5"])}

    score = score_game("pool_empty", racks, contenders=["A", "C"])

    assert score.winner == "C"
    assert score.scores == {"A": -4, "B": 0, "C": 4}
    with pytest.raises(ScoringError):
        score_game("pool_empty", racks, contenders=[])


# --- random games with players leaving --------------------------------------------------


def play_with_drop_outs(
    ruleset: Ruleset, seed: int, rng: random.Random
) -> tuple[GameState, list[tuple[int, Action]], list[GameState]]:
    state = new_game(ruleset, seed)
    log: list[tuple[int, Action]] = []
    states = [state]
    while not state.is_over:
        assert len(log) < 2000, "the game did not end"
        leaving = rng.random() < 0.04
        if leaving:
            seat = rng.choice(state.in_play)
            action: Action = rng.choice([Resign(), Forfeit()])
        else:
            seat = state.current_player
            action = choose_action(state, rng)
        state = apply(state, action, seat)
        log.append((seat, action))
        states.append(state)
    return state, log, states


@GAME_SETTINGS
@given(ruleset=rulesets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_games_with_players_leaving_end_conserve_tiles_and_replay(
    ruleset: Ruleset, seed: int, choices: random.Random
) -> None:
    final, log, states = play_with_drop_outs(ruleset, seed, choices)

    for state in states:
        assert state.all_tiles() == Counter(full_set())
        if not state.is_over:
            assert state.current_player not in state.dropped
    assert replay(ruleset, seed, log) == final
    stored = json.loads(json.dumps([[seat, action.to_dict()] for seat, action in log]))
    assert replay(ruleset, seed, [(s, action_from_dict(a)) for s, a in stored]) == final
    outcome = final.outcome
    assert outcome is not None
    assert outcome.winner is None or outcome.winner not in final.dropped
    if ruleset.score_mode == "zero_sum":
        assert sum(outcome.scores) == 0
    # A seat that left scores as a loser: never a gain (nor a negative penalty).
    for seat in final.dropped:
        if ruleset.score_mode == "zero_sum":
            assert outcome.scores[seat] <= 0
        else:
            assert outcome.scores[seat] >= 0
    if len(final.in_play) == 1:
        assert outcome.winner == final.in_play[0]
        assert outcome.termination in (Termination.RESIGNATION, Termination.FORFEIT)


def test_a_timeout_still_works_beside_dropped_seats() -> None:
    state = apply(position(["R1", "K5", "B3"], pool="O1 O2 O3"), Resign(), 1)

    after = apply(state, Timeout(changed=True), 0)

    assert after.current_player == 2
    assert len(after.racks[0]) == 4
