"""Time the season scheduler: a league of 200 players in 4 divisions of 50.

Run ``python benchmarks/bench_schedule.py`` from the repository root. For 3 and 4
seats (and 2, for comparison) it schedules each division's default season
(:func:`leagues.scheduling.default_matchdays`) with its own seed, ``--repeat`` times
(default 3), and prints per seat count the matchdays, the median time of the whole
league and of its slowest division, and how evenly pairs meet. The last line sums up:
``schedule N ms`` is the median time of the 4-seat league.

>>> timing = time_league(seats=3, divisions=1, players=9, repeat=1)
>>> timing.matchdays, timing.meeting_spread <= 2
(4, True)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--divisions", type=int, default=4)
    parser.add_argument("--players", type=int, default=50)
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
    print(f"schedule {timings[4].league_ms:.0f} ms")


if __name__ == "__main__":
    main()
