"""The solver under a budget of steps: the same answer whatever the load, small, legal,
and exact whenever it can be; wall time only as a last stop that says so."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.protocol import SOLVE_BUDGET_STEPS
from engine.ruleset import Ruleset
from engine.solver import Budget, OutOfBudget, arrange, solve
from engine.tiles import Tile, parse_tiles
from engine.verdict import judge_turn
from tests.engine.test_solver import RULE_CHOICES, _assert_legal, random_position
from tests.engine.worst_cases import manipulation_case, run_in_child, single_set_case

POSITIONS = json.loads((Path(__file__).parent / "data" / "sample-positions.json").read_text())[
    "positions"
]
# The web's budget (the games' GAMES_HELP_STEPS and the protocol's default), without its
# wall-time ceiling: what it answers cannot depend on the machine.
WEB_BUDGET = Budget(steps=SOLVE_BUDGET_STEPS)
TilesFromText = Callable[[str], tuple[Tile, ...]]
TableFromText = Callable[[str], list[tuple[Tile, ...]]]


# -- the worst cases of issue 8 ---------------------------------------------------------
#
# An answer within 3 s and under 500 MB on these positions is the acceptance
# criterion. The web's steps are about 1.5 s of work on a quiet machine; the child's
# processor time is what is measured, so other work on the machine does not count.


@pytest.mark.parametrize("name", ["manipulation", "single_set"])
def test_a_worst_case_answers_a_legal_play_within_3_s_and_500_mb(name: str) -> None:
    run = run_in_child(name, steps=SOLVE_BUDGET_STEPS)
    assert run.cpu_seconds < 3
    assert run.steps <= SOLVE_BUDGET_STEPS
    assert run.peak_mb < 500
    assert run.legal


def test_the_single_set_worst_case_is_beyond_the_budget_and_still_lays_tiles() -> None:
    # Not proved best in the budget, yet the play found is a real one.
    case = single_set_case()
    solution = solve(case.table, case.rack, False, case.rules, budget=Budget(steps=200_000))
    assert not solution.exact
    assert solution.n > 70
    _assert_legal(list(case.table), case.rack, False, case.rules, solution)


def test_the_manipulation_worst_case_lays_the_meld_then_the_rest_and_so_every_tile() -> None:
    # Laying every useful rack tile cannot be beaten: that play is proved best.
    case = manipulation_case()
    solution = solve(case.table, case.rack, False, case.rules, budget=Budget(steps=300_000))
    assert solution.exact
    assert solution.n == len(case.rack)
    _assert_legal(list(case.table), case.rack, False, case.rules, solution)


# -- exact within the budget ------------------------------------------------------------


@pytest.mark.parametrize("p", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_every_sample_position_is_exact_under_the_web_budget(p: dict[str, Any]) -> None:
    table = [parse_tiles(s) for s in p["table"]]
    rack = parse_tiles(p["rack"])
    done = p["mode"] == "free"
    solution = solve(table, rack, done, Ruleset(), budget=WEB_BUDGET)
    assert solution.exact
    ref = p["reference"]
    if done:
        assert (solution.n, solution.value) == (ref["max_tiles"], ref["max_value_among_max_tiles"])
    else:
        assert solution.n == ref["max_tiles_initial"]


def test_a_solve_without_a_budget_is_exact(tiles: TilesFromText) -> None:
    assert solve([], tiles("R1 R2 R3 B9"), True, Ruleset()).exact


# -- never illegal ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    sets=st.integers(0, 8),
    rack_size=st.integers(1, 30),
    rules=st.sampled_from(RULE_CHOICES),
    done=st.booleans(),
    steps=st.integers(1, 3000),
)
# Exact in few steps, with the joker at the other end of a run than the unbounded search.
@example(seed=341, sets=4, rack_size=5, rules={}, done=True, steps=519)
def test_an_answer_out_of_budget_is_still_a_legal_turn(
    seed: int, sets: int, rack_size: int, rules: dict[str, Any], done: bool, steps: int
) -> None:
    table, rack = random_position(seed, sets, rack_size)
    ruleset = Ruleset.from_dict(rules)
    solution = solve(table, rack, done, ruleset, budget=Budget(steps=steps))
    assert solution.steps <= steps and not solution.cut_short
    _assert_legal(table, rack, done, ruleset, solution)
    if solution.exact:
        # Proved best: it scores what the unbounded search scores. The table may be laid
        # out differently (a joker at either end of a run is worth the same).
        best = solve(table, rack, done, ruleset)
        assert (solution.n, solution.value) == (best.n, best.value)


# -- arrange --------------------------------------------------------------------------------


def test_arrange_under_a_budget_lays_out_the_same_table(table: Any, tiles: TilesFromText) -> None:
    before = table("R1 R2 R3 | K7 B7 O7 | B10 B11 B12")
    after = arrange(before, tiles("R4 R7"), True, Ruleset(), budget=WEB_BUDGET)
    assert after == arrange(before, tiles("R4 R7"), True, Ruleset())


def test_arrange_says_when_it_ran_out_before_it_knew() -> None:
    case = manipulation_case()
    with pytest.raises(OutOfBudget, match="ran out of 50 steps") as out:
        arrange(case.table, case.rack, False, case.rules, budget=Budget(steps=50))
    assert out.value.steps == 50 and not out.value.cut_short


def test_arrange_gives_a_legal_table_when_its_budget_suffices() -> None:
    case = manipulation_case()
    played = solve(case.table, case.rack[:20], True, case.rules, budget=WEB_BUDGET).played
    after = arrange(case.table, played, True, case.rules, budget=WEB_BUDGET)
    assert after is not None
    verdict = judge_turn(case.table, case.rack, after, True, case.rules)
    assert verdict.valid, verdict.detail


def test_a_budget_is_positive() -> None:
    with pytest.raises(ValueError, match="steps must be positive"):
        Budget(steps=0)
