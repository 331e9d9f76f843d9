"""A forced turn is drawn for a player only when the exact solver finds no legal play.

The decision (:func:`engine.bots.check_for_play`, :func:`engine.bots.has_play`) answers
"none" - the only answer on which a standing order draws - only where the solver,
unbounded and under the table's full ruleset (initial meld rules and every option
included), finds nothing to lay; a budget that runs out answers "unknown", never "none".
Over the reference positions, Hypothesis's random racks and tables, and turns of
games played from the deal.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import check_for_play, choose_for, has_play
from engine.game import apply, new_game
from engine.ruleset import Ruleset
from engine.solver import Budget, solve
from engine.tiles import Tile, parse_tiles
from engine.views import view_for
from tests.engine.test_solver import RULE_CHOICES, random_position

POSITIONS = json.loads((Path(__file__).parent / "data" / "sample-positions.json").read_text())[
    "positions"
]
STANDARD = Ruleset()
ROOMY = Budget(steps=2_000_000)


def _position(p: dict[str, Any]) -> tuple[list[tuple[Tile, ...]], tuple[Tile, ...], bool]:
    return [parse_tiles(s) for s in p["table"]], parse_tiles(p["rack"]), p["mode"] == "free"


def _truth(table: Any, rack: tuple[Tile, ...], done: bool, rules: Ruleset) -> bool:
    """Whether any legal play exists: the exact solver without a budget, judging the turn
    exactly as the verdict does (its own initial-meld mode, table included)."""
    return solve(table, rack, done, rules).n > 0


@pytest.mark.parametrize("p", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_the_reference_positions_are_judged_as_their_optimum_says(p: dict[str, Any]) -> None:
    table, rack, done = _position(p)
    reference = p["reference"]["max_tiles"] if done else p["reference"]["max_tiles_initial"]
    check = has_play(table, rack, done, STANDARD, ROOMY)
    assert check.answer == ("play" if reference else "none")


@pytest.mark.parametrize("p", POSITIONS[::5], ids=[p["id"] for p in POSITIONS[::5]])
@pytest.mark.parametrize("rules", RULE_CHOICES, ids=[str(r) for r in RULE_CHOICES])
def test_no_reference_position_with_a_play_is_called_forced(
    p: dict[str, Any], rules: dict[str, Any]
) -> None:
    table, rack, done = _position(p)
    ruleset = Ruleset.from_dict(rules)
    check = has_play(table, rack, done, ruleset, ROOMY)
    assert check.answer in ("play", "none")  # roomy enough to decide
    assert check.forced == (not _truth(table, rack, done, ruleset))


@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 6),
    rack_size=st.integers(1, 14),
    rules=st.sampled_from(RULE_CHOICES),
    done=st.booleans(),
    steps=st.sampled_from([1, 10, 100, 1_000, 20_000, 2_000_000]),
)
def test_a_turn_with_a_legal_play_is_never_called_forced(
    seed: int, sets: int, rack_size: int, rules: dict[str, Any], done: bool, steps: int
) -> None:
    """Whatever the budget: a small one may leave the answer unknown, never "none"
    where there is a play; a roomy one always decides."""
    table, rack = random_position(seed, sets, rack_size)
    ruleset = Ruleset.from_dict(rules)
    check = has_play(table, rack, done, ruleset, Budget(steps=steps))
    exists = _truth(table, rack, done, ruleset)
    if check.forced:
        assert not exists
    if check.answer == "play":
        assert exists
    if steps == 2_000_000:
        assert check.answer == ("play" if exists else "none")


@settings(max_examples=15)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rules=st.sampled_from(RULE_CHOICES),
    turns=st.integers(1, 40),
)
def test_no_turn_of_a_game_with_a_play_is_called_forced(
    seed: int, players: int, rules: dict[str, Any], turns: int
) -> None:
    """Turns of games dealt and played on by bots: each player's turn, as the decision
    sees it from that player's view."""
    ruleset = Ruleset.from_dict({**rules, "players": players})
    state = new_game(ruleset, seed, seed % players)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.is_over:
            break
        seat = state.current_player
        check = check_for_play(view_for(state, seat), ROOMY)
        exists = _truth(state.table, state.racks[seat], state.initial_meld_done[seat], ruleset)
        assert check.answer in ("play", "none")
        assert check.forced == (not exists)
        state = apply(state, choose_for(state, seat, "easy", rng), seat)


def test_the_river_and_an_empty_pool_are_not_judged() -> None:
    river = new_game(Ruleset(players=2, draw_mode="river"), 3, 0)
    assert check_for_play(view_for(river, 0), ROOMY).answer == "not_judged"
    dealt = new_game(Ruleset(players=2), 3, 0)
    assert check_for_play(view_for(dealt, 1), ROOMY).answer == "not_judged"  # not 1's turn
