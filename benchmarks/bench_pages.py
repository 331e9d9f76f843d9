"""Benchmark the main pages with 1,000 and with 100,000 games on the site: a page should
cost the same whatever the number of other games, members, notifications and cases.

Run ``make bench-pages`` (or ``scripts/test-env.sh .venv/bin/python
benchmarks/bench_pages.py``): it needs ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``.
It works in a database of its own, ``<database>_bench_pages``, made afresh and dropped
at the end, and in Redis database 12 of that server (``--redis-db``).

1. *Build.* A club's league (``--players`` members in ``--divisions`` divisions, its
   season under way with ``--league-games`` finished games: :func:`benchmarks.bench_leagues.build`);
   one of its players, the member whose pages are read, also has ``--mine`` games in
   play (half awaiting their move), as many finished tables and notices; others have
   50 tables waiting for a player; the club's owner moderates ``--cases`` open cases.
2. *1k.* Other members' games are added until the site holds 1,000 games; each
   page is read ``--requests`` times after a first read (Django's test client, as the
   member or the moderator): p50 and p95, and the queries of one read.
3. *100k.* The same after the site grows to 100,000 games (half in play, half
   finished: copied in SQL, ten thousand a statement, each table with its seats and its
   game with its record of who sits where), then ``ANALYZE``.

A line per page gives both sizes and the growth (p50 at 100k over p50 at 1k); the
last line sums up: ``pages N; worst p95 X ms at 100k; growth 1k->100k Y x`` (the
largest growth of any page).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_deadlines import percentile  # noqa: E402
from benchmarks.stack import in_django_of_its_own  # noqa: E402

BENCH_SUFFIX = "_bench_pages"
REDIS_DB = 12
SIZES = (1_000, 100_000)
COPIES_A_STATEMENT = 10_000
OTHER_MEMBERS = 2_000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--divisions", type=int, default=2)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--league-games", type=int, default=200)
    parser.add_argument("--mine", type=int, default=100)
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=list(SIZES), help="games on the site"
    )
    parser.add_argument("--database-suffix", default=BENCH_SUFFIX)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB)
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    return parser.parse_args(argv)


@dataclass(frozen=True)
class Page:
    name: str
    url: str
    viewer: Any


@dataclass(frozen=True)
class Reading:
    p50: float
    p95: float
    queries: int


def build(args: argparse.Namespace) -> tuple[list[Page], Callable[[int], None]]:
    """The site's fixed part, the pages to read, and what grows the site to N games."""
    from django.urls import reverse

    from accounts.models import User
    from benchmarks import site_rows
    from benchmarks.bench_leagues import build as build_league
    from games.models import Game, Table
    from leagues.models import Fixture

    league_args = argparse.Namespace(
        players=args.players, divisions=args.divisions, seats=args.seats, games=args.league_games
    )
    league, season, _ = build_league(league_args)
    owner = User.objects.get(username="player0")
    member = User.objects.get(username="player1")
    rival = User.objects.get(username="player2")
    others = site_rows.members(OTHER_MEMBERS, prefix="other")
    half = args.mine // 2
    mine = site_rows.games_in_play(half, [member, rival], clock=Table.Clock.CORRESPONDENCE)
    site_rows.games_in_play(args.mine - half, [rival, member], clock=Table.Clock.CORRESPONDENCE)
    finished = site_rows.finished_tables(args.mine, [member, rival])
    site_rows.notifications(args.mine, member)
    site_rows.open_tables(50, others[0])
    fixture = Fixture.objects.filter(matchday__season=season, table__isnull=False).first()
    watched = site_rows.games_in_play(args.cases, others[1:3])
    site_rows.cases(args.cases, watched, others[3], club=league.club, fixture=fixture)
    playing = site_rows.games_in_play(1, others[4:6])[0]
    [table] = site_rows.finished_tables(1, others[6:8])
    finished_game = Game.objects.get(table_id=table).pk

    def grow(size: int) -> None:
        """Half the games added are in play, half finished (copies of the two)."""
        missing = size - Game.objects.count()
        first = others[0].pk
        while missing > 0:
            count = min(missing, COPIES_A_STATEMENT)
            copy_games(playing, count // 2, first, len(others))
            copy_games(finished_game, count - count // 2, first, len(others))
            missing -= count
        analyze()

    season_args = [league.club.slug, league.slug, season.number]
    pages = [
        Page("home", reverse("home"), member),
        Page("lobby", reverse("games:lobby"), member),
        Page("your move", reverse("games:your_move"), member),
        Page("notifications", reverse("notifications:list"), member),
        Page("game", reverse("games:game", args=[mine[0]]), member),
        Page("finished table", reverse("games:table", args=[finished[0]]), member),
        Page("clubs", reverse("leagues:clubs"), member),
        Page("my leagues", reverse("leagues:player"), member),
        Page("season", reverse("leagues:season", args=season_args), member),
        Page("standings", reverse("leagues:standings", args=season_args), member),
        Page("results.csv", reverse("leagues:results_csv", args=season_args), member),
        Page("moderation queue", reverse("moderation:queue"), owner),
    ]
    return pages, grow


def copy_games(template: int, count: int, first_member: int, members: int) -> None:
    """``count`` copies of game ``template``'s table (its seats given to other members in
    turn), its game (each turn started a second before the last) and its record of who
    sits where, in one statement."""
    from django.db import connection

    from games.models import Game, Seat, SeatOccupancy, Table

    def columns(model: Any) -> list[str]:
        return [f.column for f in model._meta.concrete_fields if not f.primary_key]

    def select(model: Any, alias: str, overrides: dict[str, str]) -> tuple[str, str]:
        names = columns(model)
        values = [overrides.get(name, f"{alias}.{name}") for name in names]
        return ", ".join(names), ", ".join(values)

    member = f"%(first)s + ((numbered.n * 2 + {{seat}}) %% {members})"
    table_cols, table_values = select(Table, "t", {})
    seat_cols, seat_values = select(
        Seat, "s", {"table_id": "numbered.id", "user_id": member.format(seat="s.number")}
    )
    game_cols, game_values = select(
        Game,
        "g",
        {
            "table_id": "numbered.id",
            "turn_started_at": "g.turn_started_at - numbered.n * interval '1 second'",
            "turn_deadline": "g.turn_deadline + numbered.n * interval '1 second'",
        },
    )
    occupancy_cols, occupancy_values = select(
        SeatOccupancy, "o", {"game_id": "games.id", "member_id": member.format(seat="o.seat")}
    )
    sql = f"""
        WITH tables AS (
            INSERT INTO {Table._meta.db_table} ({table_cols})
            SELECT {table_values} FROM {Table._meta.db_table} t
            CROSS JOIN generate_series(1, %(count)s)
            WHERE t.id = (SELECT table_id FROM {Game._meta.db_table} WHERE id = %(game)s)
            RETURNING id
        ), numbered AS (
            SELECT id, row_number() OVER (ORDER BY id) + %(offset)s AS n FROM tables
        ), seats AS (
            INSERT INTO {Seat._meta.db_table} ({seat_cols})
            SELECT {seat_values} FROM numbered CROSS JOIN {Seat._meta.db_table} s
            WHERE s.table_id = (SELECT table_id FROM {Game._meta.db_table} WHERE id = %(game)s)
        ), games AS (
            INSERT INTO {Game._meta.db_table} ({game_cols})
            SELECT {game_values} FROM numbered CROSS JOIN {Game._meta.db_table} g
            WHERE g.id = %(game)s
            RETURNING id, table_id
        )
        INSERT INTO {SeatOccupancy._meta.db_table} ({occupancy_cols})
        SELECT {occupancy_values}
        FROM games JOIN numbered ON numbered.id = games.table_id
        CROSS JOIN {SeatOccupancy._meta.db_table} o WHERE o.game_id = %(game)s
    """
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {Game._meta.db_table}")
        (offset,) = cursor.fetchone()
        cursor.execute(
            sql, {"count": count, "game": template, "first": first_member, "offset": offset}
        )


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def read(page: Page, requests: int) -> Reading:
    from django.db import connection
    from django.test import Client

    client = Client()
    client.force_login(page.viewer)

    def get() -> None:
        response = client.get(page.url)
        if response.status_code != 200:
            raise SystemExit(f"{page.name} ({page.url}) answered {response.status_code}")
        response.getvalue()  # a streamed file is read to its end

    get()
    # Counted around each execution: CaptureQueriesContext slices the connection's log,
    # which every request empties when it starts.
    executed: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        get()
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        get()
        times.append((time.perf_counter() - started) * 1000)
    return Reading(percentile(times, 0.5), percentile(times, 0.95), len(executed))


def measure(args: argparse.Namespace) -> str:
    from django.core.cache import cache

    from games.models import Game

    started = time.perf_counter()
    pages, grow = build(args)
    print(f"built the league and the member's pages in {time.perf_counter() - started:.1f} s")
    readings: dict[int, dict[str, Reading]] = {}
    for size in args.sizes:
        started = time.perf_counter()
        grow(size)
        cache.clear()
        games = Game.objects.count()
        print(f"{games} games on the site (grown in {time.perf_counter() - started:.1f} s)")
        readings[size] = {page.name: read(page, args.requests) for page in pages}
    small, large = args.sizes[0], args.sizes[-1]
    growths = []
    for page in pages:
        before, after = readings[small][page.name], readings[large][page.name]
        growth = after.p50 / before.p50 if before.p50 else 1.0
        growths.append(growth)
        print(
            f"{page.name:<17} {_label(small)}: p50 {before.p50:6.1f} p95 {before.p95:6.1f} ms, "
            f"{before.queries:3} queries; {_label(large)}: p50 {after.p50:6.1f} "
            f"p95 {after.p95:6.1f} ms, {after.queries:3} queries; growth {growth:.2f} x",
            flush=True,
        )
    worst = max(readings[large].values(), key=lambda reading: reading.p95)
    return (
        f"pages {len(pages)}; worst p95 {worst.p95:.0f} ms at {_label(large)}; "
        f"growth {_label(small)}->{_label(large)} {max(growths):.1f} x"
    )


def _label(size: int) -> str:
    return f"{size // 1000}k" if size >= 1000 and size % 1000 == 0 else str(size)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    summary = in_django_of_its_own(
        "bench-pages", args.database_suffix, args.redis_db, args.keep_db, lambda: measure(args)
    )
    print(summary)


if __name__ == "__main__":
    main()
