"""Benchmark a moderator's ruling on a game of a 200-player league, on PostgreSQL.

:func:`measure_rulings` is the ruling half of ``make bench-moderation``
(``benchmarks/bench_moderation.py`` imports it, in its own benchmark database). Run on
its own (``scripts/test-env.sh .venv/bin/python benchmarks/moderation_ruling_bench.py``)
it makes a database of its own, ``<database>_bench_rulings``, dropped at the end, and
uses Redis database 13.

The league is :mod:`benchmarks.bench_leagues`'s (200 members in 4 divisions, 4 seats
per fixture; ``games`` finished games, random zero-sum scores). Each of ``n`` rulings:
a case is opened on another finished fixture game and claimed by the club's moderator,
who sets its result (the winner's and the last seat's scores swapped, the win moved):
the time is that of :func:`moderation.services.rulings.rule`, its whole transaction
(the case locked, the checks, the results service superseding the rows, the log, the
commit and what follows it: the season's standings cache dropped and its pages told).
The preview of such a ruling (the ruling made in a savepoint and rolled back, with the
division's standings computed before and after) is timed apart.

Last line: ``ruling p50 X ms p95 Y ms``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_deadlines import percentile  # noqa: E402
from benchmarks.stack import create_database, drop_database, with_path  # noqa: E402

BENCH_SUFFIX = "_bench_rulings"
REDIS_DB = 13
PLAYERS = 200
GAMES = 400


def _league(players: int, games: int) -> Any:
    """The bench league's season, built in the current database."""
    from benchmarks.bench_leagues import build, parse_args

    _, season, _ = build(parse_args(["--players", str(players), "--games", str(games)]))
    return season


def _cases(season: Any, n: int) -> tuple[Any, list[tuple[Any, dict[str, Any]]]]:
    """The club's moderator, and ``n`` claimed cases on finished games of ``season``
    with the details of a ruling that sets each game's result."""
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Result
    from leagues.models import Fixture, Membership, Role
    from moderation.models import Case, Category, Report

    moderator = User.objects.create(username="bench-moderator", display_name="Bench Moderator")
    club = season.league.club
    Membership.objects.create(club=club, user=moderator, role=Role.MODERATOR)
    fixtures = {
        f.table_id: f for f in Fixture.objects.filter(matchday__season=season, table__isnull=False)
    }
    games = list(
        Game.objects.filter(status=Game.Status.FINISHED, table_id__in=list(fixtures)).order_by(
            "pk"
        )[:n]
    )
    if len(games) < n:
        raise SystemExit(f"the league has {len(games)} finished games; {n} rulings asked for")
    now = timezone.now()
    made = []
    for game in games:
        rows = {row.seat: row for row in Result.objects.current().of_game(game)}
        order = sorted(rows, key=lambda seat: rows[seat].place)
        first, last = order[0], order[-1]
        scores = {str(seat): row.score for seat, row in rows.items()}
        scores[str(first)], scores[str(last)] = rows[last].score, rows[first].score
        fixture = fixtures[game.table_id]
        case = Case.objects.create(
            game=game,
            category=Category.BUG,
            club=club,
            fixture=fixture,
            opened_at=now,
            claimed_by=moderator,
            claimed_at=now,
        )
        filer = rows[last].member
        assert filer is not None  # the bench league's seats are all members
        Report.objects.create(case=case, filer=filer, text="Scored wrongly.", created_at=now)
        made.append((case, {"scores": scores, "winner": last}))
    return moderator, made


def _timed(action: Any) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def measure_rulings(
    n: int, *, players: int = PLAYERS, games: int = GAMES, previews: list[float] | None = None
) -> list[float]:
    """Build the league, then apply ``n`` set-result rulings, one per game; returns each
    ruling's time in ms. ``previews``, if given, gets the time of each one's preview
    (made first, as the moderator would). Needs Django set up on a migrated database
    of its own: the league is written into it."""
    from django.db import connection

    from moderation.services.previews import preview
    from moderation.services.rulings import rule

    season = _league(players, games)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    moderator, cases = _cases(season, n)
    note = "The winner's score was recorded against the wrong seat."
    times = []
    for case, details in cases:

        def shown(case: Any = case, details: Any = details) -> None:
            preview(case, moderator, "set_result", note, details=details)

        def ruled(case: Any = case, details: Any = details) -> None:
            rule(case.pk, moderator, "set_result", note, details=details)

        if previews is not None:
            previews.append(_timed(shown))
        times.append(_timed(ruled))
    return times


def summary(times: list[float]) -> str:
    return f"ruling p50 {percentile(times, 0.5):.0f} ms p95 {percentile(times, 0.95):.0f} ms"


def main() -> None:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        raise SystemExit("the ruling benchmark needs DATABASE_URL to point to PostgreSQL")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulings", type=int, default=30)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB)
    args = parser.parse_args()
    bench_db = create_database(database, BENCH_SUFFIX)
    os.environ.update(
        DATABASE_URL=bench_db,
        REDIS_URL=with_path(
            os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), f"/{args.redis_db}"
        ),
        DJANGO_SETTINGS_MODULE="config.settings",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    cache.clear()
    try:
        previews: list[float] = []
        times = measure_rulings(args.rulings, games=args.games, previews=previews)
        print(
            f"preview (standings before and after) p50 {percentile(previews, 0.5):.0f} ms "
            f"p95 {percentile(previews, 0.95):.0f} ms",
            flush=True,
        )
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(bench_db)
    print(summary(times))


if __name__ == "__main__":
    main()
