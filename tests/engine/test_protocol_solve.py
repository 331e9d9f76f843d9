"""``python -m engine solve``: the solver over the JSON line protocol, as a separate process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.ruleset import Ruleset
from engine.tiles import format_tiles, parse_tiles
from engine.verdict import judge_turn
from tests.engine.worst_cases import single_set_case

ROOT = Path(__file__).resolve().parents[2]
POSITIONS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "sample-positions.json").read_text(encoding="utf-8")
)["positions"]


def run_solve(lines: list[str], env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The answers of ``python -m engine solve`` to ``lines`` (``env``: its environment)."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", "solve"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
        env=env,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def _request(position: dict[str, Any], objective: str) -> str:
    return json.dumps(
        {
            "id": f"{position['id']}:{objective}",
            "table": position["table"],
            "rack": position["rack"],
            "initial_meld_done": position["mode"] == "free",
            "objective": objective,
            "ruleset": {},
        }
    )


def test_every_sample_position_is_answered_with_its_exact_optimum_in_order() -> None:
    requests = [_request(p, "tiles") for p in POSITIONS]
    requests += [_request(p, "value") for p in POSITIONS if p["mode"] == "free"]
    answers = run_solve(requests)

    assert [a["id"] for a in answers] == [json.loads(r)["id"] for r in requests]
    by_id = {a["id"]: a for a in answers}
    for position in POSITIONS:
        ref = position["reference"]
        best = by_id[f"{position['id']}:tiles"]
        assert best["exact"] is True, position["id"]
        if position["mode"] == "initial":
            assert best["n"] == ref["max_tiles_initial"], position["id"]
            continue
        assert (best["n"], best["value"]) == (
            ref["max_tiles"],
            ref["max_value_among_max_tiles"],
        ), position["id"]
        assert by_id[f"{position['id']}:value"]["value"] == ref["max_value"], position["id"]


def test_every_answer_is_a_legal_turn_by_the_engines_own_verdict() -> None:
    answers = run_solve([_request(p, "tiles") for p in POSITIONS])
    for position, answer in zip(POSITIONS, answers, strict=True):
        if not answer["played"]:
            assert answer["table_after"] == position["table"]
            continue
        verdict = judge_turn(
            [parse_tiles(s) for s in position["table"]],
            parse_tiles(position["rack"]),
            [parse_tiles(s) for s in answer["table_after"]],
            position["mode"] == "free",
            Ruleset(),
        )
        assert verdict.valid, (position["id"], verdict.detail)
        assert sorted(map(str, verdict.played)) == sorted(answer["played"])


def test_bad_lines_get_an_error_and_the_process_carries_on() -> None:
    answers = run_solve(
        [
            "not json",
            json.dumps({"id": "a", "table": [["R5", "R6"]], "rack": ["R7"]}),
            json.dumps({"id": "b", "table": [], "rack": ["R7", "R7", "R7"]}),
            json.dumps({"id": "c", "table": [], "rack": ["X7"]}),
            json.dumps({"id": "d", "table": [], "rack": ["R1"], "objective": "fun"}),
            json.dumps({"id": "e", "table": [], "rack": ["R1"], "ruleset": {"wrap": True}}),
            json.dumps({"id": "f", "rack": ["R1"]}),
            json.dumps({"id": "g", "table": [], "rack": ["R11", "R12", "R13"]}),
            json.dumps({"id": "h", "table": [], "rack": ["R1"], "budget_ms": "fast"}),
            json.dumps({"id": "i", "table": [], "rack": ["R1"], "budget_ms": 600_001}),
            json.dumps({"id": "j", "table": [], "rack": ["R1"], "budget_steps": 0}),
        ]
    )

    ids = [None, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
    assert [a["id"] for a in answers] == ids
    assert all("error" in a for a in answers[:7] + answers[8:])
    assert "not a valid set" in answers[1]["error"]
    assert "3 copies of R7" in answers[2]["error"]
    assert "X7" in answers[3]["error"]
    assert "objective" in answers[4]["error"]
    assert "unknown option 'wrap'" in answers[5]["error"]
    assert "table" in answers[6]["error"]
    assert answers[7] == {
        "id": "g",
        "played": ["R11", "R12", "R13"],
        "table_after": [["R11", "R12", "R13"]],
        "n": 3,
        "value": 36,
        "exact": True,
        "steps": answers[7]["steps"],
        "cut_short": False,
    }
    assert answers[7]["steps"] > 0
    assert "budget_ms must be a whole number from 1 to 600000" in answers[8]["error"]
    assert "got 600001" in answers[9]["error"]
    assert "budget_steps must be a whole number from 1 to 100000000; got 0" in answers[10]["error"]


def test_before_the_initial_meld_a_play_below_the_minimum_is_no_play() -> None:
    line = {"id": "m", "table": [["K1", "K2", "K3"]], "rack": ["R2", "R3", "R4", "K4"]}
    (answer,) = run_solve([json.dumps({**line, "initial_meld_done": False})])
    assert answer["played"] == [] and answer["n"] == 0
    assert answer["table_after"] == [["K1", "K2", "K3"]]
    (after_meld,) = run_solve([json.dumps({**line, "initial_meld_done": True})])
    assert after_meld["n"] == 4


def test_a_line_past_its_steps_answers_a_legal_play_not_proven_best_after_those_steps() -> None:
    case = single_set_case()
    line = _single_set_line("w", budget_steps=30_000)
    first, again = run_solve([json.dumps(line), json.dumps({**line, "id": "w2"})])
    assert first["exact"] is False and first["cut_short"] is False
    assert first["steps"] == 30_000
    after = [parse_tiles(s) for s in first["table_after"]]
    verdict = judge_turn([], case.rack, after, False, case.rules)
    assert verdict.valid and first["n"] == len(first["played"]) > 0
    assert {**again, "id": "w"} == first


def test_a_line_its_wall_time_stops_says_it_was_cut_short() -> None:
    line = _single_set_line("c", budget_steps=100_000_000, budget_ms=1)
    (answer,) = run_solve([json.dumps(line)])
    assert answer["cut_short"] is True and answer["exact"] is False
    assert answer["steps"] < 100_000_000


def _single_set_line(line_id: str, **budget: int) -> dict[str, Any]:
    """A ``solve`` line of the single-set worst case, with the ``budget`` fields given."""
    case = single_set_case()
    return {
        "id": line_id,
        "table": [],
        "rack": format_tiles(case.rack),
        "initial_meld_done": False,
        "ruleset": case.rules.differences(),
        **budget,
    }
