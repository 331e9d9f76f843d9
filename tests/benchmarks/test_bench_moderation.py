"""`make bench-moderation` in a tiny size, so that the benchmark keeps working as the app
changes (its figures at this size mean nothing)."""

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"evidence p50 \d+ ms p95 \d+ ms; ruling p50 (\d+|n/a) ms p95 (\d+|n/a) ms")


def test_the_benchmark_plays_a_game_and_times_its_evidence() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.fail("the benchmark needs PostgreSQL: run it under scripts/test-env.sh")
    tiny = ["--turns", "16", "--opens", "1", "--cached", "2", "--rulings", "1"]
    # The benchmark clears its Redis database: the one the tests were given.
    redis_db = urlparse(os.environ.get("REDIS_URL", "")).path.strip("/") or "0"
    run = subprocess.run(
        [
            sys.executable,
            "benchmarks/bench_moderation.py",
            *tiny,
            *("--database-suffix", "_bench_moderation_smoke", "--redis-db", redis_db),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert SUMMARY.fullmatch(lines[-1]), lines[-1]
    assert "evidence of 16 turns, the page's first answer:" in run.stdout
    assert "evidence, cached:" in run.stdout
