"""Bots under a budget of steps: the same move whatever the load, never illegal, and a
draw when they found nothing.

The worst cases are bounded in steps; the test that times a bot measures its processor
time, which other work on the machine does not change (issue 8: a slow bot must not
hold a worker).
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
    start = time.process_time()
    action = choose_for(state, 0, level, random.Random(0), Budget(steps=200_000))
    assert time.process_time() - start < 2.5
    apply(state, action, 0)  # raises if the action is illegal


def test_a_bot_that_found_nothing_in_its_budget_draws(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"), table("R5 R6 R7"))
    assert isinstance(choose_for(state, 0, "normal", random.Random(0)), Play)
    for level in LEVELS:
        action = choose_for(state, 0, level, random.Random(0), Budget(steps=1))
        assert action == Draw()


def test_with_an_empty_pool_a_bot_that_found_nothing_passes(
    tiles: TilesFromText, table: TableFromText
) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"), table("R5 R6 R7"), pool_size=0)
    assert choose_for(state, 0, "strong", random.Random(0), Budget(steps=1)) == Pass()


def test_the_solver_calls_of_a_turn_share_its_steps(tiles: TilesFromText) -> None:
    state = make_state(TWO, tiles("R8 R9 B9 O9 K1"))
    turn = BotTurn.from_view(view_for(state, 0), Budget(steps=5000, seconds=60))
    first = turn.solve()
    second = turn.solve()
    assert first.steps > 0 and second.steps == first.steps
    meter = turn.budget()
    assert meter is not None and meter.steps_remaining() == 5000 - 2 * first.steps
    assert BotTurn.from_view(view_for(state, 0)).budget() is None


def test_a_strong_bot_past_its_steps_answers_at_once_with_a_legal_action() -> None:
    worst = manipulation_case()
    rules = replace(worst.rules, players=2)
    state = make_state(rules, worst.rack[:20], worst.table, meld_done=True)
    start = time.process_time()
    action = choose_for(state, 0, "strong", random.Random(0), Budget(steps=2000))
    assert time.process_time() - start < 1
    apply(state, action, 0)
