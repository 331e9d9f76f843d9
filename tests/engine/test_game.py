"""Game flow: setup, each action, each way a game ends, the River, views, serialisation."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from engine.actions import (
    Action,
    Discard,
    Draw,
    GameOver,
    IllegalMove,
    InvalidAction,
    OutOfTurn,
    Pass,
    Play,
    TakeFromRiver,
    Timeout,
    action_from_dict,
)
from engine.game import apply, legal_action_types, new_game, replay
from engine.ruleset import Ruleset
from engine.scoring import score_game
from engine.state import GameState, StateError, Termination
from engine.tiles import JOKER, full_set, parse_tile, parse_tiles
from engine.views import spectator_view, view_for

# --- helpers --------------------------------------------------------------------------


def position(
    racks: list[list[str]],
    *,
    pool: Sequence[str] = (),
    table: Sequence[Sequence[str]] = (),
    river: Sequence[str] = (),
    pending: Sequence[str] = (),
    current: int = 0,
    meld_done: list[bool] | None = None,
    **options: Any,
) -> GameState:
    """A hand-made position. Tiles not mentioned are simply out of the game, which the
    flow does not mind; real games (see the property tests) keep all 106."""
    ruleset = Ruleset(players=len(racks), **options)
    return GameState(
        ruleset=ruleset,
        racks=tuple(tuple(sorted(parse_tiles(rack))) for rack in racks),
        pool=parse_tiles(pool),
        table=tuple(parse_tiles(tile_set) for tile_set in table),
        river=parse_tiles(river),
        pending_draw=parse_tiles(pending),
        current_player=current,
        starting_player=current,
        turn_number=1,
        initial_meld_done=tuple(meld_done or [False] * len(racks)),
        passes_in_a_row=0,
        final_turns_left=None,
        first_player_draw=(),
    )


def play(*sets: list[str]) -> Play:
    return Play.from_notation(sets)


def tiles(*notation: str) -> tuple[Any, ...]:
    return tuple(sorted(parse_tiles(notation)))


def draw_until_pool_has(state: GameState, left: int) -> GameState:
    while len(state.pool) > left:
        state = apply(state, Draw(), state.current_player)
    return state


# --- new_game ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rack_size", [14, 16])
def test_it_deals_each_seat_a_sorted_rack_and_pools_the_rest(players: int, rack_size: int) -> None:
    state = new_game(Ruleset(players=players, rack_size=rack_size), seed=players * rack_size)
    assert [len(rack) for rack in state.racks] == [rack_size] * players
    assert all(list(rack) == sorted(rack) for rack in state.racks)
    assert len(state.pool) == 106 - players * rack_size
    assert state.all_tiles() == Counter(full_set())
    assert state.table == () and state.river == () and state.pending_draw == ()
    assert state.initial_meld_done == (False,) * players
    assert state.turn_number == 1 and state.outcome is None


def test_it_deals_the_same_game_from_the_same_seed_and_another_from_another() -> None:
    rules = Ruleset(players=3)
    assert new_game(rules, 42) == new_game(rules, 42)
    assert new_game(rules, "abc") == new_game(rules, "abc")
    assert new_game(rules, 42).pool != new_game(rules, 43).pool


def test_it_lets_the_highest_drawn_number_start() -> None:
    # Seed 4, three players: B3, B7, R7 (tie), then O8 against B13.
    state = new_game(Ruleset(players=3), seed=4)
    draws = [[(d.player, str(d.tile)) for d in one] for one in state.first_player_draw]
    assert draws == [[(0, "B3"), (1, "B7"), (2, "R7")], [(1, "O8"), (2, "B13")]]
    assert state.starting_player == state.current_player == 2


def test_it_breaks_a_tie_among_the_highest_by_drawing_again_reproducibly() -> None:
    # Seed 2, three players: R4, R6, R6; then B11, R11 tie again; then O9 beats O4.
    state = new_game(Ruleset(players=3), seed=2)
    draws = [[(d.player, str(d.tile)) for d in one] for one in state.first_player_draw]
    assert draws == [
        [(0, "R4"), (1, "R6"), (2, "R6")],
        [(1, "B11"), (2, "R11")],
        [(1, "O9"), (2, "O4")],
    ]
    assert state.starting_player == 1
    assert new_game(Ruleset(players=3), seed=2).first_player_draw == state.first_player_draw


@pytest.mark.parametrize("seed", range(60))
def test_every_first_player_draw_follows_the_rules(seed: int) -> None:
    state = new_game(Ruleset(players=4), seed=seed)
    contenders = [0, 1, 2, 3]
    for one_draw in state.first_player_draw:
        assert [d.player for d in one_draw] == contenders
        ranks = {d.player: 0 if d.tile.is_joker else d.tile.number for d in one_draw}
        best = max(ranks.values())
        contenders = [p for p in contenders if ranks[p] == best]
    assert contenders == [state.starting_player]


def test_a_drawn_joker_counts_lower_than_any_number() -> None:
    # Seed "table-9", three players: R1, J, O12 -> the joker loses even to the 1.
    state = new_game(Ruleset(players=3), seed="table-9")
    first = state.first_player_draw[0]
    assert [str(d.tile) for d in first] == ["R1", "J", "O12"]
    assert state.starting_player == 2
    for seed in range(400):
        state = new_game(Ruleset(players=2), seed=seed)
        one = state.first_player_draw[0]
        if {d.tile.is_joker for d in one} == {True, False}:
            assert next(d for d in one if d.tile.is_joker).player != state.starting_player
            break
    else:
        pytest.fail("no seed under 400 draws a joker against a number")


def test_a_given_starting_player_skips_the_draw() -> None:
    state = new_game(Ruleset(players=4), seed=5, starting_player=3)
    assert state.first_player_draw == ()
    assert state.current_player == state.starting_player == 3


@pytest.mark.parametrize("seat", [-1, 4, True])
def test_it_refuses_a_starting_seat_that_is_not_at_the_table(seat: int) -> None:
    with pytest.raises(ValueError, match="no seat"):
        new_game(Ruleset(players=4), seed=5, starting_player=seat)


def test_it_refuses_a_seed_that_is_neither_a_number_nor_a_text() -> None:
    with pytest.raises(TypeError):
        new_game(Ruleset(), seed=1.5)  # type: ignore[arg-type]


# --- turn order -------------------------------------------------------------------------


def test_play_goes_clockwise_by_default() -> None:
    state = new_game(Ruleset(players=4), seed=1, starting_player=1)
    order = []
    for _ in range(5):
        order.append(state.current_player)
        state = apply(state, Draw(), state.current_player)
    assert order == [1, 2, 3, 0, 1]


def test_play_goes_counter_clockwise_when_the_ruleset_says_so() -> None:
    state = new_game(Ruleset(players=4, direction="counter_clockwise"), seed=1, starting_player=1)
    order = []
    for _ in range(5):
        order.append(state.current_player)
        state = apply(state, Draw(), state.current_player)
    assert order == [1, 0, 3, 2, 1]


def test_it_rejects_an_action_from_a_player_whose_turn_it_is_not() -> None:
    state = new_game(Ruleset(players=3), seed=1, starting_player=0)
    with pytest.raises(OutOfTurn):
        apply(state, Draw(), 1)


@pytest.mark.parametrize("seat", [-1, 3, "0", True])
def test_it_rejects_a_seat_that_does_not_exist(seat: Any) -> None:
    state = new_game(Ruleset(players=3), seed=1, starting_player=0)
    with pytest.raises(InvalidAction, match="no seat"):
        apply(state, Draw(), seat)


def test_it_rejects_something_that_is_not_an_action() -> None:
    state = new_game(Ruleset(players=2), seed=1, starting_player=0)
    with pytest.raises(InvalidAction, match="not an action"):
        apply(state, "draw", 0)  # type: ignore[arg-type]


# --- draw -------------------------------------------------------------------------------


def test_a_draw_takes_the_top_pool_tile_and_ends_the_turn() -> None:
    state = new_game(Ruleset(players=2), seed=3, starting_player=0)
    top = state.pool[0]
    after = apply(state, Draw(), 0)
    assert Counter(after.racks[0]) == Counter((*state.racks[0], top))
    assert list(after.racks[0]) == sorted(after.racks[0])
    assert after.pool == state.pool[1:]
    assert after.current_player == 1 and after.turn_number == 2
    assert after.passes_in_a_row == 0


def test_apply_never_changes_the_state_it_was_given() -> None:
    state = new_game(Ruleset(players=2), seed=3, starting_player=0)
    copy = GameState.from_dict(state.to_dict())
    apply(state, Draw(), 0)
    apply(state, Timeout(changed=True), 0)
    assert state == copy


def test_a_drawn_tile_cannot_be_played_on_the_next_play_of_the_same_turn() -> None:
    # The draw ends the turn, so the tile can only be played a turn later; the verdict
    # refuses a tile that is not on the rack the turn started with.
    state = position(
        [["R10", "R11"], ["K1"]], pool=["R12"], meld_done=[True, True], table=[["B1", "B2", "B3"]]
    )
    with pytest.raises(IllegalMove) as err:
        apply(state, play(["B1", "B2", "B3"], ["R10", "R11", "R12"]), 0)
    assert err.value.reason == "tile_not_owned"


def test_it_refuses_a_draw_from_an_empty_pool() -> None:
    state = position([["R1"], ["R2"]], pool=[])
    with pytest.raises(InvalidAction, match="pool is empty"):
        apply(state, Draw(), 0)


# --- play -------------------------------------------------------------------------------


def test_a_valid_initial_meld_moves_the_tiles_and_marks_the_meld() -> None:
    state = position([["R10", "R11", "R12", "K4"], ["B1"]], pool=["O5"])
    after = apply(state, play(["R10", "R11", "R12"]), 0)
    assert after.table == (tiles("R10", "R11", "R12"),)
    assert after.racks[0] == tiles("K4")
    assert after.initial_meld_done == (True, False)
    assert after.current_player == 1 and after.turn_number == 2
    assert after.pool == state.pool


def test_the_table_keeps_the_order_the_player_laid_the_tiles_in() -> None:
    state = position([["R10", "R11", "R12", "J", "K4"], ["B1"]], pool=["O5"])
    after = apply(state, play(["J", "R10", "R12", "R11"]), 0)
    assert [str(t) for t in after.table[0]] == ["J", "R10", "R12", "R11"]


def test_empty_sets_in_a_play_are_dropped_from_the_table() -> None:
    state = position([["R10", "R11", "R12", "K4"], ["B1"]], pool=["O5"])
    after = apply(state, play([], ["R10", "R11", "R12"], []), 0)
    assert after.table == (tiles("R10", "R11", "R12"),)


def test_a_play_against_the_rules_raises_the_verdicts_reason_and_words() -> None:
    state = position([["R5", "R6", "R7", "K4"], ["B1"]], pool=["O5"])
    with pytest.raises(IllegalMove) as err:
        apply(state, play(["R5", "R6", "R7"]), 0)
    assert err.value.reason == "initial_meld_below_30"
    assert "30" in err.value.detail and str(err.value) == err.value.detail


def test_a_play_that_moves_no_rack_tile_is_illegal() -> None:
    state = position([["K4"], ["B1"]], table=[["R5", "R6", "R7"]], meld_done=[True, True])
    with pytest.raises(IllegalMove) as err:
        apply(state, play(["R5", "R6", "R7"]), 0)
    assert err.value.reason == "no_tile_played"


def test_after_the_initial_meld_a_player_may_extend_table_sets() -> None:
    state = position(
        [["R8", "B2"], ["K1"]], table=[["R5", "R6", "R7"]], meld_done=[True, False], pool=["O1"]
    )
    after = apply(state, play(["R5", "R6", "R7", "R8"]), 0)
    assert after.racks[0] == tiles("B2") and after.outcome is None


def test_emptying_the_rack_ends_the_game_and_scores_it() -> None:
    state = position(
        [["R8"], ["K1", "J"], ["B13"]],
        table=[["R5", "R6", "R7"]],
        meld_done=[True, True, True],
        pool=["O1", "O2"],
    )
    after = apply(state, play(["R5", "R6", "R7", "R8"]), 0)
    assert after.is_over
    outcome = after.outcome
    assert outcome is not None
    assert outcome.termination is Termination.WENT_OUT
    assert outcome.winner == 0
    assert outcome.rack_values == (0, 31, 13)
    assert outcome.scores == (44, -31, -13)
    with pytest.raises(GameOver):
        apply(after, Draw(), 1)
    assert legal_action_types(after, 1) == frozenset()


def test_going_out_under_penalty_only_gives_the_winner_nothing() -> None:
    state = position(
        [["R8"], ["K1", "J"]],
        table=[["R5", "R6", "R7"]],
        meld_done=[True, True],
        score_mode="penalty_only",
        joker_penalty=25,
    )
    outcome = apply(state, play(["R5", "R6", "R7", "R8"]), 0).outcome
    assert outcome is not None and outcome.scores == (0, 26)


# --- timeouts ---------------------------------------------------------------------------


def test_a_timeout_after_changes_restores_everything_and_draws_the_failed_turn_penalty() -> None:
    state = position([["R1"], ["B1"]], pool=["K1", "K2", "K3", "K4"], table=[["O1", "O2", "O3"]])
    after = apply(state, Timeout(changed=True), 0)
    assert after.racks[0] == tiles("R1", "K1", "K2", "K3")
    assert after.pool == parse_tiles(["K4"])
    assert after.table == state.table
    assert after.current_player == 1 and after.turn_number == 2


def test_a_timeout_without_changes_draws_the_overtime_penalty() -> None:
    state = position([["R1"], ["B1"]], pool=["K1", "K2", "K3", "K4"])
    assert apply(state, Timeout(changed=False), 0).racks[0] == tiles("R1", "K1")
    state = position([["R1"], ["B1"]], pool=["K1", "K2"], overtime_penalty_draw=0)
    after = apply(state, Timeout(changed=False), 0)
    assert after.racks[0] == tiles("R1") and after.current_player == 1


def test_the_penalties_follow_the_ruleset() -> None:
    state = position(
        [["R1"], ["B1"]],
        pool=["K1", "K2", "K3", "K4", "K5"],
        failed_turn_penalty_draw=3,
        overtime_penalty_draw=2,
    )
    assert len(apply(state, Timeout(changed=True), 0).racks[0]) == 4
    assert len(apply(state, Timeout(changed=False), 0).racks[0]) == 3


def test_a_timeout_draws_only_what_is_left_in_the_pool() -> None:
    state = position([["R1"], ["B1"]], pool=["K1", "K2"])
    after = apply(state, Timeout(changed=True), 0)
    assert after.racks[0] == tiles("R1", "K1", "K2") and after.pool == ()


# --- pass and the empty pool ------------------------------------------------------------


def test_a_pass_is_refused_while_the_pool_has_tiles() -> None:
    state = position([["R1"], ["B1"]], pool=["K1"])
    with pytest.raises(InvalidAction, match="only pass when the pool is empty"):
        apply(state, Pass(), 0)


def test_play_until_blocked_ends_when_every_player_has_passed_in_a_row() -> None:
    state = draw_until_pool_has(new_game(Ruleset(players=3), seed=9, starting_player=0), 0)
    assert legal_action_types(state, state.current_player) == {"play", "pass"}
    for _ in range(2):
        state = apply(state, Pass(), state.current_player)
        assert not state.is_over
    assert state.passes_in_a_row == 2
    state = apply(state, Pass(), state.current_player)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_BLOCKED
    expected = score_game("pool_empty", dict(enumerate(state.racks)), None, state.ruleset)
    assert outcome.winner == expected.winner
    assert outcome.scores == tuple(expected.scores[seat] for seat in range(3))
    assert sum(outcome.scores) == 0


def test_the_draw_of_the_last_tile_is_not_a_pass() -> None:
    state = draw_until_pool_has(new_game(Ruleset(players=2), seed=9, starting_player=0), 1)
    state = apply(state, Draw(), state.current_player)
    assert state.pool == () and state.passes_in_a_row == 0
    state = apply(state, Pass(), state.current_player)
    assert not state.is_over and state.passes_in_a_row == 1
    state = apply(state, Pass(), state.current_player)
    assert state.is_over


def test_a_play_resets_the_count_of_passes() -> None:
    state = position(
        [["R8", "R9", "B2"], ["K1"], ["O4"]],
        table=[["R5", "R6", "R7"]],
        meld_done=[True, True, True],
    )
    state = apply(state, play(["R5", "R6", "R7", "R8"]), 0)
    state = apply(apply(state, Pass(), 1), Pass(), 2)
    assert state.passes_in_a_row == 2
    state = apply(state, play(["R5", "R6", "R7", "R8", "R9"]), 0)
    assert state.passes_in_a_row == 0
    state = apply(apply(state, Pass(), 1), Pass(), 2)
    assert not state.is_over
    state = apply(state, Pass(), 0)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_BLOCKED


def test_a_timeout_with_an_empty_pool_counts_as_a_pass() -> None:
    state = position([["R1"], ["B2"]])
    state = apply(state, Timeout(changed=True), 0)
    assert state.passes_in_a_row == 1 and state.racks[0] == tiles("R1")
    state = apply(state, Timeout(changed=False), 1)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_BLOCKED
    assert outcome.winner == 0 and outcome.scores == (1, -1)


def test_a_tie_for_the_win_goes_to_the_player_who_would_have_moved_next() -> None:
    state = position([["R1"], ["B1"], ["K1"]], current=1)
    for seat in (1, 2, 0):
        state = apply(state, Pass(), seat)
    outcome = state.outcome
    assert outcome is not None and outcome.rack_values == (1, 1, 1)
    assert outcome.winner == 1 and outcome.scores == (0, 0, 0)


def test_immediate_ends_the_game_when_a_draw_empties_the_pool() -> None:
    rules = Ruleset(players=2, pool_empty_end="immediate")
    state = draw_until_pool_has(new_game(rules, seed=9, starting_player=0), 1)
    assert not state.is_over
    state = apply(state, Draw(), state.current_player)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_IMMEDIATE
    assert sum(outcome.scores) == 0


def test_immediate_also_ends_the_game_when_a_penalty_empties_the_pool() -> None:
    state = position([["R1"], ["B1"]], pool=["K1", "K2"], pool_empty_end="immediate")
    outcome = apply(state, Timeout(changed=True), 0).outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_IMMEDIATE


def test_one_more_round_starts_with_the_player_who_drew_the_last_tile() -> None:
    rules = Ruleset(players=3, pool_empty_end="one_more_round")
    state = draw_until_pool_has(new_game(rules, seed=9, starting_player=0), 1)
    drawer = state.current_player
    state = apply(state, Draw(), drawer)
    assert state.current_player == drawer and state.final_turns_left == 3
    assert legal_action_types(state, drawer) == {"play", "pass"}
    seen = []
    while not state.is_over:
        seen.append(state.current_player)
        state = apply(state, Pass(), state.current_player)
    assert seen == [drawer, (drawer + 1) % 3, (drawer + 2) % 3]
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.ONE_MORE_ROUND_ENDED


def test_one_more_round_gives_the_drawer_a_new_turn_in_which_the_drawn_tile_is_playable() -> None:
    state = position(
        [["R10", "R11"], ["K1"]],
        pool=["R12"],
        pool_empty_end="one_more_round",
        table=[["B1", "B2", "B3"]],
        meld_done=[True, True],
    )
    state = apply(state, Draw(), 0)
    assert state.current_player == 0 and state.turn_number == 2
    state = apply(state, play(["B1", "B2", "B3"], ["R10", "R11", "R12"]), 0)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.WENT_OUT


def test_one_more_round_counts_plays_as_final_turns_too() -> None:
    state = position(
        [["R8", "R9"], ["K1"]],
        pool=["O1"],
        pool_empty_end="one_more_round",
        table=[["R5", "R6", "R7"]],
        meld_done=[True, True],
    )
    state = apply(state, Draw(), 0)
    state = apply(state, play(["R5", "R6", "R7", "R8"]), 0)
    assert state.final_turns_left == 1 and state.current_player == 1
    state = apply(state, Pass(), 1)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.ONE_MORE_ROUND_ENDED
    assert outcome.rack_values == (10, 1)


# --- the River --------------------------------------------------------------------------


def river_position(**kwargs: Any) -> GameState:
    return position(draw_mode="river", **kwargs)


def test_a_river_draw_takes_two_tiles_into_a_pending_draw_and_keeps_the_turn() -> None:
    state = river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2", "K3"])
    after = apply(state, Draw(), 0)
    assert after.pending_draw == parse_tiles(["K1", "K2"])
    assert after.pool == parse_tiles(["K3"])
    assert after.current_player == 0 and after.turn_number == 1
    assert legal_action_types(after, 0) == {"discard"}


def test_a_discard_sends_one_drawn_tile_to_the_river_and_keeps_the_other() -> None:
    state = apply(
        river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2", "K3"], river=["O9"]), Draw(), 0
    )
    after = apply(state, Discard(parse_tile("K1")), 0)
    assert after.river == parse_tiles(["O9", "K1"])
    assert after.racks[0] == tiles("R1", "K2")
    assert after.pending_draw == ()
    assert after.current_player == 1 and after.turn_number == 2


def test_only_a_discard_or_a_timeout_may_follow_a_river_draw() -> None:
    state = apply(river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2", "K3"]), Draw(), 0)
    for action in (Draw(), play(["R1", "K1", "K2"]), TakeFromRiver(0, ())):
        with pytest.raises(InvalidAction, match="discard one"):
            apply(state, action, 0)
    with pytest.raises(InvalidAction, match="one of the two tiles you drew"):
        apply(state, Discard(parse_tile("R1")), 0)


def test_a_discard_without_a_pending_draw_is_invalid() -> None:
    state = river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2"])
    with pytest.raises(InvalidAction, match="nothing to discard"):
        apply(state, Discard(parse_tile("R1")), 0)


def test_a_river_draw_with_one_tile_left_just_takes_it() -> None:
    state = river_position(racks=[["R1"], ["B1"]], pool=["K1"])
    after = apply(state, Draw(), 0)
    assert after.racks[0] == tiles("R1", "K1") and after.river == () and after.pool == ()
    assert after.current_player == 1


def test_a_timeout_during_a_river_draw_discards_the_second_tile() -> None:
    state = apply(river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2", "K3"]), Draw(), 0)
    after = apply(state, Timeout(changed=True), 0)
    assert after.river == parse_tiles(["K2"]) and after.racks[0] == tiles("R1", "K1")
    assert after.pool == parse_tiles(["K3"]) and after.current_player == 1


def test_taking_from_the_river_plays_the_key_tile_and_racks_the_plunder() -> None:
    state = river_position(
        racks=[["R8", "B2"], ["K1"]],
        table=[["R5", "R6", "R7"]],
        river=["O3", "R9", "K5", "B7"],
        meld_done=[True, True],
        pool=["O1"],
    )
    assert "take_from_river" in legal_action_types(state, 0)
    after = apply(state, TakeFromRiver(1, parse_tables([["R5", "R6", "R7", "R8", "R9"]])), 0)
    assert after.table == (tiles("R5", "R6", "R7", "R8", "R9"),)
    assert after.river == parse_tiles(["O3"])
    assert after.racks[0] == tiles("B2", "K5", "B7")
    assert after.current_player == 1 and after.all_tiles() == state.all_tiles()


def parse_tables(sets: list[list[str]]) -> tuple[tuple[Any, ...], ...]:
    return Play.from_notation(sets).table_after


def test_the_plunder_cannot_be_played_the_turn_it_is_taken() -> None:
    state = river_position(
        racks=[["B2"], ["K1"]],
        table=[["R5", "R6", "R7"]],
        river=["R8", "R9"],
        meld_done=[True, True],
    )
    with pytest.raises(IllegalMove) as err:
        apply(state, TakeFromRiver(0, parse_tables([["R5", "R6", "R7", "R8", "R9"]])), 0)
    assert err.value.reason == "tile_not_owned"
    after = apply(state, TakeFromRiver(0, parse_tables([["R5", "R6", "R7", "R8"]])), 0)
    assert after.racks[0] == tiles("B2", "R9")


def test_the_key_tile_must_be_played() -> None:
    state = river_position(
        racks=[["R8"], ["K1"]], table=[["R5", "R6", "R7"]], river=["O3"], meld_done=[True, True]
    )
    with pytest.raises(IllegalMove) as err:
        apply(state, TakeFromRiver(0, parse_tables([["R5", "R6", "R7", "R8"]])), 0)
    assert err.value.reason == "key_tile_not_played" and "O3" in err.value.detail


def test_taking_the_newest_river_tile_to_go_out_wins() -> None:
    state = river_position(
        racks=[["R8"], ["K1"]],
        table=[["R5", "R6", "R7"]],
        river=["O3", "R9"],
        meld_done=[True, True],
        pool=["O1"],
    )
    after = apply(state, TakeFromRiver(1, parse_tables([["R5", "R6", "R7", "R8", "R9"]])), 0)
    outcome = after.outcome
    assert outcome is not None and outcome.termination is Termination.WENT_OUT
    assert outcome.winner == 0 and after.river == parse_tiles(["O3"])


def test_a_key_tile_can_complete_an_initial_meld_worth_enough() -> None:
    state = river_position(racks=[["R10", "R11", "K2"], ["K1"]], river=["R12"], pool=["O1"])
    after = apply(state, TakeFromRiver(0, parse_tables([["R10", "R11", "R12"]])), 0)
    assert after.initial_meld_done == (True, False) and after.racks[0] == tiles("K2")
    state = river_position(racks=[["R2", "R3", "K2"], ["K1"]], river=["R4"], pool=["O1"])
    with pytest.raises(IllegalMove) as err:
        apply(state, TakeFromRiver(0, parse_tables([["R2", "R3", "R4"]])), 0)
    assert err.value.reason == "initial_meld_below_30"


def test_a_river_index_outside_the_river_is_invalid() -> None:
    state = river_position(racks=[["R8"], ["K1"]], river=["O3"])
    with pytest.raises(InvalidAction, match="no tile at position 1"):
        apply(state, TakeFromRiver(1, ()), 0)


def test_the_river_cannot_be_used_in_a_single_draw_game() -> None:
    state = position([["R8"], ["K1"]], river=[])
    with pytest.raises(InvalidAction, match="not played with the River"):
        apply(state, TakeFromRiver(0, ()), 0)


def test_with_an_empty_pool_the_river_can_still_be_taken_and_players_pass() -> None:
    state = river_position(
        racks=[["R8", "B2"], ["K1"]],
        table=[["R5", "R6", "R7"]],
        river=["R9"],
        meld_done=[True, True],
    )
    assert legal_action_types(state, 0) == {"play", "pass", "take_from_river"}
    after = apply(state, TakeFromRiver(0, parse_tables([["R5", "R6", "R7", "R8", "R9"]])), 0)
    assert after.passes_in_a_row == 0 and not after.is_over
    after = apply(apply(state, Pass(), 0), Pass(), 1)
    outcome = after.outcome
    assert outcome is not None and outcome.termination is Termination.POOL_EMPTY_BLOCKED
    assert outcome.rack_values == (10, 1)  # the river tile belongs to nobody


# --- legal action types -----------------------------------------------------------------


def test_legal_action_types_offer_only_what_the_state_allows() -> None:
    state = river_position(racks=[["R8"], ["K1"]], pool=["O1", "O2"])
    assert legal_action_types(state, 0) == {"play", "draw"}
    assert legal_action_types(state, 1) == frozenset()
    state = replace(state, river=parse_tiles(["K9"]))
    assert legal_action_types(state, 0) == {"play", "draw", "take_from_river"}


# --- views ------------------------------------------------------------------------------


def test_a_player_sees_their_rack_and_only_the_counts_of_the_others() -> None:
    state = new_game(Ruleset(players=3), seed=12, starting_player=0)
    view = view_for(state, 1)
    assert view.rack == state.racks[1]
    assert view.rack_sizes == (14, 14, 14) and view.pool_size == 64
    assert view.current_player == 0 and view.turn_number == 1
    assert view.actions == frozenset() and view_for(state, 0).actions == {"play", "draw"}
    data = view.to_dict()
    json.dumps(data)
    text = json.dumps(data)
    for seat in (0, 2):
        assert json.dumps([str(t) for t in state.racks[seat]]) not in text
    assert "pool" not in data and data["pool_size"] == 64


def test_only_the_drawer_sees_a_pending_river_draw() -> None:
    state = apply(river_position(racks=[["R1"], ["B1"]], pool=["K1", "K2", "K3"]), Draw(), 0)
    assert view_for(state, 0).pending_draw == parse_tiles(["K1", "K2"])
    assert view_for(state, 1).pending_draw is None
    assert view_for(state, 1).pending_draw_size == 2
    assert spectator_view(state).pending_draw is None


def test_a_spectator_sees_no_rack() -> None:
    state = new_game(Ruleset(players=2), seed=12)
    view = spectator_view(state)
    assert view.player is None and view.rack is None and view.actions == frozenset()
    assert view.final_racks is None
    assert view.first_player_draw == state.first_player_draw
    assert view.to_dict()["first_player_draw"][0][0]["tile"] == str(
        state.first_player_draw[0][0].tile
    )


def test_at_the_end_every_rack_and_the_scores_are_public() -> None:
    state = position([["R8"], ["K1", "J"]], table=[["R5", "R6", "R7"]], meld_done=[True, True])
    state = apply(state, play(["R5", "R6", "R7", "R8"]), 0)
    view = spectator_view(state)
    assert view.current_player is None
    assert view.final_racks == ((), tiles("K1", "J"))
    assert view.to_dict()["outcome"] == {
        "termination": "went_out",
        "winner": 0,
        "rack_values": [0, 31],
        "scores": [31, -31],
    }


def test_view_for_refuses_a_seat_not_at_the_table() -> None:
    with pytest.raises(ValueError):
        view_for(new_game(Ruleset(players=2), 1), 2)


# --- actions as data --------------------------------------------------------------------

ALL_ACTIONS: list[Action] = [
    Play.from_notation([["R1", "R2", "R3"], ["J", "K5", "B5"]]),
    Draw(),
    Pass(),
    Timeout(changed=True),
    Timeout(changed=False),
    Discard(JOKER),
    TakeFromRiver(3, Play.from_notation([["O7", "O8", "O9"]]).table_after),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: a.type)
def test_every_action_round_trips_through_json(action: Action) -> None:
    data = json.loads(json.dumps(action.to_dict()))
    assert data["type"] == action.type
    assert action_from_dict(data) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "draw", "tile": "R1"}, "takes nothing else"),
        ({"type": "play"}, "takes table_after"),
        ({"type": "play", "table_after": "R1 R2 R3"}, "list of sets"),
        ({"type": "play", "table_after": [["R1", "R14"]]}, "not a tile"),
        ({"type": "play", "table_after": ["R1"]}, "a set must be a list"),
        ({"type": "discard", "tile": "Q1"}, "not a tile"),
        ({"type": "timeout", "changed": "yes"}, "true or false"),
        ({"type": "take_from_river", "index": "2", "table_after": []}, "whole number"),
        ({"type": "shuffle"}, "unknown action type"),
        (["draw"], "must be an object"),
    ],
)
def test_malformed_action_data_is_refused_as_invalid(data: Any, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        action_from_dict(data)


# --- replay and serialisation -----------------------------------------------------------


def test_replay_rebuilds_a_game_from_its_seed_and_actions() -> None:
    rules = Ruleset(players=2, draw_mode="river")
    state = new_game(rules, seed="r1")
    moves: list[tuple[int, Action]] = []
    for _ in range(6):
        seat = state.current_player
        for action in (Draw(), Discard(state.pool[1])):
            moves.append((seat, action))
            state = apply(state, action, seat)
    assert replay(rules, "r1", moves) == state
    stored = [(seat, action.to_dict()) for seat, action in moves]
    assert replay(rules, "r1", [(s, action_from_dict(a)) for s, a in stored]) == state


def test_a_state_round_trips_through_json() -> None:
    state = apply(new_game(Ruleset(players=3, draw_mode="river"), seed=4), Draw(), 2)
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    over = apply(
        position([["R8"], ["K1", "J"]], table=[["R5", "R6", "R7"]], meld_done=[True, True]),
        play(["R5", "R6", "R7", "R8"]),
        0,
    )
    data = over.to_dict()
    assert data["outcome"]["termination"] == "went_out"


def test_a_state_with_tiles_missing_or_extra_is_refused() -> None:
    data = new_game(Ruleset(players=2), seed=4).to_dict()
    data["pool"] = data["pool"][1:]
    with pytest.raises(StateError, match="106 tiles"):
        GameState.from_dict(data)
    data = new_game(Ruleset(players=2), seed=4).to_dict()
    del data["river"]
    with pytest.raises(StateError):
        GameState.from_dict(data)
