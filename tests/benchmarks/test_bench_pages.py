"""`make bench-pages` in a tiny size, so that the benchmark keeps working as the app
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
SUMMARY = re.compile(r"pages 12; worst p95 \d+ ms at 600; growth 500->600 \d+\.\d x")


def test_the_benchmark_reads_every_main_page_at_two_sizes_of_the_site() -> None:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.fail("the benchmark needs PostgreSQL: run it under scripts/test-env.sh")
    tiny = ["--players", "12", "--divisions", "2", "--seats", "3", "--league-games", "20"]
    tiny += ["--mine", "6", "--cases", "3", "--requests", "2", "--sizes", "500", "600"]
    # The benchmark clears its Redis database: the one the tests were given.
    redis_db = urlparse(os.environ.get("REDIS_URL", "")).path.strip("/") or "0"
    apart = ["--database-suffix", "_bench_pages_smoke", "--redis-db", redis_db]
    run = subprocess.run(
        [sys.executable, "benchmarks/bench_pages.py", *tiny, *apart],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert SUMMARY.fullmatch(lines[-1]), lines[-1]
    assert "500 games on the site" in run.stdout and "600 games on the site" in run.stdout
    for page in ("lobby", "your move", "season", "results.csv", "moderation queue"):
        assert re.search(rf"^{page} +500: p50 .* queries; 600: p50 .* growth", run.stdout, re.M)
