"""The JSON line protocol: in process, and as ``python -m engine`` in a subprocess."""

from __future__ import annotations

import io
import json
import selectors
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.protocol import COMMANDS, answer_line, judge, register_command, serve

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = json.loads((ROOT / "tests/engine/data/sample-cases.json").read_text())["cases"]

SET_LINE = {"id": "s1", "kind": "set", "ruleset": {}, "input": {"tiles": ["R5", "J", "R7"]}}


def _line(**changes: Any) -> str:
    return json.dumps({**SET_LINE, **changes})


# -- in process ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "line_id", "error"),
    [
        ("not json", None, "the line is not JSON"),
        ("[1, 2]", None, "a line must be a JSON object"),
        ('"R7"', None, "a line must be a JSON object"),
        (_line(kind="sets"), "s1", "unknown kind 'sets'; the kinds are set, turn, score"),
        (_line(kind=None), "s1", "unknown kind None"),
        (json.dumps({"kind": "set", "input": {"tiles": []}}), None, "missing field id"),
        (json.dumps({"id": 3, "input": {"tiles": []}}), 3, "missing field kind"),
        (json.dumps({"id": "x", "kind": "set"}), "x", "missing field input"),
        (_line(input=[]), "s1", "input must be an object"),
        (_line(input={}), "s1", "missing field input.tiles"),
        (_line(input={"tiles": "R5 R6 R7"}), "s1", "input.tiles must be a list of tiles"),
        (_line(input={"tiles": ["R5", "R14"]}), "s1", "input.tiles[1]: 'R14' is not a tile"),
        (_line(input={"tiles": ["R5", 6]}), "s1", "input.tiles[1]: a tile must be written as text"),
        (_line(ruleset={"wrap": True}), "s1", "unknown option 'wrap'"),
        (
            _line(ruleset={"allow_wrap": "yes"}),
            "s1",
            'allow_wrap must be one of false, true; got "yes"',
        ),
        (_line(ruleset=[]), "s1", "a ruleset must be an object of options"),
    ],
)
def test_a_bad_line_gets_an_error_answer(line: str, line_id: Any, error: str) -> None:
    answer = answer_line(judge, line)
    assert answer is not None
    assert set(answer) == {"id", "error"}
    assert answer["id"] == line_id
    assert error in answer["error"]


TURN = {"table_before": [], "rack_before": ["R9"], "table_after": [], "initial_meld_done": True}


@pytest.mark.parametrize(
    ("case_input", "error"),
    [
        ({**TURN, "initial_meld_done": "yes"}, "input.initial_meld_done must be true or false"),
        ({k: v for k, v in TURN.items() if k != "rack_before"}, "missing field input.rack_before"),
        ({**TURN, "table_after": ["R9"]}, "input.table_after must be a list of sets"),
        ({**TURN, "table_after": [["R9", "X1"]]}, "input.table_after[0][1]: 'X1' is not a tile"),
    ],
)
def test_a_bad_turn_input_gets_an_error_answer(case_input: dict[str, Any], error: str) -> None:
    answer = answer_line(judge, json.dumps({"id": "t", "kind": "turn", "input": case_input}))
    assert answer is not None and set(answer) == {"id", "error"}
    assert error in answer["error"]


@pytest.mark.parametrize(
    ("case_input", "error"),
    [
        ({"ending": "draw", "racks": {"A": []}}, "input.ending must be"),
        ({"ending": "out", "racks": {"A": [], "B": ["R1"]}}, "missing field input.winner"),
        ({"ending": "out", "racks": {"A": [], "B": ["R1"]}, "winner": "C"}, "has no rack"),
        ({"ending": "out", "racks": {"A": ["R2"], "B": ["R1"]}, "winner": "A"}, "must be empty"),
        ({"ending": "out", "racks": {"A": [], "B": ["R1"]}, "winner": ["A"]}, "input.winner"),
        ({"ending": "pool_empty", "racks": {}}, "input.racks must be an object"),
        ({"ending": "pool_empty", "racks": {"A": ["J", "Q"]}}, "input.racks.A[1]"),
    ],
)
def test_a_bad_score_input_gets_an_error_answer(case_input: dict[str, Any], error: str) -> None:
    answer = answer_line(judge, json.dumps({"id": "c", "kind": "score", "input": case_input}))
    assert answer is not None and answer["id"] == "c"
    assert error in answer["error"]


def test_a_missing_ruleset_means_the_standard_rules() -> None:
    line = json.dumps({"id": 7, "kind": "set", "input": {"tiles": ["R13", "R1", "R2"]}})
    assert answer_line(judge, line) == {"id": 7, "verdict": "invalid"}


def test_an_ambiguous_set_lists_its_possible_values() -> None:
    line = _line(input={"tiles": ["K3", "J", "J"]})
    assert answer_line(judge, line) == {
        "id": "s1",
        "verdict": "valid",
        "value": None,
        "set_types": ["group", "run"],
        "possible_values": [6, 9, 12],
    }


def test_a_turn_answer_has_a_reason_only_when_invalid() -> None:
    line = {"id": "t", "kind": "turn", "ruleset": {}}
    ok = {**TURN, "table_before": [["R6", "R7", "R8"]], "table_after": [["R6", "R7", "R8", "R9"]]}
    assert answer_line(judge, json.dumps({**line, "input": ok})) == {
        "id": "t",
        "verdict": "valid",
        "detail": "Plays 1 tile and goes out",
    }
    bad = {**ok, "table_after": [["R6", "R7", "R8"], ["R9"]]}
    answer = answer_line(judge, json.dumps({**line, "input": bad}))
    assert answer is not None
    assert (answer["verdict"], answer["reason"]) == ("invalid", "invalid_set")


def test_an_unexpected_failure_is_reported_and_the_stream_carries_on() -> None:
    def broken(line: Any) -> dict[str, Any]:
        raise KeyError("boom")

    out = io.StringIO()
    serve(broken, ['{"id": 1}\n', "\n", '{"id": 2}\n'], out)
    answers = [json.loads(text) for text in out.getvalue().splitlines()]
    assert answers == [
        {"id": 1, "error": "internal error: KeyError: 'boom'"},
        {"id": 2, "error": "internal error: KeyError: 'boom'"},
    ]


def test_commands_can_be_registered() -> None:
    @register_command("test-echo", "echo for a test")
    def echo(line: Any) -> dict[str, Any]:
        return {"echo": line["id"]}

    try:
        assert answer_line(COMMANDS["test-echo"].handle, '{"id": "e"}') == {"id": "e", "echo": "e"}
    finally:
        del COMMANDS["test-echo"]


# -- python -m engine ------------------------------------------------------------------


class Engine:
    """``python -m engine judge`` in a subprocess, spoken to one line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine", "judge"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.selector = selectors.DefaultSelector()
        assert self.process.stdout is not None
        self.selector.register(self.process.stdout, selectors.EVENT_READ)

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def receive(self, timeout: float = 20) -> dict[str, Any]:
        # Waiting with a timeout proves the answer was flushed before more input came.
        assert self.selector.select(timeout), "no answer: the engine did not flush its line"
        assert self.process.stdout is not None
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def ask(self, line: str) -> dict[str, Any]:
        self.send(line + "\n")
        return self.receive()

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=20)


@pytest.fixture
def engine() -> Iterator[Engine]:
    process = Engine()
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def test_it_answers_each_line_before_the_next_is_sent(engine: Engine) -> None:
    for case in SAMPLE[:12]:
        line = {key: value for key, value in case.items() if key != "expect"}
        answer = engine.ask(json.dumps(line))
        assert answer["id"] == case["id"]
        assert {field: answer.get(field) for field in case["expect"]} == case["expect"]
    assert engine.close() == 0


def test_it_reports_bad_lines_and_carries_on(engine: Engine) -> None:
    answer = engine.ask("{oops")
    assert answer["id"] is None and answer["error"].startswith("the line is not JSON")
    engine.send("\n   \n")
    answer = engine.ask(json.dumps({"id": "k", "kind": "dance", "input": {}}))
    assert answer == {"id": "k", "error": "unknown kind 'dance'; the kinds are set, turn, score"}
    answer = engine.ask(_line(input={"tiles": ["R5", "R07"]}))
    assert answer["id"] == "s1" and "'R07' is not a tile" in answer["error"]
    assert engine.ask(_line())["verdict"] == "valid"
    assert engine.close() == 0


def test_it_answers_a_whole_file_in_order() -> None:
    lines = [
        json.dumps({key: value for key, value in case.items() if key != "expect"})
        for case in SAMPLE
    ]
    text = "\n".join([lines[0], "", "garbage", *lines[1:]]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "engine", "judge"],
        cwd=ROOT,
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [SAMPLE[0]["id"], None] + [
        case["id"] for case in SAMPLE[1:]
    ]
    for case, answer in zip(SAMPLE, [answers[0], *answers[2:]], strict=True):
        assert {field: answer.get(field) for field in case["expect"]} == case["expect"]


def test_help_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "judge" in done.stdout
    assert COMMANDS["judge"].summary.split()[0] in done.stdout


@pytest.mark.parametrize("argv", [[], ["juggle"]])
def test_a_missing_or_unknown_command_is_a_usage_error(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "usage: python -m engine" in done.stderr
