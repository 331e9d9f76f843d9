"""Tests for the bots: each level's choices, the River, and legality over random games."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, Draw, Layout, Pass, Play, TakeFromRiver
from engine.bots import (
    BOT_STEPS,
    LEVELS,
    Level,
    RejectedPlayWarning,
    choose_action,
    choose_for,
)
from engine.game import apply, new_game
from engine.ruleset import Ruleset
from engine.solver import Budget, solve
from engine.state import GameState
from engine.tiles import Tile, full_set
from engine.views import spectator_view, view_for
from tests.engine.conftest import TableFromText, TilesFromText

TWO = Ruleset(players=2)
RIVER = Ruleset(players=2, draw_mode="river")


def make_state(
    rules: Ruleset,
    rack: Sequence[Tile],
    table: Layout = (),
    *,
    meld_done: bool = True,
    opponent: Sequence[Tile] | None = None,
    river: Sequence[Tile] = (),
    pending: Sequence[Tile] = (),
    pool_size: int | None = None,
) -> GameState:
    """Seat 0 to move with ``rack``. Without an ``opponent`` rack, seat 1 gets 14 tiles
    and the pool the rest (``pool_size`` of them, the others also to seat 1). With one,
    the pool holds ``pool_size`` of the remaining tiles and the others are out of the
    game: positions a bot must judge, not whole games."""
    rest = Counter(full_set())
    for tiles in (rack, *table, river, pending, opponent or ()):
        rest.subtract(tiles)
    assert all(count >= 0 for count in rest.values()), "more copies than the game has"
    left = sorted(rest.elements())
    given = opponent is not None
    if opponent is None:
        opponent, left = tuple(left[:14]), left[14:]
    if pool_size is not None:
        spare, left = left[pool_size:], left[:pool_size]
        opponent = tuple(opponent) if given else (*opponent, *spare)
    return GameState(
        ruleset=rules,
        racks=(tuple(sorted(rack)), tuple(sorted(opponent))),
        pool=tuple(left),
        table=tuple(tuple(s) for s in table),
        river=tuple(river),
        pending_draw=tuple(pending),
        current_player=0,
        starting_player=0,
        turn_number=10,
        initial_meld_done=(meld_done, True),
        passes_in_a_row=0,
        final_turns_left=None,
        first_player_draw=(),
    )


def decide(state: GameState, level: Level) -> Action:
    """The bot's action, checked legal by applying it."""
    action = choose_for(state, state.current_player, level, random.Random(0))
    apply(state, action, state.current_player)
    return action


def laid(state: GameState, action: Play | TakeFromRiver) -> Counter[Tile]:
    after: Counter[Tile] = Counter()
    for tile_set in action.table_after:
        after.update(tile_set)
    for tile_set in state.table:
        after.subtract(tile_set)
    return +after


# --- easy -------------------------------------------------------------------------------


def test_easy_lays_new_sets_and_leaves_the_table_sets_as_they_were(
    tiles: TilesFromText, table: TableFromText
) -> None:
    before = tuple(table("K4 K5 K6 | R10 B10 O10"))
    state = make_state(TWO, tiles("K7 K10 R2 B2 O2 B9"), before)
    action = decide(state, "easy")
    assert isinstance(action, Play)
    assert action.table_after[: len(before)] == before
    assert laid(state, action) == Counter(tiles("R2 B2 O2"))


def test_easy_draws_when_only_table_additions_are_possible(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(TWO, tiles("K7 K3 B9 O1"), tuple(table("K4 K5 K6")))
    assert decide(state, "easy") == Draw()
    assert isinstance(decide(state, "normal"), Play)


def test_every_level_makes_an_initial_meld_of_at_least_30(tiles: TilesFromText) -> None:
    rack = tiles("R10 R11 R12 K2 B2 O2 B7")
    state = make_state(TWO, rack, meld_done=False)
    for level in LEVELS:
        action = decide(state, level)
        assert isinstance(action, Play)
        assert sum(tile.number for tile in laid(state, action).elements()) >= 30


def test_no_level_melds_below_the_minimum(tiles: TilesFromText) -> None:
    state = make_state(TWO, tiles("R1 R2 R3 K5 B5 O5 B13"), meld_done=False)
    for level in LEVELS:
        assert decide(state, level) == Draw()


# --- normal -----------------------------------------------------------------------------


def test_normal_lays_as_many_tiles_as_the_solver_finds(
    tiles: TilesFromText, table: TableFromText
) -> None:
    before = tuple(table("K4 K5 K6 | R10 B10 O10 | B1 B2 B3"))
    rack = tiles("K3 K7 K10 B4 J O4 R9 R13")
    state = make_state(TWO, rack, before)
    action = decide(state, "normal")
    assert isinstance(action, Play)
    assert laid(state, action).total() == solve(before, rack, True, TWO).n


# --- strong -----------------------------------------------------------------------------


def test_strong_goes_out_when_it_can(tiles: TilesFromText, table: TableFromText) -> None:
    state = make_state(TWO, tiles("R1 R2 R3 K9 B9 O9 B13"), tuple(table("B10 B11 B12")))
    action = decide(state, "strong")
    assert isinstance(action, Play)
    assert laid(state, action).total() == 7


# From a game between two normal bots: the mover's best play lets the opponent's last
# tile, B3, go out.
LATE_TABLE = (
    "B4 K4 O4 | B10 K10 O10 | R1 B1 O1 | R1 K1 O1 | R11 O11 J | R12 B12 K12 O12 | "
    "B13 K13 O13 | R9 B9 K9 | R10 R11 R12 | R3 B3 O3 | B5 B6 B7 | R2 R3 R4 | R5 B5 O5 | "
    "R6 R7 R8 | O10 O11 O12 | O5 O6 O7 O8 | B6 B7 B8 B9 B10 | K3 K4 K5 K6 | R8 B8 O8 | "
    "K6 K7 K8 K9 K10 K11 K12 K13"
)


def test_strong_will_not_let_a_player_on_one_tile_go_out(
    tiles: TilesFromText, table: TableFromText
) -> None:
    opponent = tiles("B3")
    state = make_state(
        TWO, tiles("R6 B2 K3"), tuple(table(LATE_TABLE)), opponent=opponent, pool_size=32
    )
    normal = decide(state, "normal")
    assert isinstance(normal, Play)
    assert solve(normal.table_after, opponent, True, TWO).n == 1
    assert decide(state, "strong") == Draw()


def test_strong_plays_like_normal_while_nobody_is_close_to_going_out(
    tiles: TilesFromText, table: TableFromText
) -> None:
    opponent = tiles("B3 R13 K2 O9 O13 B11 O2")
    state = make_state(
        TWO, tiles("R6 B2 K3"), tuple(table(LATE_TABLE)), opponent=opponent, pool_size=32
    )
    assert decide(state, "strong") == decide(state, "normal")


def test_strong_dumps_value_rather_than_tiles_at_the_end(tiles: TilesFromText) -> None:
    # One joker: the run R1-R5 (5 tiles, 12 points) or the 13s (3 tiles, 26 points).
    rack = tiles("R1 R2 R4 R5 J K13 B13 B6")
    state = make_state(TWO, rack, opponent=tiles("K1 K2 K4 K6 K8 K10 K12"), pool_size=3)
    action = decide(state, "strong")
    assert isinstance(action, Play)
    assert laid(state, action) == Counter(tiles("K13 B13 J"))
    normal = decide(state, "normal")
    assert isinstance(normal, Play)
    assert laid(state, normal) == Counter(tiles("R1 R2 R4 R5 J"))


# --- drawing, passing, the River --------------------------------------------------------


def test_a_bot_passes_when_the_pool_is_empty_and_nothing_fits(tiles: TilesFromText) -> None:
    state = make_state(TWO, tiles("R1 B5 K9"), pool_size=0)
    for level in LEVELS:
        assert decide(state, level) == Pass()


def test_after_drawing_two_a_bot_discards_the_less_useful_tile(tiles: TilesFromText) -> None:
    state = make_state(RIVER, tiles("R5 R6 K9 B2"), pool_size=20)
    state = apply(state, Draw(), 0)
    assert len(state.pending_draw) == 2
    for level in LEVELS:
        action = decide(state, level)
        assert isinstance(action, Discard)
        assert action.tile in state.pending_draw


def test_a_bot_keeps_the_drawn_tile_that_fits_its_rack(tiles: TilesFromText) -> None:
    state = make_state(RIVER, tiles("R5 R6 K9 B2"), pending=tiles("B12 R7"), pool_size=20)
    for level in LEVELS:
        assert decide(state, level) == Discard(tiles("B12")[0])


def test_a_bot_takes_the_key_tile_that_completes_a_set(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(
        RIVER, tiles("R5 R6 K9 B2 O11"), tuple(table("K1 K2 K3")), river=tiles("B7 R7 O1")
    )
    for level in LEVELS:
        action = decide(state, level)
        assert isinstance(action, TakeFromRiver)
        assert action.index == 1
        assert laid(state, action) == Counter(tiles("R5 R6 R7"))


def test_a_bot_can_make_its_initial_meld_with_a_key_tile(tiles: TilesFromText) -> None:
    state = make_state(RIVER, tiles("R10 R11 K9 B2 O4"), meld_done=False, river=tiles("R12 B5"))
    for level in LEVELS:
        action = decide(state, level)
        assert isinstance(action, TakeFromRiver)
        assert action.index == 0


def test_a_bot_leaves_a_key_tile_that_would_bring_more_than_it_lays(
    tiles: TilesFromText,
) -> None:
    plunder = tiles("B1 B3 K6 O8 O12")
    state = make_state(RIVER, tiles("R5 R6 K9 B2 O11"), river=(*tiles("R7"), *plunder))
    for level in LEVELS:
        assert decide(state, level) == Draw()


# --- what a bot may know ----------------------------------------------------------------


def test_a_bot_sees_only_its_own_rack_and_public_counts() -> None:
    state = new_game(TWO, seed=21, starting_player=0)
    opponent = list(state.racks[1])
    pool = list(state.pool)
    # Swap the opponent's rack with the first tiles of the pool: seat 0 cannot tell.
    hidden = replace(
        state,
        racks=(state.racks[0], tuple(sorted(pool[:14]))),
        pool=tuple(opponent + pool[14:][::-1]),
    )
    assert view_for(hidden, 0) == view_for(state, 0)
    for level in LEVELS:
        assert choose_for(hidden, 0, level, random.Random(3)) == choose_for(
            state, 0, level, random.Random(3)
        )


def test_a_bot_refuses_to_act_out_of_turn_or_for_a_spectator() -> None:
    state = new_game(TWO, seed=2, starting_player=0)
    with pytest.raises(ValueError, match="not player 1's turn"):
        choose_action(view_for(state, 1), "normal", random.Random(0))
    with pytest.raises(ValueError, match="spectator"):
        choose_action(spectator_view(state), "normal", random.Random(0))
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(view_for(state, 0), "expert", random.Random(0))  # type: ignore[arg-type]


# --- every action is legal, over random games and rulesets ------------------------------


def rulesets(allow_wrap: bool) -> st.SearchStrategy[Ruleset]:
    """Rulesets with any mix of the options that change what a bot may do."""
    return st.builds(
        Ruleset,
        players=st.integers(2, 4),
        rack_size=st.sampled_from([14, 16]),
        initial_meld_min=st.sampled_from([0, 20, 30, 50]),
        initial_meld_single_set=st.booleans(),
        initial_meld_same_turn_manipulation=st.booleans(),
        meld_values=st.sampled_from(["face", "house"]),
        allow_wrap=st.just(allow_wrap),
        joker_set_rule=st.sampled_from(["free", "locked"]),
        joker_replacement_source=st.sampled_from(["rack_or_table", "rack_only"]),
        joker_group_retrieval=st.sampled_from(["either_missing", "both_missing"]),
        pool_empty_end=st.sampled_from(["play_until_blocked", "one_more_round", "immediate"]),
        draw_mode=st.sampled_from(["single", "river"]),
        direction=st.sampled_from(["clockwise", "counter_clockwise"]),
    )


def thin_the_pool(state: GameState, draws: int) -> GameState:
    """Everyone draws for a while, so the game reaches its empty-pool ending sooner."""
    for _ in range(draws):
        if len(state.pool) < 2:
            break
        seat = state.current_player
        state = apply(state, Draw(), seat)
        if state.pending_draw:
            state = apply(state, Discard(state.pending_draw[0]), seat)
    return state


def play_out(state: GameState, levels: Sequence[Level], seed: int, max_actions: int) -> GameState:
    """Bots play on; every action goes through apply, which raises if it is illegal.

    A play the solver proposed and the verdict refused (the bot then falls back) fails
    the test too, except where the solver has a known fault
    (:func:`test_the_solver_melds_a_single_set_of_two_equal_runs`).

    Each move has its level's steps (``BOT_STEPS``), as on the site: a budget of steps
    makes each game the same work on every run and machine, and bounds the positions
    that take minutes without one (some wrap-around ones); an action must be legal
    whether or not the solver finished.
    """
    rng = random.Random(seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RejectedPlayWarning)
        for _ in range(max_actions):
            if state.is_over:
                break
            seat = state.current_player
            level = levels[seat]
            budget = Budget(steps=BOT_STEPS[level])
            state = apply(state, choose_for(state, seat, level, rng, budget), seat)
    assert state.all_tiles() == Counter(full_set())
    refused = [str(w.message) for w in caught if issubclass(w.category, RejectedPlayWarning)]
    if not state.ruleset.initial_meld_single_set:
        assert refused == []
    return state


LEVEL_LISTS = st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4)

# Derandomized: the same examples on every run, so the suite's time stays predictable.
# Wrap-around runs get fewer, shorter games: the solver is far slower there.


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rules=rulesets(False),
    seed=st.integers(0, 10**6),
    levels=LEVEL_LISTS,
    head_start=st.integers(0, 60),
)
def test_every_action_a_bot_chooses_is_legal(
    rules: Ruleset, seed: int, levels: list[Level], head_start: int
) -> None:
    state = thin_the_pool(new_game(rules, seed, starting_player=0), head_start)
    play_out(state, levels, seed, max_actions=400)


@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rules=rulesets(True), seed=st.integers(0, 10**6), levels=LEVEL_LISTS)
def test_every_action_a_bot_chooses_is_legal_with_wrap_around_runs(
    rules: Ruleset, seed: int, levels: list[Level]
) -> None:
    play_out(new_game(rules, seed, starting_player=0), levels, seed, max_actions=60)


def test_two_copies_of_a_run_are_not_one_single_set(tiles: TilesFromText) -> None:
    rules = Ruleset(initial_meld_min=50, initial_meld_single_set=True)
    rack = tiles("R9 R10 R11 R9 R10 R11 B1 B2 B3")
    solution = solve([], rack, False, rules)
    assert solution.n == 0  # no single set reaches 50


def test_a_bot_falls_back_when_the_solver_proposes_an_illegal_play(
    tiles: TilesFromText,
) -> None:
    rules = Ruleset(players=2, initial_meld_min=50, initial_meld_single_set=True)
    state = make_state(rules, tiles("R9 R10 R11 R9 R10 R11 B1 B2 B3 K7"), meld_done=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RejectedPlayWarning)
        for level in LEVELS:
            assert decide(state, level) == Draw()


def test_the_same_seed_gives_the_same_choices() -> None:
    state = new_game(RIVER, seed=5, starting_player=0)
    state = apply(state, Draw(), 0)
    first = [choose_for(state, 0, level, random.Random(9)) for level in LEVELS]
    again = [choose_for(state, 0, level, random.Random(9)) for level in LEVELS]
    assert first == again
