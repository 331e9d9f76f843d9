"""`make bench` with tiny numbers, so that the benchmark keeps working as the app changes.

It runs the whole thing: its own database, daphne, a Celery worker, browsers over HTTP and
websockets. The figures of so short a run mean nothing; that every move commits and
every push arrives does.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"move p50 [\d.]+ ms p95 [\d.]+ ms; push p50 [\d.]+ ms p95 [\d.]+ ms")


def test_the_benchmark_moves_and_pushes_on_the_real_stack() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.fail("the benchmark needs PostgreSQL: run it under scripts/test-env.sh")
    tiny = ["--games", "2", "--moves", "6", "--think", "0.05", "--watchers", "3"]
    # A database and a Redis database of its own: a `make bench` may run meanwhile.
    apart = ["--pushes", "3", "--database-suffix", "_bench_web_smoke", "--redis-db", "13"]
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_web.py", *tiny, *apart],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert SUMMARY.fullmatch(lines[-1]), lines[-1]
    table = "\n".join(lines)
    assert re.search(r"move: request to commit, 2 games\s+6 ", table), table
    assert re.search(r"move: request to answer, 2 games\s+6 ", table), table
    # Three moves to three pages, less the mover's page each time: its answer shows it.
    assert re.search(r"push: commit to 3 pages of one game\s+6 ", table), table
    assert "0 refused, 0 pushes lost" in table
    # The floor: as many posts as moves at part 1's pace, then one at a time.
    assert re.search(r"floor: request to commit, 2 games\s+6 ", table), table
    assert re.search(r"floor: one at a time\s+3 ", table), table
    assert "floor: 6 posts in" in table and "0 refused" in table
    assert re.search(r"move / floor: request to commit\s+[\d.]+\s+[\d.]+", table), table
    # Part 3: old pages (they say nothing when they connect) and today's, side by side.
    moved = re.search(
        r"bytes to the players' pages per move: before answer (\d+) \+ pushes (\d+) = \d+; "
        r"after answer (\d+) \+ pushes (\d+) = \d+",
        table,
    )
    assert moved is not None, table
    assert int(moved[4]) < int(moved[2])  # no push of a move back to the page that made it
    connected = re.search(
        r"bytes to a page when its sockets connect: before (\d+); after (\d+)", table
    )
    assert connected is not None and int(connected[2]) < int(connected[1]), table
