"""Time the season scheduler: a league of 200 players in 4 divisions of 50.

Run ``python benchmarks/bench_schedule.py`` from the repository root. For 3 and 4
seats (and 2, for comparison) it schedules each division's default season
(:func:`leagues.scheduling.default_matchdays`) with its own seed, ``--repeat`` times
(default 3), and prints per seat count the matchdays, the median time of the whole
league and of its slowest division, and how evenly pairs meet. Then the classic
"social golfer" instances (:data:`leagues.designs.SOCIAL_GOLFER_INSTANCES`) and the
families' sizes beyond them (:data:`SCHEDULE_SIZES`), where a schedule with no pair
meeting twice exists: for each, the most any pair meets over ``--golfer-seeds`` seeds
(default 3) and the median time of one season, before (the scheduler as it was at
:data:`BEFORE`, read from git) and now, and the time to build its design the first
time (later seasons of the size reuse it). The last line sums up:
``schedule N ms`` is the median time of the 4-seat league.

>>> timing = time_league(seats=3, divisions=1, players=9, repeat=1)
>>> timing.matchdays, timing.meeting_spread <= 2
(4, True)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leagues.designs import SOCIAL_GOLFER_INSTANCES, design_for  # noqa: E402
from leagues.scheduling import Schedule, default_matchdays, schedule_season  # noqa: E402


@dataclass(frozen=True, slots=True)
class Timing:
    """One league's schedules at one seat count: median times in milliseconds."""

    seats: int
    matchdays: int
    league_ms: float
    slowest_division_ms: float
    meeting_spread: int


def meeting_spread(schedule: Schedule[str]) -> int:
    """The most and the fewest meetings of two players, apart."""
    counts = schedule.meeting_counts()
    players = schedule.players
    values = [counts[a][b] for i, a in enumerate(players) for b in players[i + 1 :]]
    return max(values) - min(values)


def time_league(seats: int, divisions: int = 4, players: int = 50, repeat: int = 3) -> Timing:
    """Schedule every division of the league ``repeat`` times."""
    rosters = [[f"d{d}p{i}" for i in range(players)] for d in range(divisions)]
    league_times = []
    division_times = []
    spread = 0
    for run in range(repeat):
        started = time.perf_counter()
        for d, roster in enumerate(rosters):
            division_started = time.perf_counter()
            schedule = schedule_season(roster, seats, seed=f"{run}:{d}")
            division_times.append(time.perf_counter() - division_started)
            spread = max(spread, meeting_spread(schedule))
        league_times.append(time.perf_counter() - started)
    return Timing(
        seats=seats,
        matchdays=default_matchdays(players, seats),
        league_ms=statistics.median(league_times) * 1000,
        slowest_division_ms=max(division_times) * 1000,
        meeting_spread=spread,
    )


SCHEDULE_SIZES = (
    *SOCIAL_GOLFER_INSTANCES,
    (12, 3, 4),
    (18, 3, 8),
    (24, 3, 11),
    (30, 3, 14),
    (33, 3, 16),
    (36, 3, 17),
    (39, 3, 19),
    (42, 3, 20),
    (45, 3, 22),
    (48, 3, 23),
    (57, 3, 28),
    (63, 3, 31),
    (66, 3, 32),
    (69, 3, 34),
    (99, 3, 49),
    (28, 4, 9),
    (40, 4, 13),
    (52, 4, 17),
    (64, 4, 21),
    (112, 4, 37),
)
"""Players, seats and matchdays of the schedule-quality lines: the classic instances,
then nearly Kirkman (18, 24, 30, 36, 42, 48, 66), Kirkman (33, 39, 45, 57, 63, 69,
99) and 4-seat (28, 40, 52, 64, 112) sizes, and 12 players at 3 seats over the 4
matchdays that can fit. 42 and 52 come from the search with a multiplier, 66 from its
one long start, 45, 99 and 112 are products, 69 is the development with the fixed
players' table (:mod:`leagues.designs`)."""

BEFORE = "15fc85a57d5dc282f5723570c54c5fbf4831b02d"
"""The commit whose scheduler the golfer lines compare with: annealing alone."""


@dataclass(frozen=True, slots=True)
class GolferTiming:
    """One instance by one scheduler: the most any pair meets, median ms a season."""

    most_meetings: int
    season_ms: float


def scheduler_before() -> Callable[..., Any] | None:
    """``schedule_season`` as it was at :data:`BEFORE`, or None without git."""
    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE}:leagues/scheduling.py"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("scheduling_before")
    # Its dataclasses look their module up by name.
    sys.modules[module.__name__] = module
    exec(compile(source, "scheduling_before.py", "exec"), module.__dict__)
    schedule: Callable[..., Any] = module.schedule_season
    return schedule


def time_golfer(
    scheduler: Callable[..., Any], n: int, seats: int, days: int, seeds: int
) -> GolferTiming:
    most = 0
    times = []
    for seed in range(seeds):
        started = time.perf_counter()
        schedule = scheduler(range(n), seats, matchdays=days, seed=seed)
        times.append(time.perf_counter() - started)
        counts = schedule.meeting_counts()
        most = max(most, max(max(row.values()) for row in counts.values()))
    return GolferTiming(most, statistics.median(times) * 1000)


def golfer_lines(seeds: int = 3) -> list[str]:
    """The schedule-quality lines: per instance, before and now."""
    before = scheduler_before()
    lines = [
        f"schedule sizes, {seeds} seeds: most meetings of a pair, median ms a season, "
        "ms to build the design"
    ]
    optimal = {"before": 0, "now": 0}
    slowest = 0.0
    for n, seats, days in SCHEDULE_SIZES:
        design_for.cache_clear()
        started = time.perf_counter()
        built = design_for(n, seats, days)
        build_ms = (time.perf_counter() - started) * 1000
        now = time_golfer(schedule_season, n, seats, days, seeds)
        optimal["now"] += now.most_meetings == 1
        slowest = max(slowest, now.season_ms)
        was = "not in git" if before is None else ""
        if before is not None:
            old = time_golfer(before, n, seats, days, seeds)
            optimal["before"] += old.most_meetings == 1
            was = f"{old.most_meetings} in {old.season_ms:.0f} ms"
        design = f"design built in {build_ms:.0f} ms" if built else f"no design ({build_ms:.0f} ms)"
        lines.append(
            f"  {n} players at {seats} over {days}: before {was}, "
            f"now {now.most_meetings} in {now.season_ms:.0f} ms, {design}"
        )
    sizes = len(SCHEDULE_SIZES)
    lines.append(
        f"schedule quality: no pair twice on {optimal['now']}/{sizes} "
        f"(before {optimal['before']}/{sizes}), slowest {slowest:.0f} ms"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--divisions", type=int, default=4)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--golfer-seeds", type=int, default=3)
    args = parser.parse_args()
    timings = {}
    print("seats  matchdays  league ms  slowest division ms  meeting spread")
    for seats in (2, 3, 4):
        timing = time_league(seats, args.divisions, args.players, args.repeat)
        timings[seats] = timing
        print(
            f"{seats:>5}  {timing.matchdays:>9}  {timing.league_ms:>9.0f}"
            f"  {timing.slowest_division_ms:>19.0f}  {timing.meeting_spread:>14}"
        )
    print("\n".join(golfer_lines(args.golfer_seeds)))
    print(f"schedule {timings[4].league_ms:.0f} ms")


if __name__ == "__main__":
    main()
