"""Benchmark moves and pushes on the real stack: daphne, PostgreSQL, Redis, a Celery worker.

Run ``make bench`` (or ``scripts/test-env.sh .venv/bin/python benchmarks/bench_web.py``):
it needs ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL``. It works in a database of its
own, ``<database>_bench_web``, made afresh, migrated and dropped at the end, and in Redis
database 14 of that server. daphne, as `make run` starts it (``--web-processes``, one per
core, sharing the listening socket; serving :mod:`benchmarks.web_probe`, the app plus a
note of each move's commit time), and a Celery worker with beat run against them, with
DEBUG off and collected static files, as deployed.

Members are signed in with sessions made in the database (as Django's ``force_login``
does: a real login would spend seconds hashing passwords). Each one's :class:`Browser`
loads its game page, opens the page's two sockets and posts moves as htmx does.

1. *Moves.* ``--games`` live two-player tables are in play at once, both players with
   the page open. In each game the player whose turn it is draws a tile after a pause
   of 0 to 2 x ``--think`` seconds, then the other, ``--moves`` moves in all (draws
   only: they need no arrangement, and 78 tiles are left to draw). A move's latency,
   as the issue defines it, is from sending the request to the commit (noted by the
   server, on the same machine's clock); the time to the answer, whose fragments show
   the next version, is reported beside it (the view renders them after the commit and
   the pushes are queued). The default pace, a move every 5 s in each
   game (10 a second offered), is several times what people playing live tables
   make; ``--think 1`` offers 50 a second, to see where the site saturates.
2. *Pushes.* One more game has ``--watchers`` pages open: its two players and members
   watching. ``--pushes`` moves are made one after another; each push's latency is from
   the move's commit (noted by the server) to the arrival of the game's fragments at
   each page. The same is reported for the players' pages during part 1.

3. *Bytes.* Two more games, their players' pages open, ``--pushes`` moves each, one at
   a time: in one the pages are old pages (they say nothing when their socket connects,
   as pages did before issue 26: sent the game and the chat on connect, and each move
   pushed back to the page that made it), in the other they are today's. Printed side by
   side: the bytes the players' pages receive per move (the move's answer, and the
   messages on both their sockets: the game's push and the header's count) and on
   connecting. ``--old-pages`` makes the pages of parts 1 and 2 old ones too (to compare
   the other figures with a run of today's pages).

4. *The floor.* Before part 1, the same pages post to :mod:`benchmarks.floor` at the
   same pace and as many times (a signed-in POST that locks a row of its game, bumps a
   counter and answers a small fragment, through the same daphne, PostgreSQL and pool);
   after part 2, ``--pushes`` such posts one at a time. Each move figure is printed with
   its ratio to the same figure of the floor, daphne's CPU per move with the floor's
   per post, and the SQL statements of each request (:mod:`benchmarks.web_probe` counts
   them in the request's thread: its view and what its commit runs there).

The last line sums up: ``move p50 X ms p95 Y ms; push p50 X ms p95 Y ms``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.stack import (  # noqa: E402
    Child,
    Web,
    clear_redis,
    collect_static,
    create_database,
    drop_database,
    site_env,
    start_daphne,
    start_worker,
    with_path,
)
from benchmarks.web_clients import Browser, MoveTiming  # noqa: E402
from config.runstack import web_processes  # noqa: E402

BENCH_SUFFIX = "_bench_web"
REDIS_DB = 14
TURN_SECONDS = 600
"""Live turns long enough that no turn of an idle game runs out during a run (so no
timeout task is queued: the sweep queues one only as a deadline comes near)."""
DRAWS_PER_GAME = 70
"""A two-player game deals 28 of 106 tiles: 78 are left to draw."""
AIM_MOVE_P95_MS = 50.0
AIM_PUSH_P95_MS = 20.0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in play at once")
    parser.add_argument("--moves", type=int, default=600, help="moves over all those games")
    parser.add_argument(
        "--think", type=float, default=5.0, help="mean pause before a move, in seconds"
    )
    parser.add_argument(
        "--web-processes",
        type=int,
        default=web_processes(),
        help="daphne processes, as `make run` starts them (WEB_PROCESSES, one per core)",
    )
    parser.add_argument("--watchers", type=int, default=20, help="pages open on one game")
    parser.add_argument("--pushes", type=int, default=60, help="moves made in that game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-suffix", default=BENCH_SUFFIX, help="the database is <database><suffix>"
    )
    parser.add_argument("--redis-db", type=int, default=REDIS_DB, help="Redis database number")
    parser.add_argument(
        "--settings",
        default="config.settings",
        help="settings module of daphne and the worker (to try a change of settings)",
    )
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    parser.add_argument(
        "--old-pages",
        action="store_true",
        help="parts 1 and 2 with pages that say nothing when their socket connects",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.moves < args.games or args.watchers < 2 or args.pushes < 1:
        parser.error("at least one game, a move per game, two watchers and one push")
    if -(-args.moves // args.games) > DRAWS_PER_GAME or args.pushes > DRAWS_PER_GAME:
        parser.error(f"a game has {DRAWS_PER_GAME} draws at most: add games")
    return args


@dataclass
class Plan:
    """The tables of a run, as session keys of their members' browsers."""

    games: list[tuple[int, list[str]]]
    """Part 1: each game and its two players."""
    watched: int
    watchers: list[str]
    """Part 2: the game, its two players first, then members watching."""
    bytes_games: list[tuple[int, list[str]]] = field(default_factory=list)
    """Part 3: a game for old pages, then one for today's, each with its two players."""


def prepare(games: int, watchers: int) -> Plan:
    """Members, their sessions and the tables in play (every seat taken: no bots)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from benchmarks import floor
    from games import services
    from games.models import Game
    from games.models.table_settings import TableSettings
    from games.services import SeatPlan

    def member(name: str) -> tuple[User, str]:
        user = User.objects.create(username=name, display_name=name.title())
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        assert session.session_key is not None
        return user, session.session_key

    def start(players: list[tuple[User, str]]) -> int:
        one, two = players[0][0], players[1][0]
        seats = [SeatPlan.taken_by(one), SeatPlan.taken_by(two)]
        table = services.create_table(one, TableSettings(turn_seconds=TURN_SECONDS), seats)
        return Game.objects.get(table=table).pk

    tables = []
    for index in range(games):
        players = [member(f"player{index}a"), member(f"player{index}b")]
        tables.append((start(players), [key for _, key in players]))
    pages = [member("host"), member("guest")]
    pages += [member(f"watcher{n}") for n in range(watchers - 2)]
    plan = Plan(tables, start(pages), [key for _, key in pages])
    for kind in ("old", "new"):
        players = [member(f"{kind}a"), member(f"{kind}b")]
        plan.bytes_games.append((start(players), [key for _, key in players]))
    floor.create([game for game, _ in plan.games] + [plan.watched])
    return plan


@dataclass
class Results:
    moves: list[MoveTiming] = field(default_factory=list)
    moves_seconds: float = 0.0
    move_pages: dict[int, list[Browser]] = field(default_factory=dict)
    pushes: list[MoveTiming] = field(default_factory=list)
    push_pages: list[Browser] = field(default_factory=list)
    missing_pushes: int = 0
    moves_cpu: float = 0.0
    """Seconds of CPU that daphne spent during part 1 (from the first move to the last)."""
    pushes_cpu: float = 0.0
    floor: list[MoveTiming] = field(default_factory=list)
    """The floor's posts at part 1's pace, over the same pages."""
    floor_seconds: float = 0.0
    floor_cpu: float = 0.0
    """Seconds of CPU that daphne spent during the floor's posts at part 1's pace."""
    floor_one_at_a_time: list[MoveTiming] = field(default_factory=list)
    page_bytes: dict[str, PageBytes] = field(default_factory=dict)
    """Part 3: ``old`` and ``new`` pages."""
    bytes_pages: list[Browser] = field(default_factory=list)


@dataclass(frozen=True)
class PageBytes:
    """What a game's two players' pages received (part 3): bytes per page when the socket
    connected; per move, the answers and the sockets' messages, over both pages."""

    connect: float
    answer: float
    pushes: float
    moves: int


def bytes_lines(before: PageBytes, after: PageBytes) -> list[str]:
    r"""The bytes figures, old pages (before) and today's (after) side by side.

    >>> before, after = PageBytes(16000, 9000, 15000, 10), PageBytes(300, 9000, 6000, 10)
    >>> print("\n".join(bytes_lines(before, after)).replace("; ", ";\n"))
    bytes to the players' pages per move: before answer 9000 + pushes 15000 = 24000;
    after answer 9000 + pushes 6000 = 15000 (0.62x)
    bytes to a page when its sockets connect: before 16000;
    after 300
    """
    total_before, total_after = before.answer + before.pushes, after.answer + after.pushes
    ratio = total_after / total_before if total_before else float("nan")
    return [
        "bytes to the players' pages per move: "
        f"before answer {before.answer:.0f} + pushes {before.pushes:.0f} = {total_before:.0f}; "
        f"after answer {after.answer:.0f} + pushes {after.pushes:.0f} = {total_after:.0f} "
        f"({ratio:.2f}x)",
        "bytes to a page when its sockets connect: "
        f"before {before.connect:.0f}; after {after.connect:.0f}",
    ]


async def gather_limited(jobs: Iterable[Awaitable[object]], limit: int = 10) -> list[object]:
    """Await the jobs, ``limit`` at a time (pages opening all at once would time the
    start-up, not the site)."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Awaitable[object]) -> object:
        async with gate:
            return await job

    return await asyncio.gather(*(one(job) for job in jobs))


async def open_table(
    site: str, game_id: int, keys: list[str], old: bool = False
) -> tuple[list[Browser], int, int]:
    """The pages of a game's members (``old``: pages that say nothing when they connect),
    sockets open; returns them, the game's version and the index of the page whose turn
    it is."""
    pages = [Browser(site, key, old) for key in keys]
    shown = [await page.open_game(game_id) for page in pages]
    for page in pages:
        await page.connect(game_id)
    turn = [index for index, (_, mine) in enumerate(shown) if mine]
    if len(turn) != 1 or len({version for version, _ in shown}) != 1:
        raise SystemExit(f"game {game_id}: pages disagree on the version or whose turn it is")
    return pages, shown[0][0], turn[0]


async def play_draws(
    game_id: int,
    pages: list[Browser],
    version: int,
    turn: int,
    moves: int,
    think: float,
    rng: random.Random,
    floor: bool = False,
) -> list[MoveTiming]:
    """The two players draw in turn; a refused move ends the game's part. With
    ``floor``, they post to the game's floor counter instead, from 0, at the same pace."""
    timings = []
    count = 0
    for _ in range(moves):
        await asyncio.sleep(rng.uniform(0, 2 * think))
        if floor:
            timing = await pages[turn].floor(game_id, count)
        else:
            timing = await pages[turn].move(game_id, "draw", version)
        timings.append(timing)
        if not timing.committed:
            break
        version, count, turn = version + 1, count + 1, 1 - turn
    return timings


def draws_per_game(args: argparse.Namespace) -> list[int]:
    share, extra = divmod(args.moves, args.games)
    return [share + (n < extra) for n in range(args.games)]


async def run_moves(
    site: str, plan: Plan, args: argparse.Namespace, results: Results, daphne: Web
) -> None:
    opened = await gather_limited(
        open_table(site, game, keys, args.old_pages) for game, keys in plan.games
    )
    tables = [(game, *table) for (game, _), table in zip(plan.games, opened, strict=True)]  # type: ignore[misc]
    results.move_pages = {game: pages for game, pages, _, _ in tables}
    per_game = draws_per_game(args)
    rng = random.Random(args.seed)
    started, cpu = time.perf_counter(), daphne.cpu_seconds()
    floors = await asyncio.gather(
        *(
            play_draws(game, pages, 0, turn, n, args.think, random.Random(rng.random()), True)
            for (game, pages, _, turn), n in zip(tables, per_game, strict=True)
        )
    )
    results.floor_seconds = time.perf_counter() - started
    results.floor_cpu = daphne.cpu_seconds() - cpu
    results.floor = [timing for game in floors for timing in game]
    rng = random.Random(args.seed)
    started, cpu = time.perf_counter(), daphne.cpu_seconds()
    played = await asyncio.gather(
        *(
            play_draws(game, pages, version, turn, moves, args.think, random.Random(rng.random()))
            for (game, pages, version, turn), moves in zip(tables, per_game, strict=True)
        )
    )
    results.moves_seconds = time.perf_counter() - started
    results.moves_cpu = daphne.cpu_seconds() - cpu
    results.moves = [timing for game in played for timing in game]
    # Pushes still on their way when the last answer came are late, not lost.
    last = [
        page.game.arrival_of(max(m.version for m in moves) + 1)
        for moves in played
        if moves
        for page in results.move_pages[moves[0].game_id]
    ]
    await asyncio.wait(last, timeout=60)


async def run_pushes(
    site: str, plan: Plan, args: argparse.Namespace, results: Results, daphne: Web
) -> None:
    pages, version, turn = await open_table(site, plan.watched, plan.watchers[:2], args.old_pages)
    watching = [Browser(site, key, args.old_pages) for key in plan.watchers[2:]]
    await gather_limited(page.open_game(plan.watched) for page in watching)
    await gather_limited(page.connect(plan.watched) for page in watching)
    results.push_pages = pages + watching
    await asyncio.sleep(0.5)  # let the sockets' start-up work settle
    cpu = daphne.cpu_seconds()
    for _ in range(args.pushes):
        arrivals = [page.game.arrival_of(version + 1) for page in results.push_pages]
        timing = await pages[turn].move(plan.watched, "draw", version)
        results.pushes.append(timing)
        if not timing.committed:
            break
        _, pending = await asyncio.wait(arrivals, timeout=10)
        results.missing_pushes += len(pending)
        version, turn = version + 1, 1 - turn
        await asyncio.sleep(0.05)
    results.pushes_cpu = daphne.cpu_seconds() - cpu
    for count in range(args.pushes):
        timing = await pages[count % 2].floor(plan.watched, count)
        results.floor_one_at_a_time.append(timing)
        if not timing.committed:
            break
        await asyncio.sleep(0.05)


async def run_bytes(site: str, plan: Plan, args: argparse.Namespace, results: Results) -> None:
    """Part 3: the bytes the players' pages receive, old pages and today's."""
    for kind, (game, keys) in zip(("old", "new"), plan.bytes_games, strict=True):
        pages, version, turn = await open_table(site, game, keys, old=kind == "old")
        results.bytes_pages += pages
        await asyncio.sleep(0.3)  # the header's first counts, sent to every page
        connected = sum(page.socket_bytes for page in pages) / len(pages)
        sockets = sum(page.socket_bytes for page in pages)
        answers = sum(page.answer_bytes for page in pages)
        moves = 0
        for _ in range(args.pushes):
            arrivals = [page.game.arrival_of(version + 1) for page in pages]
            timing = await pages[turn].move(game, "draw", version)
            if not timing.committed:
                results.missing_pushes += 1
                break
            _, pending = await asyncio.wait(arrivals, timeout=10)
            results.missing_pushes += len(pending)
            moves, version, turn = moves + 1, version + 1, 1 - turn
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # the last move's header counts
        sockets = sum(page.socket_bytes for page in pages) - sockets
        answers = sum(page.answer_bytes for page in pages) - answers
        per_move = max(1, moves)
        results.page_bytes[kind] = PageBytes(
            connected, answers / per_move, sockets / per_move, moves
        )


async def run_clients(site: str, plan: Plan, args: argparse.Namespace, daphne: Web) -> Results:
    results = Results()
    try:
        await run_moves(site, plan, args, results, daphne)
        await run_pushes(site, plan, args, results, daphne)
        await run_bytes(site, plan, args, results)
    finally:
        pages = [page for game in results.move_pages.values() for page in game]
        pages += results.push_pages + results.bytes_pages
        await asyncio.gather(*(page.close() for page in pages))
    return results


def read_commits(log: Path) -> dict[tuple[int, int], float]:
    """``(game, version)`` to its commit time, from the probe's log."""
    commits = {}
    for line in log.read_text().splitlines():
        game, version, at = line.split()
        commits[int(game), int(version)] = float(at)
    return commits


def read_queries(log: Path) -> dict[str, list[int]]:
    """The statements of each POST, from the probe's log, by kind: ``"move"`` (a draw)
    and ``"floor"`` (a floor post); other requests are left out."""
    found: dict[str, list[int]] = {"move": [], "floor": []}
    if not log.exists():
        return found
    for line in log.read_text().splitlines():
        method, path, count = line.split()
        if method != "POST":
            continue
        if path.startswith("/bench/floor/"):
            found["floor"].append(int(count))
        elif path.endswith("/draw/"):
            found["move"].append(int(count))
    return found


def push_delays(
    pages: Iterable[Browser], moves: Iterable[MoveTiming], commits: dict[tuple[int, int], float]
) -> tuple[list[float], int]:
    """Milliseconds from each committed move to its fragments at each page of its game
    pushed them (not the page that made the move: its answer showed it), and how many
    did not arrive."""
    delays, missing = [], 0
    for page in pages:
        for move in moves:
            if not move.committed or (move.sent_by and move.sent_by == page.page_id):
                continue
            arrived = page.game.first_showing(move.version + 1)
            committed = commits.get((move.game_id, move.version + 1))
            if arrived is None or committed is None:
                missing += 1
            else:
                delays.append((arrived - committed) * 1000)
    return delays, missing


def commit_delays(
    moves: Iterable[MoveTiming], commits: dict[tuple[int, int], float]
) -> list[float]:
    """Milliseconds from sending each committed move to its commit (the server's note)."""
    return [
        (commits[move.game_id, move.version + 1] - move.sent_at) * 1000
        for move in moves
        if move.committed and (move.game_id, move.version + 1) in commits
    ]


def quantiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and the maximum (nearest rank).

    >>> quantiles([float(n) for n in range(1, 101)])
    (50.0, 95.0, 100.0)
    """
    if not values:
        return math.nan, math.nan, math.nan
    ordered = sorted(values)

    def rank(share: float) -> float:
        return ordered[max(0, math.ceil(len(ordered) * share) - 1)]

    return rank(0.5), rank(0.95), ordered[-1]


def report(
    results: Results,
    commits: dict[tuple[int, int], float],
    args: argparse.Namespace,
    queries: dict[str, list[int]] | None = None,
) -> int:
    """Print the table and the summary line; returns the exit status."""
    moves = [m.milliseconds for m in results.moves if m.committed]
    refused = len(results.moves) - len(moves)
    push_moves = [m for m in results.pushes if m.committed]
    pushes, missing = push_delays(results.push_pages, push_moves, commits)
    # The first two pages of part 2 are its players' (see run_pushes).
    players_pushes, _ = push_delays(results.push_pages[:2], push_moves, commits)
    watchers_pushes, _ = push_delays(results.push_pages[2:], push_moves, commits)
    load_pushes: list[float] = []
    load_missing = 0
    for game, pages in results.move_pages.items():
        delays, lost = push_delays(pages, [m for m in results.moves if m.game_id == game], commits)
        load_pushes += delays
        load_missing += lost
    rate = len(moves) / results.moves_seconds if results.moves_seconds else 0.0

    to_commit = commit_delays(results.moves, commits)
    floor_answers = [m.milliseconds for m in results.floor if m.committed]
    floor_commits = commit_delays(results.floor, commits)
    floor_single = [m.milliseconds for m in results.floor_one_at_a_time if m.committed]
    floor_refused = len(results.floor) + len(results.floor_one_at_a_time)
    floor_refused -= len(floor_answers) + len(floor_single)
    rows = [
        (f"move: request to commit, {args.games} games", to_commit, AIM_MOVE_P95_MS),
        (f"move: request to answer, {args.games} games", moves, None),
        (f"push: commit to {len(results.push_pages)} pages of one game", pushes, AIM_PUSH_P95_MS),
        ("  of which the 2 players' pages", players_pushes, None),
        (f"  of which the {len(results.push_pages) - 2} watchers' pages", watchers_pushes, None),
        ("push: commit to the players' pages, part 1", load_pushes, None),
        ("move: the moves of part 2, one at a time", [m.milliseconds for m in push_moves], None),
        (f"floor: request to commit, {args.games} games", floor_commits, None),
        (f"floor: request to answer, {args.games} games", floor_answers, None),
        ("floor: one at a time", floor_single, None),
    ]
    print(f"{'':46} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  aim p95")
    for name, values, aim in rows:
        p50, p95, most = quantiles(values)
        verdict = "" if aim is None else f"< {aim:.0f} ms: {'met' if p95 < aim else 'MISSED'}"
        print(f"{name:46} {len(values):6} {p50:8.1f} {p95:8.1f} {most:8.1f}  {verdict}")
    print(
        f"part 1: {len(moves)} moves in {results.moves_seconds:.1f} s ({rate:.0f} moves/s), "
        f"{refused} refused, {load_missing} pushes lost; daphne CPU "
        f"{results.moves_cpu / max(1, len(results.moves)) * 1000:.1f} ms per move "
        f"({results.moves_cpu / results.moves_seconds:.0%} of a core)\n"
        f"part 2: {len(push_moves)} moves, {missing + results.missing_pushes} pushes lost; "
        f"daphne CPU {results.pushes_cpu / max(1, len(results.pushes)) * 1000:.1f} ms per move "
        f"and its {len(results.push_pages)} pushes",
        flush=True,
    )
    move_cpu = results.moves_cpu / max(1, len(results.moves)) * 1000
    floor_cpu = results.floor_cpu / max(1, len(results.floor)) * 1000
    print(
        f"floor: {len(floor_answers)} posts in {results.floor_seconds:.1f} s, "
        f"{floor_refused} refused; daphne CPU {floor_cpu:.1f} ms per floor post"
    )
    asked = queries or {}
    move_queries, floor_queries = asked.get("move", []), asked.get("floor", [])
    print(
        f"queries per request: move p50 {quantiles([float(q) for q in move_queries])[0]:.0f} "
        f"max {max(move_queries, default=0)}; "
        f"floor p50 {quantiles([float(q) for q in floor_queries])[0]:.0f} "
        f"max {max(floor_queries, default=0)}"
    )
    if "old" in results.page_bytes and "new" in results.page_bytes:
        for line in bytes_lines(results.page_bytes["old"], results.page_bytes["new"]):
            print(line)
    print(f"{'ratio to the floor':46} {'':6} {'p50':>8} {'p95':>8}")
    for name, values, base in (
        ("move / floor: request to commit", to_commit, floor_commits),
        ("move / floor: request to answer", moves, floor_answers),
        ("move / floor: one at a time", [m.milliseconds for m in push_moves], floor_single),
    ):
        (p50, p95, _), (f50, f95, _) = quantiles(values), quantiles(base)
        print(f"{name:46} {'':6} {p50 / f50:8.2f} {p95 / f95:8.2f}")
    cpu_ratio = move_cpu / floor_cpu if floor_cpu else math.nan
    print(f"{'move / floor: daphne CPU per post':46} {'':6} {cpu_ratio:8.2f}")
    move_p50, move_p95, _ = quantiles(to_commit)
    push_p50, push_p95, _ = quantiles(pushes)
    print(
        f"move p50 {move_p50:.1f} ms p95 {move_p95:.1f} ms; "
        f"push p50 {push_p50:.1f} ms p95 {push_p95:.1f} ms"
    )
    lost = missing or results.missing_pushes or load_missing
    return 1 if refused or floor_refused or lost else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench_web needs DATABASE_URL to point to PostgreSQL")
    redis = with_path(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), f"/{args.redis_db}")
    bench_db = create_database(database, args.database_suffix)
    work = Path(tempfile.mkdtemp(prefix="bench-web-"))
    commit_log, query_log = work / "commits.log", work / "queries.log"
    env = site_env(
        bench_db,
        redis,
        work / "static",
        BENCH_COMMIT_LOG=str(commit_log),
        BENCH_QUERY_LOG=str(query_log),
    )
    env["DJANGO_SETTINGS_MODULE"] = args.settings
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "REDIS_URL", "DEBUG", "EMAIL_URL")})
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from config.celery_app import app

    children: list[Child | Web] = []
    try:
        call_command("migrate", verbosity=0)
        collect_static(work / "static", env)
        plan = prepare(args.games, args.watchers)
        connections.close_all()
        app.control.purge()
        clear_redis(redis)
        print(
            f"bench-web: PostgreSQL {urlsplit(bench_db).path.lstrip('/')}, "
            f"Redis db {args.redis_db}, daphne ({args.web_processes} processes), "
            "a Celery worker (2 processes, beat); "
            f"logs in {work}",
            flush=True,
        )
        children.append(start_worker(env, work / "worker.log"))
        daphne = start_daphne(
            "benchmarks.web_probe:application", env, work / "daphne.log", args.web_processes
        )
        children.append(daphne)
        results = asyncio.run(run_clients(env["SITE_URL"], plan, args, daphne))
    finally:
        for child in reversed(children):
            child.stop()
        app.control.purge()
        clear_redis(redis)
        connections.close_all()
        if not args.keep_db:
            drop_database(bench_db)
    return report(results, read_commits(commit_log), args, read_queries(query_log))


if __name__ == "__main__":
    sys.exit(main())
