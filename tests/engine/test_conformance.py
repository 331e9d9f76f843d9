"""Every worked case of the conformance corpus, through the protocol's own code path.

``sample-cases.json`` is the copy of the spec's worked cases; ``extra-cases.json`` holds
more cases derived by hand from RULES.md for this engine (ids prefixed ``x-``);
``crosscheck-cases.json`` holds cases written from RULES.md alone, without reading the
engine, by an independent cross-check (ids prefixed ``rt-``; those tagged ``ambiguous``
follow the letter of the §11 procedure where the rules' prose could be read otherwise).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.protocol import answer_line, judge
from engine.verdict import Reason

DATA = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    corpus: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return corpus


SAMPLE = _load("sample-cases.json")
EXTRA = _load("extra-cases.json")
CROSSCHECK = _load("crosscheck-cases.json")
CASES: list[dict[str, Any]] = SAMPLE["cases"] + EXTRA["cases"] + CROSSCHECK["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_the_engine_answers_the_case_as_expected(case: dict[str, Any]) -> None:
    line = {key: value for key, value in case.items() if key != "expect"}
    answer = answer_line(judge, json.dumps(line))
    assert answer is not None
    assert "error" not in answer, answer["error"]
    assert answer["id"] == case["id"]
    for field, expected in case["expect"].items():
        assert answer[field] == expected, f"{field}: {case['why']}"
    extra_fields = set(answer) - set(case["expect"]) - {"id"}
    if case["kind"] == "turn":
        assert extra_fields == {"detail"}
        assert answer["detail"]
    else:
        assert extra_fields == set()


def test_case_ids_are_unique() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))


def test_the_extra_cases_use_their_own_prefix_and_cover_every_category() -> None:
    ids = [case["id"] for case in EXTRA["cases"]]
    assert len(ids) >= 60
    assert all(case_id.startswith("x-") for case_id in ids)
    for prefix in ("x-set-", "x-turn-im-", "x-turn-pm-", "x-score-"):
        assert sum(case_id.startswith(prefix) for case_id in ids) >= 10, prefix
    assert EXTRA["counts"] == {
        kind: sum(case["kind"] == kind for case in EXTRA["cases"])
        for kind in ("set", "turn", "score")
    }


def test_the_cases_reach_every_reason_code() -> None:
    reasons = {case["expect"].get("reason") for case in CASES if case["kind"] == "turn"}
    assert {reason.value for reason in Reason} <= reasons


def test_the_reason_precedence_of_the_corpus_is_the_order_of_the_reasons() -> None:
    assert SAMPLE["reason_precedence"] == [reason.value for reason in Reason]
    assert set(SAMPLE["reason_codes"]) == {reason.value for reason in Reason}
