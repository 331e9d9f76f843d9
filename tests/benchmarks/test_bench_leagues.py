"""`make bench-leagues` in a tiny size, so that the benchmark keeps working as the app
changes (its figures at this size mean nothing)."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

from benchmarks.bench_schedule import SCHEDULE_SIZES

pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(
    r"standings p50 \d+ ms p95 \d+ ms; recompute p50 \d+ ms p95 \d+ ms; schedule \d+ ms"
)


def test_the_benchmark_builds_a_season_and_times_its_standings() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.fail("the benchmark needs PostgreSQL: run it under scripts/test-env.sh")
    tiny = ["--players", "12", "--divisions", "2", "--seats", "3", "--games", "20"]
    apart = ["--requests", "3", "--rulings", "2", "--database-suffix", "_bench_leagues_smoke"]
    apart += ["--golfer-seeds", "1"]
    # The benchmark clears its Redis database: the one the tests were given.
    redis_db = urlparse(os.environ.get("REDIS_URL", "")).path.strip("/") or "0"
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_leagues.py", *tiny, *apart, "--redis-db", redis_db],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert SUMMARY.fullmatch(lines[-1]), lines[-1]
    assert "12 players in 2 divisions, 3 seats, 20 finished games" in run.stdout
    assert "recompute: 2 rulings" in run.stdout
    assert "crosstable of division 1: first" in run.stdout
    assert re.search(r"32 players at 4 over 10: before 2 in \d+ ms, now 1 in ", run.stdout)
    sizes = len(SCHEDULE_SIZES)
    assert f"schedule quality: no pair twice on {sizes}/{sizes} (before 3/{sizes})" in run.stdout
    assert re.search(
        r"39 players at 3 over 19: before 2 in \d+ ms, now 1 in \d+ ms, design built", run.stdout
    )
