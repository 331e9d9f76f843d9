"""Benchmark a league's standings on PostgreSQL: the page, a recomputation after a
ruling, and the season's schedule.

Run ``make bench-leagues`` (or ``scripts/test-env.sh .venv/bin/python
benchmarks/bench_leagues.py``): it needs ``DATABASE_URL`` (PostgreSQL) and
``REDIS_URL``. It works in a database of its own, ``<database>_bench_leagues``, made
afresh and dropped at the end, and in Redis database 14 of that server.

1. *Build.* A public club with a league of ``--players`` (200) members in
   ``--divisions`` (4) divisions, ``--seats`` (4) per fixture; each division's season is
   scheduled by :func:`leagues.scheduling.schedule_season` (its time is the
   ``schedule`` figure) with enough matchdays for ``--games`` (2,000) games, and the
   fixtures are played in matchday order until that many games are finished; the
   rest stay scheduled, so the season is under way. Rows are written in bulk
   (:mod:`benchmarks.league_rows`), random zero-sum scores.
2. *Standings page.* ``--requests`` GETs of the page through Django's test client, as
   a member: p50 and p95. The computed standings are cached per season until a result
   of the season changes, so the first request computes and the others read the
   cache; the uncached computation is reported on a line of its own, and so is a
   division's crosstable (fetched apart when opened: rendered once, then cached).
3. *Recompute.* ``--rulings`` times: one result is superseded (through
   :func:`games.services.results.supersede`, whose signal drops the cache), then the
   standings are computed again; p50 and p95 of the two together.
4. *Schedule quality.* The classic "social golfer" instances and the families' sizes
   beyond them, where a schedule with no pair meeting twice exists: per size the most
   any pair meets and the time of one season, before and now, and the time to build
   its design (:func:`benchmarks.bench_schedule.golfer_lines`, ``--golfer-seeds``
   seeds), and a line summing them up.

The last line sums up:
``standings p50 X ms p95 Y ms; recompute p50 X ms p95 Y ms; schedule N ms``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_deadlines import percentile  # noqa: E402
from benchmarks.bench_schedule import golfer_lines  # noqa: E402
from benchmarks.stack import in_django_of_its_own  # noqa: E402

BENCH_SUFFIX = "_bench_leagues"
REDIS_DB = 14


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--divisions", type=int, default=4)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--rulings", type=int, default=20)
    parser.add_argument("--golfer-seeds", type=int, default=3)
    parser.add_argument("--database-suffix", default=BENCH_SUFFIX)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB)
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    return parser.parse_args(argv)


def timed(action: Callable[[], Any]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def zero_sum_scores(rng: random.Random, seats: int) -> list[int]:
    """A game's scores as a game out would give: losers lose their racks, the winner
    gains them all."""
    winner = rng.randrange(seats)
    scores = [-rng.randint(0, 60) for _ in range(seats)]
    scores[winner] = 0
    scores[winner] = -sum(scores)
    return scores


def build(args: argparse.Namespace) -> tuple[Any, Any, float]:
    """The league, its running season, and the time to schedule it (ms)."""
    from django.utils import timezone

    from accounts.models import User
    from benchmarks.league_rows import PlayedFixture, write_played
    from games.models.table_settings import TableSettings
    from leagues.models import (
        Club,
        Division,
        Entry,
        Fixture,
        FixtureSeat,
        League,
        Matchday,
        Membership,
        Role,
        Season,
    )
    from leagues.scheduling import schedule_season

    settings = TableSettings(clock="correspondence")
    games_per_fixture = settings.games_for(args.seats)
    users = User.objects.bulk_create(
        User(username=f"player{n}", display_name=f"Player {n}") for n in range(args.players)
    )
    club = Club.objects.create(name="Bench Club", slug="bench")
    Membership.objects.bulk_create(
        Membership(club=club, user=user, role=Role.OWNER if n == 0 else Role.MEMBER)
        for n, user in enumerate(users)
    )
    league = League.objects.create(
        club=club,
        name="Bench League",
        slug="league",
        seats=args.seats,
        table_settings=settings.to_dict(),
        tiebreaks=["fixtures_won", "games_won", "head_to_head", "total_score"],
    )
    season = Season.objects.create(
        league=league, number=1, status=Season.Status.RUNNING, **league.house_rules()
    )
    size = math.ceil(args.players / args.divisions)
    divisions = Division.objects.bulk_create(
        Division(season=season, level=d + 1, name=f"Division {d + 1}")
        for d in range(args.divisions)
    )
    entries = Entry.objects.bulk_create(
        Entry(season=season, user=user, division=divisions[n // size], seed=n % size + 1)
        for n, user in enumerate(users)
    )
    fixtures_a_day = sum(
        len(entries[d * size : (d + 1) * size]) // args.seats for d in range(args.divisions)
    )
    matchdays = math.ceil(args.games / (games_per_fixture * max(fixtures_a_day, 1)))
    started = time.perf_counter()
    schedules = [
        schedule_season(
            [e.pk for e in entries[d * size : (d + 1) * size]],
            args.seats,
            matchdays=matchdays,
            seed=f"bench:{d}",
        )
        for d in range(len(divisions))
    ]
    schedule_ms = (time.perf_counter() - started) * 1000
    now = timezone.now()
    days = Matchday.objects.bulk_create(
        Matchday(
            season=season,
            number=n + 1,
            opens_at=now + timedelta(days=7 * n),
            deadline=now + timedelta(days=7 * (n + 1)),
            status=Matchday.Status.OPEN,
        )
        for n in range(matchdays)
    )
    planned = [
        (Fixture(matchday=days[day.number - 1], division=divisions[d]), fixture.players)
        for day_index in range(matchdays)
        for d, schedule in enumerate(schedules)
        for day in [schedule.matchdays[day_index]]
        for fixture in day.fixtures
    ]
    fixtures = Fixture.objects.bulk_create(fixture for fixture, _ in planned)
    FixtureSeat.objects.bulk_create(
        FixtureSeat(fixture=fixture, number=seat, entry_id=entry)
        for fixture, (_, players) in zip(fixtures, planned, strict=True)
        for seat, entry in enumerate(players)
    )
    user_of = {entry.pk: entry.user for entry in entries}
    rng = random.Random(10)
    played = []
    games = 0
    for fixture, (_, players) in zip(fixtures, planned, strict=True):
        if games >= args.games:
            break
        count = min(games_per_fixture, args.games - games)
        games += count
        played.append(
            PlayedFixture(
                fixture,
                [user_of[entry] for entry in players],
                [zero_sum_scores(rng, len(players)) for _ in range(count)],
                complete=count == games_per_fixture,
            )
        )
    write_played(settings, played)
    return league, season, schedule_ms


def measure(args: argparse.Namespace) -> str:
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from games.models import Game, Result
    from games.services.results import SeatCorrection, supersede
    from leagues.models import Membership
    from leagues.selectors.standings import compute_season

    started = time.perf_counter()
    league, season, schedule_ms = build(args)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    finished = Game.objects.filter(status=Game.Status.FINISHED).count()
    print(
        f"built: {args.players} players in {args.divisions} divisions, {args.seats} seats, "
        f"{finished} finished games, in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    member = Membership.objects.filter(club=league.club).order_by("-pk").first()
    client = Client()
    client.force_login(member.user)  # type: ignore[union-attr]
    url = reverse("leagues:standings", args=[league.club.slug, league.slug, season.number])
    page = []
    for _ in range(args.requests):
        page.append(timed(lambda: _check(client.get(url))))
    uncached = [timed(lambda: compute_season(season)) for _ in range(5)]
    crosstable = reverse(
        "leagues:crosstable", args=[league.club.slug, league.slug, season.number, 1]
    )
    opened = [timed(lambda: _check(client.get(crosstable))) for _ in range(5)]
    print(
        f"crosstable of division 1: first {opened[0]:.0f} ms (rendered), "
        f"then p50 {percentile(opened[1:], 0.5):.0f} ms (cached)",
        flush=True,
    )
    print(
        f"standings page: {args.requests} requests, first {page[0]:.0f} ms (computed), "
        f"p50 {percentile(page, 0.5):.0f} ms p95 {percentile(page, 0.95):.0f} ms; "
        f"uncached computation median {statistics.median(uncached):.0f} ms",
        flush=True,
    )
    games = list(
        Game.objects.filter(status=Game.Status.FINISHED).order_by("?").values_list("pk", flat=True)
    )
    rng = random.Random(3)
    recompute, ruling = [], []
    for n in range(args.rulings):
        game_id = games[n % len(games)]
        # A ruling must change the result (an unchanged one is refused).
        score = Result.objects.current().filter(game_id=game_id, seat=0).get().score
        correction = {0: SeatCorrection(score=score + rng.choice((-1, 1)) * rng.randint(1, 200))}

        def rule(game_id: int = game_id, correction: Any = correction) -> None:
            supersede(game_id, correction, Result.Source.RULING, "Bench recount", None)

        ruling.append(timed(rule))
        recompute.append(ruling[-1] + timed(lambda: compute_season(season)))
    print(
        f"recompute: {args.rulings} rulings, each then the standings computed again: "
        f"p50 {percentile(recompute, 0.5):.0f} ms p95 {percentile(recompute, 0.95):.0f} ms "
        f"(the ruling alone p50 {percentile(ruling, 0.5):.0f} ms)",
        flush=True,
    )
    print("\n".join(golfer_lines(args.golfer_seeds)), flush=True)
    return (
        f"standings p50 {percentile(page, 0.5):.0f} ms p95 {percentile(page, 0.95):.0f} ms; "
        f"recompute p50 {percentile(recompute, 0.5):.0f} ms "
        f"p95 {percentile(recompute, 0.95):.0f} ms; schedule {schedule_ms:.0f} ms"
    )


def _check(response: Any) -> None:
    if response.status_code != 200:
        raise SystemExit(f"the standings page answered {response.status_code}")


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    summary = in_django_of_its_own(
        "bench-leagues", args.database_suffix, args.redis_db, args.keep_db, lambda: measure(args)
    )
    print(summary)


if __name__ == "__main__":
    main()
