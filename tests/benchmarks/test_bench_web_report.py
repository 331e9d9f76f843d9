"""The report of `make bench`, fed fixed figures: the floor's CPU and the queries of a
request are printed beside the moves', with their ratio."""

import argparse
import re
from pathlib import Path

import pytest

from benchmarks.bench_web import Results, read_queries, report
from benchmarks.web_clients import MoveTiming


def timings(game_id: int, count: int, milliseconds: float, start: float) -> list[MoveTiming]:
    """``count`` committed posts of one game, each answered in ``milliseconds``."""
    return [
        MoveTiming(
            game_id=game_id,
            version=n,
            sent=start + n,
            answered=start + n + milliseconds / 1000,
            status=200,
            committed=True,
            sent_at=start + n,
        )
        for n in range(count)
    ]


def commits_of(moves: list[MoveTiming], delay: float) -> dict[tuple[int, int], float]:
    return {(m.game_id, m.version + 1): m.sent_at + delay for m in moves}


def test_the_report_prints_the_floors_cpu_and_the_queries_per_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    moves = timings(1, 10, 30.0, 1000.0)
    # The floor's posts are counted as -row in the probe's log.
    floor = timings(-1, 10, 10.0, 2000.0)
    single = timings(1, 2, 20.0, 3000.0)
    results = Results(
        moves=moves,
        moves_seconds=10.0,
        moves_cpu=0.5,
        pushes=single,
        pushes_cpu=0.1,
        floor=floor,
        floor_seconds=10.0,
        floor_cpu=0.2,
        floor_one_at_a_time=timings(-1, 2, 8.0, 4000.0),
    )
    commits = {**commits_of(moves, 0.02), **commits_of(floor, 0.005), **commits_of(single, 0.01)}
    queries = {"move": [12, 13, 12], "floor": [5, 5]}

    report(results, commits, argparse.Namespace(games=2), queries)

    out = capsys.readouterr().out
    assert "daphne CPU 50.0 ms per move" in out
    assert "daphne CPU 20.0 ms per floor post" in out
    assert re.search(r"move / floor: daphne CPU per post\s+2\.50", out), out
    assert "queries per request: move p50 12 max 13; floor p50 5 max 5" in out


def test_the_query_log_is_read_by_kind_of_request(tmp_path: Path) -> None:
    log = tmp_path / "queries.log"
    log.write_text(
        "POST /games/3/draw/ 14\n"
        "POST /bench/floor/3/ 5\n"
        "GET /games/3/ 20\n"
        "POST /games/3/move/ 9\n"
        "POST /games/4/draw/ 15\n"
    )

    assert read_queries(log) == {"move": [14, 15], "floor": [5]}
    assert read_queries(tmp_path / "none.log") == {"move": [], "floor": []}
