"""Benchmark the faults the real stack survives, with games in play.

Run ``make bench-faults`` (or ``scripts/test-env.sh .venv/bin/python
benchmarks/bench_faults.py``): it needs ``DATABASE_URL`` (PostgreSQL). It works in a
database of its own, ``<database>_bench_faults``, made afresh and dropped at the end,
and starts a redis-server of its own on a free port (it restarts it: never the shared
one). daphne runs as `make run` starts it, with DEBUG off and collected static files, as
deployed; Celery as on two nodes: a "main" worker and a beat on each (one beat sends, the
other stands by), and a bots' worker.

``--games`` live two-player tables with ``--turn-seconds`` turns are in play. In each,
the two players' browsers (HTTP, as htmx posts) draw in turn after a pause of 0 to 2 x
``--think`` s; a player sometimes lets a turn run out (``--idle``, never twice in a
row, so nobody forfeits), so deadlines fire all through the run. First, ``--node-at`` s
after the games start:

- *node*: SIGKILL to node A's beat (the one sending) and its "main" worker together, which
  holds about half of the first turns' timeout tasks (Redis would hand them out again
  only after its hour of visibility timeout); node A stays down for ``--node-down`` s,
  past the first turns' deadlines, then comes back. Node B's beat must take over and its
  sweeps end those turns.

Then, every (time left) / (faults + 1) s, one fault in turn:

- *worker*: SIGKILL to every Celery worker and its pool at once, then a restart, as
  a supervisor would;
- *redis*: SIGKILL to Redis, restarted a second later, empty (queued tasks, Channels
  groups are gone);
- *database*: ``pg_terminate_backend`` on every connection to the bench's database (the
  web processes' pools, the workers', beat's).

``--rounds`` of the three (0: the node fault alone). Meanwhile the bench acts as the
supervisor: a worker that stops on its own is started again, and counted. Once the
clients stop, the stack runs on for a turn's length, so the turns left open run out
too; then every game is checked against its move log. Missed deadlines, if any, are
put down to the fault made while their turn was late.

A move is lost if its player was answered 200 and the log lacks it, doubled if a turn
holds two draws of its player. Each turn's deadline is read from the database while the
run goes (every half second; a turn that runs out lasts ``--turn-seconds``, so none is
missed); a deadline is missed if its turn outlived it by more than the sweep interval
(``GAMES_SWEEP_SECONDS``) plus 5 s. Lateness is how long a turn outlived its deadline.

The last line sums up:
``faults N; games G; moves lost 0; moves doubled 0; deadlines missed 0; worst lateness X s``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.stack import (  # noqa: E402
    Celery,
    RedisServer,
    Web,
    collect_static,
    create_database,
    drop_database,
    site_env,
    start_daphne,
    terminate_connections,
)
from benchmarks.web_clients import BenchError, Browser  # noqa: E402
from config.runstack import web_processes  # noqa: E402

BENCH_SUFFIX = "_bench_faults"
POLL_SECONDS = 2.0
MISSED_AFTER_SWEEP = 5.0
"""A deadline is missed when its turn outlives it by the sweep interval and this."""
NODE_DOWN_PAST_TURN = 20.0
"""Node A stays down this long past a turn: past the moment its first turns' deadlines
would count as missed (the sweep interval and the margin above) had nothing ended them."""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in play at once")
    parser.add_argument("--turn-seconds", type=int, default=10, help="live turns' length")
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of play")
    parser.add_argument(
        "--rounds", type=int, default=3, help="times each fault is made (0: the node fault only)"
    )
    parser.add_argument("--think", type=float, default=1.5, help="mean pause before a move")
    parser.add_argument(
        "--node-at", type=float, default=2.0, help="seconds into play when node A is lost"
    )
    parser.add_argument(
        "--node-down",
        type=float,
        default=None,
        help="seconds node A stays down (default: a turn and 20 s more)",
    )
    parser.add_argument("--idle", type=float, default=0.25, help="share of turns let run out")
    parser.add_argument("--web-processes", type=int, default=web_processes())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 0 or args.turn_seconds < 10:
        parser.error("at least one game; turns of 10 s at least")
    if args.node_down is None:
        args.node_down = args.turn_seconds + NODE_DOWN_PAST_TURN
    if args.node_at + args.node_down >= args.duration:
        parser.error("node A must be back before the end of play (--duration)")
    return args


@dataclass(frozen=True)
class Player:
    seat: int
    session_key: str


@dataclass(frozen=True)
class Answer:
    """A move a player posted: the version it was made on and the answer (0: none)."""

    game_id: int
    seat: int
    version: int
    status: int


def prepare(games: int, turn_seconds: int) -> dict[int, list[Player]]:
    """Members with sessions (made in the database, as ``force_login`` does) and their
    tables in play; each game's players by seat."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
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

    plan = {}
    for index in range(games):
        (one, one_key), (two, two_key) = member(f"player{index}a"), member(f"player{index}b")
        seats = [SeatPlan.taken_by(one), SeatPlan.taken_by(two)]
        table = services.create_table(one, TableSettings(turn_seconds=turn_seconds), seats)
        plan[Game.objects.get(table=table).pk] = [Player(0, one_key), Player(1, two_key)]
    return plan


@dataclass
class Clients:
    """What the players' browsers saw: every move's answer, and requests that failed."""

    answers: list[Answer] = field(default_factory=list)
    failed_requests: int = 0


FAILURES = (BenchError, aiohttp.ClientError, OSError, asyncio.TimeoutError)
"""A page that would not load, a request without an answer: the player tries again."""


async def whose_turn(
    game_id: int, pages: dict[int, Browser], likely: int
) -> tuple[int, int] | None:
    """The game's version and the seat to move, as the players' pages show it (seat
    ``likely`` first); ``None`` when neither says it is theirs (the game is over). The
    mover's page is loaded last, so its form token is fresh."""
    for seat in sorted(pages, key=lambda seat: seat != likely):
        version, mine = await pages[seat].open_game(game_id)
        if mine:
            return version, seat
    return None


async def play(
    site: str,
    game_id: int,
    players: list[Player],
    args: argparse.Namespace,
    until: float,
    clients: Clients,
) -> None:
    """Two players at one table, until ``until`` (a monotonic time)."""
    rng = random.Random(f"{args.seed}-{game_id}")
    pages = {player.seat: Browser(site, player.session_key) for player in players}
    idled_last = dict.fromkeys(pages, False)
    likely = 0
    try:
        while time.monotonic() < until:
            try:
                found = await whose_turn(game_id, pages, likely)
            except FAILURES:
                clients.failed_requests += 1
                await asyncio.sleep(0.5)
                continue
            if found is None:
                return
            version, seat = found
            likely = 1 - seat  # turns alternate, unless a move fails
            if rng.random() < args.idle and not idled_last[seat]:
                idled_last[seat] = True
                await wait_for_change(game_id, pages[seat], version, until, clients)
                continue
            idled_last[seat] = False
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
            try:
                status = (await pages[seat].move(game_id, "draw", version)).status
            except FAILURES:
                clients.failed_requests += 1
                status = 0
            clients.answers.append(Answer(game_id, seat, version, status))
    finally:
        for page in pages.values():
            await page.close()


async def wait_for_change(
    game_id: int, page: Browser, version: int, until: float, clients: Clients
) -> None:
    """The player lets the turn run out: the page is looked at now and then until it
    moves on (a real page is told by its socket; these pages poll, gently)."""
    while time.monotonic() < until:
        await asyncio.sleep(POLL_SECONDS)
        try:
            shown, _ = await page.open_game(game_id)
        except FAILURES:
            clients.failed_requests += 1
            continue
        if shown != version:
            return


async def run_clients(
    site: str, plan: dict[int, list[Player]], args: argparse.Namespace
) -> Clients:
    clients = Clients()
    until = time.monotonic() + args.duration
    await asyncio.gather(
        *(play(site, game, players, args, until, clients) for game, players in plan.items())
    )
    return clients


class DeadlineLog:
    """Each turn's deadline, read from the database every half second in a thread."""

    def __init__(self, game_ids: list[int]) -> None:
        self.game_ids = game_ids
        self.deadlines: dict[tuple[int, int], datetime] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deadlines", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.read()
            self._stop.wait(0.5)

    def read(self) -> None:
        from django.db import OperationalError, connection

        from games.models import Game

        try:
            rows = Game.objects.filter(pk__in=self.game_ids, turn_deadline__isnull=False)
            for game_id, turn, deadline in rows.values_list("pk", "turn_number", "turn_deadline"):
                if deadline is not None:  # always, by the filter; mypy cannot know it
                    self.deadlines[game_id, turn] = deadline
        except OperationalError:
            connection.close()  # dropped by a fault: the next read reconnects

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class Stack:
    redis: RedisServer
    env: dict[str, str]
    work: Path
    web: Web | None = None
    celery: Celery | None = None

    def start(self, processes: int) -> None:
        self.celery = Celery(self.env, self.work)
        self.web = start_daphne(
            "config.asgi:application", self.env, self.work / "daphne.log", processes
        )

    def stop(self) -> None:
        for part in (self.web, self.celery):
            if part is not None:
                part.stop()
        self.redis.stop()


def lose_node(stack: Stack) -> float:
    """Node A's beat and main worker killed; returns once node B's beat has taken over,
    when they were killed (a monotonic time)."""
    assert stack.celery is not None
    stack.celery.kill_node("nodeA")
    killed = time.monotonic()
    stack.celery.beats["nodeB"].wait_for_line(stack.celery.TOOK_LOCK, timeout=60)
    return killed


def restore_node(stack: Stack) -> None:
    assert stack.celery is not None
    stack.celery.restart_node("nodeA")


def kill_workers(stack: Stack) -> None:
    assert stack.celery is not None
    stack.celery.kill_workers()
    stack.celery.restart_workers()


def restart_redis(stack: Stack) -> None:
    stack.redis.restart(down_seconds=1)


def drop_connections(stack: Stack) -> None:
    terminate_connections(stack.env["DATABASE_URL"])


FAULTS: list[tuple[str, Callable[[Stack], None]]] = [
    ("worker", kill_workers),
    ("redis", restart_redis),
    ("database", drop_connections),
]


def make_faults(
    stack: Stack, args: argparse.Namespace, done: list[Fault], revived: list[str]
) -> tuple[threading.Thread, threading.Event]:
    """A thread that makes the faults, evenly spread over the run, and meanwhile acts as
    the supervisor: a Celery worker that stops on its own is started again (and noted).
    It runs until the returned event is set."""
    schedule = FAULTS * args.rounds
    started = time.monotonic()
    node_back = args.node_at + args.node_down
    gap = (args.duration - node_back) / (len(schedule) + 1)
    stop = threading.Event()

    def supervise_until(moment: float) -> None:
        assert stack.celery is not None
        while not stop.is_set() and time.monotonic() < moment:
            for name in stack.celery.revive():
                revived.append(name)
                print(f"  {time.monotonic() - started:5.1f} s: {name} had stopped", flush=True)
            stop.wait(0.5)

    def run() -> None:
        supervise_until(started + args.node_at)
        began = datetime.now(UTC)
        lost_at = lose_node(stack)
        print(f"  {lost_at - started:5.1f} s: node fault (A's beat and main worker killed)")
        print(f"  {time.monotonic() - started:5.1f} s: B's beat took over", flush=True)
        supervise_until(started + node_back)
        restore_node(stack)
        done.append(Fault("node", began, datetime.now(UTC)))
        print(f"  {time.monotonic() - started:5.1f} s: node A back", flush=True)
        for index, (name, fault) in enumerate(schedule, start=1):
            supervise_until(started + node_back + index * gap)
            at, began = time.monotonic() - started, datetime.now(UTC)
            fault(stack)
            done.append(Fault(name, began, datetime.now(UTC)))
            back = time.monotonic() - started - at
            print(f"  {at:5.1f} s: {name} fault, all back after {back:.1f} s", flush=True)
        supervise_until(float("inf"))

    thread = threading.Thread(target=run, name="faults", daemon=True)
    thread.start()
    return thread, stop


@dataclass(frozen=True)
class Fault:
    name: str
    began: datetime
    ended: datetime


@dataclass
class Verdict:
    lost: int
    doubled: int
    missed: int
    worst_lateness: float
    timeouts: int
    missed_after: Counter[str]
    """Missed deadlines by the fault made while their turn was late ("none": no fault)."""
    while_node_down: list[float]
    """The lateness of each turn whose deadline came while node A was down (negative: the
    turn ended by a move before it)."""


def blame(faults: list[Fault], deadline: datetime, end: datetime) -> str:
    """The first fault that was under way (or had just ended: the stack catching up)
    while the turn was late."""
    recovering = timedelta(seconds=MISSED_AFTER_SWEEP)
    window = [f for f in faults if f.began <= end and f.ended + recovering >= deadline]
    return window[0].name if window else "none"


def check(
    clients: Clients,
    deadlines: dict[tuple[int, int], datetime],
    sweep: float,
    faults: list[Fault],
) -> Verdict:
    """Every game against what its players were told and its turns' deadlines."""
    from django.utils import timezone

    from games.models import Game, Move

    game_ids = sorted({game for game, _ in deadlines})
    moves = list(
        Move.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "seq", "seat", "by", "turn_number", "created_at"
        )
    )
    by_seq = {(game, seq): (seat, by) for game, seq, seat, by, _, _ in moves}
    lost = sum(
        1
        for answer in clients.answers
        if answer.status == 200
        and by_seq.get((answer.game_id, answer.version + 1)) != (answer.seat, Move.By.USER)
    )
    draws = Counter(
        (game, turn, seat) for game, _, seat, by, turn, _ in moves if by == Move.By.USER
    )
    doubled = sum(count - 1 for count in draws.values())

    ended: dict[tuple[int, int], datetime] = {}
    for game, _, _, _, turn, at in moves:
        ended[game, turn] = max(at, ended.get((game, turn), at))
    playing = Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING)
    open_turns = set(playing.values_list("pk", "turn_number"))
    now = timezone.now()
    lateness = []
    node_down = _node_down(faults)
    while_down: list[float] = []
    missed_after: Counter[str] = Counter()
    for (game, turn), deadline in deadlines.items():
        end = now if (game, turn) in open_turns else ended.get((game, turn), now)
        late = (end - deadline).total_seconds()
        lateness.append(late)
        if any(down.began <= deadline <= down.ended for down in node_down):
            while_down.append(late)
        if late > sweep + MISSED_AFTER_SWEEP:
            missed_after[blame(faults, deadline, end)] += 1
    timeouts = sum(1 for move in moves if move[3] == Move.By.TIMEOUT)
    missed = sum(missed_after.values())
    return Verdict(lost, doubled, missed, max([0.0, *lateness]), timeouts, missed_after, while_down)


def _node_down(faults: list[Fault]) -> list[Fault]:
    return [fault for fault in faults if fault.name == "node"]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench-faults needs DATABASE_URL to point to PostgreSQL")
    work = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    bench_db = create_database(database, BENCH_SUFFIX)
    stack = Stack(RedisServer(work), {}, work)
    stack.env = site_env(bench_db, stack.redis.url, work / "static")
    os.environ.update({k: stack.env[k] for k in ("DATABASE_URL", "REDIS_URL", "EMAIL_URL")})
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    done: list[Fault] = []
    revived: list[str] = []
    try:
        call_command("migrate", verbosity=0)
        collect_static(work / "static", stack.env)
        print(
            f"bench-faults: PostgreSQL {urlsplit(bench_db).path.lstrip('/')}, its own Redis on "
            f"port {stack.redis.port}, daphne ({args.web_processes} processes), Celery workers "
            f"main on nodes A and B and bots, a beat on each node (sweeps every "
            f"{settings.GAMES_SWEEP_SECONDS:g} s); "
            f"{args.games} games, turns of {args.turn_seconds} s; logs in {work}",
            flush=True,
        )
        stack.start(args.web_processes)
        # The tables start once the stack runs: their first turns' clocks start now.
        plan = prepare(args.games, args.turn_seconds)
        connections.close_all()
        deadlines = DeadlineLog(list(plan))
        faults, stop_faults = make_faults(stack, args, done, revived)
        clients = asyncio.run(run_clients(stack.env["SITE_URL"], plan, args))
        # The turns left open run out with the stack whole.
        time.sleep(args.turn_seconds + settings.GAMES_SWEEP_SECONDS + 2)
        stop_faults.set()
        faults.join()
        deadlines.stop()
        deadlines.read()
        verdict = check(clients, deadlines.deadlines, settings.GAMES_SWEEP_SECONDS, done)
    finally:
        stack.stop()
        connections.close_all()
        if not args.keep_db:
            drop_database(bench_db)
    answered = sum(1 for answer in clients.answers if answer.status == 200)
    print(
        f"moves: {len(clients.answers)} posted, {answered} answered 200, "
        f"{clients.failed_requests} requests failed (no answer or a page that would not load); "
        f"turns: {len(deadlines.deadlines)} with a deadline, {verdict.timeouts} ran out; "
        f"workers that stopped on their own (restarted): {len(revived)}; "
        f"load average {os.getloadavg()[1]:.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    # Turns that ran out (the others were ended by a move before their deadline).
    down = sorted(late for late in verdict.while_node_down if late >= 0)
    if down:
        print(
            f"node fault: {len(down)} turns ran out while node A was down; lateness "
            f"p50 {down[len(down) // 2]:.1f} s, max {down[-1]:.1f} s; "
            f"missed {verdict.missed_after['node']}"
        )
    if verdict.missed:
        blamed = ", ".join(
            f"{count} after a {name} fault" for name, count in verdict.missed_after.items()
        )
        print(f"deadlines missed: {blamed.replace('after a none fault', 'with no fault near')}")
    print(
        f"faults {len(done)}; games {len(plan)}; moves lost {verdict.lost}; "
        f"moves doubled {verdict.doubled}; deadlines missed {verdict.missed}; "
        f"worst lateness {verdict.worst_lateness:.1f} s"
    )
    return 1 if verdict.lost or verdict.doubled or verdict.missed else 0


if __name__ == "__main__":
    sys.exit(main())
