"""Benchmark deadline enforcement on the real stack: PostgreSQL, Redis, a Celery worker
with beat.

Run ``make bench-deadlines`` (or ``scripts/test-env.sh .venv/bin/python
benchmarks/bench_deadlines.py``): it needs ``DATABASE_URL`` (PostgreSQL) and
``REDIS_URL``. It works in a database of its own, ``<database>_bench_deadlines``, made
afresh and dropped at the end, and in Redis database 15 of that server.

1. *Lateness.* A Celery worker (``--concurrency 2``, with beat, so the sweeps run every
   ``GAMES_SWEEP_SECONDS``) runs on that database. ``--games`` two-player live tables
   with ``--turn-seconds`` turns are started one after another over ``--spread``
   seconds, as players would; nobody moves, so every turn runs out, and after three in
   a row a player forfeits (the table defaults). For the first turn of each game the
   lateness is the time from its deadline to the commit of its timeout move.
2. *Sweep.* ``--sweep-games`` more games in play are added (bulk inserts: correspondence
   turns due within a week, none due yet), and one sweep (``sweep_expired_turns`` as beat
   runs it: the query for due turns and the one for turns coming due) is timed
   ``--sweeps`` times in this process; the median is reported.

The last line sums up: ``late p50 X ms p95 Y ms max Z ms; sweep N ms``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH_SUFFIX = "_bench_deadlines"
REDIS_DB = 15


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--turn-seconds", type=int, default=10)
    parser.add_argument("--spread", type=float, default=20.0)
    parser.add_argument("--sweep-games", type=int, default=10_000)
    parser.add_argument("--sweeps", type=int, default=25)
    parser.add_argument("--concurrency", type=int, default=4, help="worker processes")
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    return parser.parse_args()


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def create_database(url: str) -> str:
    """A fresh database beside the one of ``url``; returns its URL."""
    import psycopg

    name = urlsplit(url).path.lstrip("/") + BENCH_SUFFIX
    admin = with_path(url, "/postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_path(url, f"/{name}")


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin = with_path(url, "/postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def start_worker(log: Path, schedule: Path, concurrency: int) -> subprocess.Popen[bytes]:
    command = [
        *(sys.executable, "-m", "celery", "-A", "config.celery_app", "worker", "--beat"),
        *("--schedule", str(schedule), "--concurrency", str(concurrency), "--loglevel", "INFO"),
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
        *("--hostname", f"bench-{uuid.uuid4().hex[:8]}@%h"),
    ]
    worker = subprocess.Popen(
        command, cwd=ROOT, env=os.environ.copy(), stdout=log.open("w"), stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 90
    while " ready." not in log.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the Celery worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return worker


def stop(worker: subprocess.Popen[bytes]) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def lateness(args: argparse.Namespace, log: Path) -> list[float]:
    from accounts.models import User
    from games import services
    from games.models import Game, Move
    from games.models.table_settings import TableSettings
    from games.services import SeatPlan

    players = [User.objects.create(username=f"bench{n}") for n in range(2 * args.games)]
    deadlines = {}
    started = time.monotonic()
    for index in range(args.games):
        # The tables start one after another, as players would start them.
        pause = started + index * args.spread / args.games - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        one, two = players[2 * index], players[2 * index + 1]
        table = services.create_table(
            one,
            TableSettings(turn_seconds=args.turn_seconds),
            [SeatPlan.taken_by(one), SeatPlan.taken_by(two)],
        )
        game = Game.objects.get(table=table)
        assert game.turn_deadline is not None, "a timed game in play has a turn deadline"
        deadlines[game.pk] = game.turn_deadline
    print(f"games: {args.games} started in {time.monotonic() - started:.1f} s", flush=True)

    first_timeouts = Move.objects.filter(
        game_id__in=list(deadlines), turn_number=1, by=Move.By.TIMEOUT
    ).values_list("game_id", "created_at")
    limit = time.monotonic() + args.turn_seconds + args.spread + 120
    while len(found := dict(first_timeouts.all())) < len(deadlines):
        if time.monotonic() > limit:
            raise SystemExit(
                f"only {len(found)} of {len(deadlines)} first turns timed out:\n"
                f"{log.read_text()[-3000:]}"
            )
        time.sleep(0.5)
    return [(found[pk] - deadline).total_seconds() * 1000 for pk, deadline in deadlines.items()]


def add_games_in_play(count: int) -> None:
    """``count`` more games in play, by bulk inserts: correspondence turns due within a
    week (none due now)."""
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from engine.game import new_game
    from engine.ruleset import Ruleset
    from games.models import Game, Seat, Table

    rng = random.Random(7)
    ruleset = Ruleset(players=2, turn_time_limit_s=86400)
    state = new_game(ruleset, "bench", starting_player=0).to_dict()
    one = User.objects.create(username="sweep-one")
    two = User.objects.create(username="sweep-two")
    now = timezone.now()
    batch = 1000
    for first in range(0, count, batch):
        size = min(batch, count - first)
        tables = Table.objects.bulk_create(
            Table(
                creator=one,
                ruleset=ruleset.to_dict(),
                turn_seconds=86400,
                clock=Table.Clock.CORRESPONDENCE,
                games_in_round=1,
                status=Table.Status.PLAYING,
                started_at=now,
            )
            for _ in range(size)
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=number, kind=Seat.Kind.PLAYER, user=user)
            for table in tables
            for number, user in enumerate((one, two))
        )
        Game.objects.bulk_create(
            Game(
                table=table,
                number=1,
                ruleset=ruleset.to_dict(),
                seed="bench",
                starting_seat=0,
                state=state,
                current_seat=0,
                turn_started_at=now,
                turn_deadline=now + timedelta(seconds=rng.uniform(60, 7 * 86400)),
                turn_reminder_at=now + timedelta(seconds=rng.uniform(60, 5 * 86400)),
            )
            for table in tables
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")


def timezone_now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def time_sweeps(runs: int) -> tuple[list[float], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import tasks

    timings = []
    queries = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            tasks.sweep_expired_turns.apply()
            timings.append((time.perf_counter() - started) * 1000)
        queries = len(captured)
    return timings, queries


def main() -> None:
    args = parse_args()
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench-deadlines needs DATABASE_URL to point to PostgreSQL")
    redis = with_path(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), f"/{REDIS_DB}")
    bench_db = create_database(database)
    os.environ.update(
        DATABASE_URL=bench_db,
        REDIS_URL=redis,
        DJANGO_SETTINGS_MODULE="config.settings",
        EMAIL_URL="dummymail://",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()
    from django.core.management import call_command

    from config.celery_app import app

    call_command("migrate", verbosity=0)
    app.control.purge()
    sweep_every = os.environ.get("GAMES_SWEEP_SECONDS", "5")
    print(
        f"bench-deadlines: PostgreSQL {urlsplit(bench_db).path.lstrip('/')}, Redis db {REDIS_DB},"
        f" a worker of {args.concurrency} processes with beat (sweeps every {sweep_every} s)",
        flush=True,
    )
    work = Path(tempfile.mkdtemp(prefix="bench-deadlines-"))
    worker = start_worker(work / "worker.log", work / "beat-schedule", args.concurrency)
    try:
        late = lateness(args, work / "worker.log")
    finally:
        stop(worker)
        app.control.purge()
    p50, p95, worst = (percentile(late, q) for q in (0.5, 0.95, 1.0))
    print(
        f"late: {len(late)} first turns of {args.turn_seconds} s, timed out after their deadline "
        f"by p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {worst:.0f} ms (min {min(late):.0f} ms)",
        flush=True,
    )

    from games.models import Game

    # What the first part left playing (the worker has stopped) is not part of this one.
    Game.objects.active().update(status=Game.Status.FINISHED, turn_deadline=None)
    add_games_in_play(args.sweep_games)
    in_play = Game.objects.active().count()
    timings, queries = time_sweeps(args.sweeps)
    sweep = statistics.median(timings)
    print(
        f"sweep: {in_play} games in play, none due: median {sweep:.1f} ms, max "
        f"{max(timings):.1f} ms over {len(timings)} sweeps of {queries} queries",
        flush=True,
    )
    due = list(Game.objects.active().values_list("pk", flat=True)[:100])
    Game.objects.filter(pk__in=due).update(turn_deadline=timezone_now() - timedelta(seconds=5))
    busy, _ = time_sweeps(1)
    ended = Game.objects.filter(pk__in=due, turn_number=2).count()
    print(
        f"sweep: with {len(due)} turns due whose tasks were lost: {busy[0]:.0f} ms, "
        f"{ended} turns ended ({busy[0] / max(ended, 1):.1f} ms each)",
        flush=True,
    )
    if not args.keep_db:
        from django.db import connections

        connections.close_all()
        drop_database(bench_db)
    print(f"late p50 {p50:.0f} ms p95 {p95:.0f} ms max {worst:.0f} ms; sweep {sweep:.0f} ms")


if __name__ == "__main__":
    main()
