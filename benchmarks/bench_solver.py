"""Benchmark the exact solver on the sample positions, under the web's budget.

Run ``python benchmarks/bench_solver.py`` from the repository root. Every position is
solved in one warm process (after one untimed warm-up pass) with the "tiles"
objective (the headline) and the "value" objective, each with the web's budget
(``--budget-steps``, default the protocol's 500000 search steps, with no wall-time
ceiling: the answers are the same on any machine), and each answer is compared with
the position's reference optimum. The table gives, per table-size bucket, the count,
p50/p90/max wall time in milliseconds and the same of the search steps, whether every
answer was optimal and how many were proven best (``exact``: must be all); the summary
line sums up both objectives. Steps are the same on every run and machine; times show
what they cost here.

Then the worst cases of issue 8 (``tests/engine/worst_cases.py``), each solved in a
fresh process under the same budget: wall and processor time, steps, peak memory,
tiles laid and whether the answer was exact.

Options: ``--positions FILE`` (default: tests/engine/data/sample-positions.json),
``--repeat N`` (timed passes, default 3; the median time per position is used),
``--check`` (also judge every answer with engine.verdict.judge_turn),
``--budget-steps N``, ``--no-worst`` (skip the worst cases).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.protocol import SOLVE_BUDGET_STEPS  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.solver import Budget, Solution, solve  # noqa: E402
from engine.tiles import Tile, parse_tiles  # noqa: E402
from tests.engine.worst_cases import CASES, run_in_child  # noqa: E402

DEFAULT = ROOT / "tests" / "engine" / "data" / "sample-positions.json"
BUCKETS = ("t00", "t15", "t30", "t45", "t60", "t75", "t90", "initial", "edge")


def bucket(position_id: str) -> str:
    for name in BUCKETS:
        if f"_{name}_" in f"_{position_id}_" or position_id.startswith(name):
            return name
    return "other"


def expected(position: dict[str, Any], objective: str) -> tuple[int, int]:
    ref = position["reference"]
    if position["mode"] == "initial":
        return ref["max_tiles_initial"], -1
    if objective == "tiles":
        return ref["max_tiles"], ref["max_value_among_max_tiles"]
    return -1, ref["max_value"]


def optimal(position: dict[str, Any], objective: str, solution: Solution) -> bool:
    tiles, value = expected(position, objective)
    return (tiles < 0 or solution.n == tiles) and (value < 0 or solution.value == value)


def run_one(position: dict[str, Any], objective: str, budget: Budget) -> tuple[float, Solution]:
    table = [parse_tiles(tile_set) for tile_set in position["table"]]
    rack = parse_tiles(position["rack"])
    done = position["mode"] != "initial"
    start = time.perf_counter()
    solution = solve(table, rack, done, Ruleset(), objective, budget)  # type: ignore[arg-type]
    return (time.perf_counter() - start) * 1000, solution


def judged(position: dict[str, Any], solution: Solution) -> bool:
    from engine.verdict import judge_turn

    if not solution.played:
        return True
    table: list[tuple[Tile, ...]] = [parse_tiles(s) for s in position["table"]]
    verdict = judge_turn(
        table,
        parse_tiles(position["rack"]),
        solution.table_after,
        position["mode"] != "initial",
        Ruleset(),
    )
    return verdict.valid


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--budget-steps", type=int, default=SOLVE_BUDGET_STEPS)
    parser.add_argument("--no-worst", action="store_true")
    args = parser.parse_args()
    positions = json.loads(args.positions.read_text())["positions"]
    budget = Budget(steps=args.budget_steps)
    all_ok = all_exact = True
    summaries = []
    for objective in ("tiles", "value"):
        for position in positions:  # warm-up: fills the memo tables once
            run_one(position, objective, budget)
        rows: dict[str, list[Row]] = {}
        for position in positions:
            if objective == "value" and position["mode"] == "initial":
                continue
            times = []
            ok = exact = True
            for _ in range(max(1, args.repeat)):
                ms, solution = run_one(position, objective, budget)
                times.append(ms)
                ok = ok and optimal(position, objective, solution)
                exact = exact and solution.exact
            if args.check:
                ok = ok and judged(position, solution)
            ms = statistics.median(times)
            if args.verbose:
                verdict = "ok" if ok else "WRONG"
                print(f"{position['id']:32} {ms:8.1f} ms {solution.steps:8} steps {verdict}")
            row = Row(ms, solution.steps, ok, exact)
            rows.setdefault(bucket(position["id"]), []).append(row)
        ok, exact, summary = report(objective, rows)
        all_ok, all_exact = all_ok and ok, all_exact and exact
        summaries.append(summary)
    print(
        f"\nsummary: {'; '.join(summaries)}; all optimal: {'yes' if all_ok else 'NO'};"
        f" all exact: {'yes' if all_exact else 'NO'}"
    )
    if not args.no_worst:
        worst_cases(args.budget_steps)
    return 0 if all_ok and all_exact else 1


@dataclass(frozen=True)
class Row:
    """One position's median time, its steps, and whether its answers were optimal and
    exact."""

    ms: float
    steps: int
    ok: bool
    exact: bool


def report(objective: str, rows: dict[str, list[Row]]) -> tuple[bool, bool, str]:
    print(f"\nobjective={objective} (budget per answer as given by --budget-steps)")
    print(
        f"{'bucket':8} {'count':>5} {'p50 ms':>8} {'p90 ms':>8} {'max ms':>8}"
        f" {'p50 st':>7} {'p90 st':>7} {'max st':>7}  optimal  exact"
    )
    for name in (*BUCKETS, "other"):
        if name in rows:
            print(f"{name:8} {_line(rows[name])}")
    every = [row for bucket_rows in rows.values() for row in bucket_rows]
    print(f"{'all':8} {_line(every)}")
    times, steps = [row.ms for row in every], [row.steps for row in every]
    exact_count = sum(row.exact for row in every)
    summary = (
        f"{objective} {len(every)} positions p50 {percentile(times, 0.5):.1f} ms"
        f" p90 {percentile(times, 0.9):.1f} ms max {max(times):.1f} ms,"
        f" steps p50 {percentile(steps, 0.5):.0f} p90 {percentile(steps, 0.9):.0f}"
        f" max {max(steps)}, exact {exact_count}/{len(every)}"
    )
    return all(row.ok for row in every), exact_count == len(every), summary


def _line(rows: list[Row]) -> str:
    """A bucket's count, times, steps, and whether its answers were optimal and exact."""
    times = [row.ms for row in rows]
    steps = [row.steps for row in rows]
    ok = all(row.ok for row in rows)
    exact = sum(row.exact for row in rows)
    return (
        f"{len(rows):5} {percentile(times, 0.5):8.1f} {percentile(times, 0.9):8.1f}"
        f" {max(times):8.1f} {percentile(steps, 0.5):7.0f} {percentile(steps, 0.9):7.0f}"
        f" {max(steps):7.0f}  {'yes' if ok else 'NO':7}  {exact}/{len(rows)}"
    )


def worst_cases(steps: int) -> None:
    """The worst cases of issue 8, each in a fresh process so its peak memory is its own."""
    print(f"\nworst cases (budget {steps} steps, each in its own process)")
    print(
        f"{'case':14} {'time s':>7} {'cpu s':>6} {'steps':>7} {'peak MB':>8} {'laid':>5}"
        "  exact  legal"
    )
    for name in CASES:
        run = run_in_child(name, steps)
        print(
            f"{name:14} {run.seconds:7.2f} {run.cpu_seconds:6.2f} {run.steps:7}"
            f" {run.peak_mb:8.0f} {run.played:5}"
            f"  {'yes' if run.exact else 'no':5}  {'yes' if run.legal else 'NO'}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
