"""The solver's worst cases (issue 8), rebuilt from seeded deals, and a child process
that solves one under a budget and reports its time and peak memory.

Without a budget these took minutes and gigabytes on the live site: same-turn
manipulation with a table of ~57 tiles and a rack of 35, and a single-set initial
meld with a high minimum and a rack of 80 grown by timed-out turns. The issue's meld
minimum of 100 is now refused by the ruleset (no single set is worth more than 91 at
face value), so the single-set case uses 91, the highest a table can ask for, which
is as hard (the search must find the one set worth it among 80 tiles).

Run ``python -m tests.engine.worst_cases NAME STEPS`` to solve one in this process
and print what :func:`run_in_child` reads.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.ruleset import Ruleset
from engine.solver import Budget, solve
from engine.tiles import Tile, format_tiles, full_set, parse_tiles
from engine.verdict import judge_turn

ROOT = Path(__file__).resolve().parents[2]
TileSet = tuple[Tile, ...]


@dataclass(frozen=True)
class WorstCase:
    """A position for the solver: the table, the rack, the meld state and the rules."""

    table: tuple[TileSet, ...]
    rack: TileSet
    initial_meld_done: bool
    rules: Ruleset


def manipulation_case(seed: int = 10) -> WorstCase:
    """Same-turn manipulation before the initial meld: a table of 57 tiles dealt from
    a shuffled set (each handful of 16 tiles laid as the solver would lay them, the
    rest going back under the pile) and the next 35 tiles as the rack."""
    rng = random.Random(seed)
    pile = list(full_set())
    rng.shuffle(pile)
    table: list[TileSet] = []
    while sum(map(len, table)) < 57:
        handful, pile = pile[:16], pile[16:]
        laid = solve([], handful, True, Ruleset())
        table.extend(laid.table_after)
        pile.extend((Counter(handful) - Counter(laid.played)).elements())
    rules = Ruleset(initial_meld_same_turn_manipulation=True)
    return WorstCase(tuple(table), tuple(pile[:35]), False, rules)


def single_set_case(seed: int = 1) -> WorstCase:
    """A single-set initial meld of minimum 91 with a rack of 80 tiles from a shuffled
    set, before the initial meld."""
    pile = list(full_set())
    random.Random(seed).shuffle(pile)
    rules = Ruleset(initial_meld_single_set=True, initial_meld_min=91)
    return WorstCase((), tuple(pile[:80]), False, rules)


CASES: dict[str, Callable[[], WorstCase]] = {
    "manipulation": manipulation_case,
    "single_set": single_set_case,
}


@dataclass(frozen=True)
class ChildRun:
    """What one child process reported: wall-clock seconds of the solve, its processor
    seconds (what the work costs, whatever else the machine runs), the steps it took,
    its peak resident memory in MB, the answer, and whether the turn verdict accepts it."""

    seconds: float
    cpu_seconds: float
    steps: int
    peak_mb: float
    played: int
    exact: bool
    legal: bool


def run_in_child(name: str, steps: int) -> ChildRun:
    """Solve case ``name`` with ``Budget(steps=steps)`` in a fresh Python process, so its
    peak memory is the solve's alone (plus the interpreter's)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.engine.worst_cases", name, str(steps)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    report = json.loads(done.stdout.splitlines()[-1])
    case = CASES[name]()
    table_after = [parse_tiles(tile_set) for tile_set in report["table_after"]]
    legal = not report["played"] or (
        judge_turn(case.table, case.rack, table_after, case.initial_meld_done, case.rules).valid
    )
    return ChildRun(
        report["seconds"],
        report["cpu_seconds"],
        report["steps"],
        report["peak_mb"],
        len(report["played"]),
        report["exact"],
        legal,
    )


def _solve_here(name: str, steps: int) -> dict[str, object]:
    case = CASES[name]()
    start, cpu = time.perf_counter(), time.process_time()
    budget = Budget(steps=steps)
    solution = solve(case.table, case.rack, case.initial_meld_done, case.rules, budget=budget)
    elapsed, cpu_elapsed = time.perf_counter() - start, time.process_time() - cpu
    # ru_maxrss is in kilobytes on Linux.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "seconds": elapsed,
        "cpu_seconds": cpu_elapsed,
        "steps": solution.steps,
        "peak_mb": peak_mb,
        "exact": solution.exact,
        "played": format_tiles(solution.played),
        "table_after": [format_tiles(tile_set) for tile_set in solution.table_after],
    }


if __name__ == "__main__":
    print(json.dumps(_solve_here(sys.argv[1], int(sys.argv[2]))))
