"""Bots under a budget: on time, never illegal, and a draw when they found nothing.

The tests that time a bot do so because keeping to its budget is the behaviour under
test (issue 8: a slow bot must not hold a worker); the bounds are generous.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from engine.actions import Draw, Pass, Play
from engine.bots import LEVELS, Level, choose_for
from engine.bots._turn import BotTurn
from engine.game import apply
from engine.solver import Budget
from engine.views import view_for
from tests.engine.conftest import TableFromText, TilesFromText
from tests.engine.test_bots import TWO, make_state
from tests.engine.worst_cases import WorstCase, manipulation_case, single_set_case


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", [manipulation_case, single_set_case])
def test_a_bot_answers_a_worst_case_within_its_budget_with_a_legal_action(
    level: Level, case: Callable[[], WorstCase]
) -> None:
    worst = case()
    state = make_state(replace(worst.rules, players=2), worst.rack, worst.table, meld_done=False)
    start = time.monotonic()
    action = choose_for(state, 0, level, random.Random(0), Budget(seconds=1))
    assert time.monotonic() - start < 2.5
    apply(state, action, 0)  # raises if the action is illegal


def test_a_bot_that_found_nothing_in_its_budget_draws(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"), table("R5 R6 R7"))
    assert isinstance(choose_for(state, 0, "normal", random.Random(0)), Play)
    for level in LEVELS:
        action = choose_for(state, 0, level, random.Random(0), Budget(states=1))
        assert action == Draw()


def test_with_an_empty_pool_a_bot_that_found_nothing_passes(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"), table("R5 R6 R7"), pool_size=0)
    assert choose_for(state, 0, "strong", random.Random(0), Budget(states=1)) == Pass()


def test_the_solver_calls_of_a_turn_share_one_deadline(tiles: TilesFromText) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"))
    turn = BotTurn.from_view(view_for(state, 0), Budget(seconds=60, states=5000))
    first = turn.budget()
    assert first is not None and first.seconds is not None and first.seconds <= 60
    assert first.states == 5000
    spent = replace(turn, deadline=time.monotonic() - 1)
    assert spent.budget() == Budget(seconds=0.001, states=5000)
    assert BotTurn.from_view(view_for(state, 0)).budget() is None


def test_a_strong_bot_past_its_deadline_answers_at_once() -> None:
    worst = manipulation_case()
    rules = replace(worst.rules, players=2)
    state = make_state(rules, worst.rack[:20], worst.table, meld_done=True)
    start = time.monotonic()
    action = choose_for(state, 0, "strong", random.Random(0), Budget(seconds=0.05))
    assert time.monotonic() - start < 1
    apply(state, action, 0)
