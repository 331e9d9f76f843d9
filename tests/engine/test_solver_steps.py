"""The solver's budget is counted in steps: the same position gets the same answer after
the same steps on any machine and under any load; wall time is only a last stop, and an
answer it stops says it was cut short.

A loaded machine is played by a clock that runs fast: every reading of it says more
time has passed than did, as it would on a machine doing other work beside the solver.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import protocol
from engine.bots import choose_for
from engine.solver import Budget, solve
from tests.engine.test_bots import make_state
from tests.engine.test_protocol_solve import run_solve
from tests.engine.worst_cases import manipulation_case, single_set_case

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = {
    p["id"]: p
    for p in json.loads((Path(__file__).parent / "data" / "sample-positions.json").read_text())[
        "positions"
    ]
}
# The sample positions that take the most steps to prove (tiles, value).
HARDEST = ["free_t15_r30_5", "free_t30_r20_5"]


def _line(position: dict[str, Any], objective: str) -> dict[str, Any]:
    return {
        "id": position["id"],
        "table": position["table"],
        "rack": position["rack"],
        "initial_meld_done": position["mode"] == "free",
        "objective": objective,
    }


def make_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every reading of the clock is 50 ms after the one before, whatever
    the work done in between: a search reading it every chunk of work looks twenty or
    more times slower than it is."""
    now = [time.monotonic()]

    def ticking() -> float:
        now[0] += 0.05
        return now[0]

    monkeypatch.setattr(time, "monotonic", ticking)


@pytest.mark.parametrize("objective", ["tiles", "value"])
@pytest.mark.parametrize("position", HARDEST)
def test_the_web_budget_answers_the_same_on_a_busy_machine(
    position: str, objective: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = _line(POSITIONS[position], objective)
    quiet = protocol.solve(line)
    make_busy(monkeypatch)
    busy = protocol.solve(line)
    assert busy == quiet
    assert busy["exact"] is True and busy["cut_short"] is False


def test_the_same_position_takes_the_same_steps_in_every_process() -> None:
    # Other hash seeds change the order of every set of strings: nothing the search
    # counts may depend on it.
    lines = [json.dumps(_line(POSITIONS[p], "tiles")) for p in HARDEST]
    answers = [run_solve(lines, env={"PYTHONHASHSEED": seed}) for seed in ("1", "2")]
    assert answers[0] == answers[1]
    assert all(answer["steps"] > 0 for answer in answers[0])


def test_a_budget_of_steps_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_clock() -> float:
        raise AssertionError("the clock was read")

    case = single_set_case()
    monkeypatch.setattr(time, "monotonic", no_clock)
    first = solve(case.table, case.rack, False, case.rules, budget=Budget(steps=20_000))
    again = solve(case.table, case.rack, False, case.rules, budget=Budget(steps=20_000))
    assert first == again


@pytest.mark.parametrize("steps", [1, 777, 2048, 2049, 30_000])
def test_a_budget_of_n_steps_stops_after_exactly_n_steps(steps: int) -> None:
    case = single_set_case()
    solution = solve(case.table, case.rack, False, case.rules, budget=Budget(steps=steps))
    assert solution.steps == steps
    assert not solution.exact and not solution.cut_short


def test_a_search_the_ceiling_stops_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    case = single_set_case()
    budget = Budget(steps=10_000_000, seconds=1)
    make_busy(monkeypatch)
    solution = solve(case.table, case.rack, False, case.rules, budget=budget)
    assert solution.cut_short and not solution.exact
    # Under 4096 steps between two readings of the clock, 21 readings past a second.
    assert solution.steps < 21 * 4096


def test_a_bot_moves_the_same_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    worst = manipulation_case()
    rules = replace(worst.rules, players=2)
    state = make_state(rules, worst.rack[:20], worst.table, meld_done=True)
    budget = Budget(steps=300_000, seconds=50)
    quiet = choose_for(state, 0, "strong", random.Random(0), budget)
    make_busy(monkeypatch)
    assert choose_for(state, 0, "strong", random.Random(0), budget) == quiet
