"""Benchmark moderation on PostgreSQL and Redis: a case's evidence, and a ruling.

Run ``make bench-moderation`` (or ``scripts/test-env.sh .venv/bin/python
benchmarks/bench_moderation.py``): it needs ``DATABASE_URL`` (PostgreSQL) and
``REDIS_URL``. It works in a database of its own, ``<database>_bench_moderation``, made
afresh and dropped at the end, and in Redis database 13 of that server.

1. *Build.* Four members sit at a table (through the lobby's services); its first game is
   played from the deal for ``--turns`` (120) turns by a patient player: it lays its
   initial meld as the easy bot would, then one tile a turn, and often draws although it
   could play (so the solver has something to say). A game that ends sooner is dropped
   and another table dealt. A stalling case of that game is claimed by a site moderator.
2. *Evidence, first open.* ``--opens`` times, after the game's cached replay and solver
   answers were dropped, the evidence page is opened through Django's test client as
   that moderator, then its list of turns is asked for again, as the page does, until
   every turn has its solver line (each request gives the solver
   ``MODERATION_EVIDENCE_SECONDS``, each turn ``MODERATION_EVIDENCE_TURN_SECONDS``).
   Timed: the whole, until the last line is in (p50, p95), and the page's first answer.
   The page's own first answer asks the solver for ``MODERATION_EVIDENCE_FIRST_SECONDS``
   only, so that it paints at once; each open is made twice, alternating, "before" (the
   first answer given the whole ``MODERATION_EVIDENCE_SECONDS``, as it once was) and
   "now", and the ratios before/now are printed.
3. *Evidence, cached.* ``--cached`` GETs of the page with everything cached; p50, p95
   (both ways).
4. *Ruling.* ``measure_rulings(n)`` of :mod:`benchmarks.moderation_ruling_bench` (a ruling
   applied to a game of a 200-player league), when that module is present.

The last line sums up:
``evidence p50 X ms p95 Y ms; ruling p50 X ms p95 Y ms``
(the evidence figures are first opens, now, until every solver line is in; the cached
ones, the page's first answer and the ratios to before are on the lines before).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_deadlines import percentile  # noqa: E402
from benchmarks.stack import in_django_of_its_own  # noqa: E402

BENCH_SUFFIX = "_bench_moderation"
REDIS_DB = 13
TABLES_TRIED = 20
ASKS_AGAIN = 'hx-trigger="load delay:300ms"'
"""What the evidence's list of turns carries while solver lines are still missing."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--opens", type=int, default=8)
    parser.add_argument("--cached", type=int, default=30)
    parser.add_argument("--rulings", type=int, default=20)
    parser.add_argument(
        "--seed", type=int, default=1, help="deals the tables: same seed, same game"
    )
    parser.add_argument("--database-suffix", default=BENCH_SUFFIX)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB)
    parser.add_argument("--keep-db", action="store_true", help="leave the database for a look")
    return parser.parse_args(argv)


def timed(action: Callable[[], Any]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def patient_actions(state: Any, turns: int, rng: random.Random) -> list[tuple[int, Any]] | None:
    """``turns`` turns of the patient player from ``state`` as ``(seat, action)``, or
    None when the game ends sooner."""
    from engine.actions import Draw, GameError, Pass, Play
    from engine.bots import choose_for
    from engine.game import apply

    played: list[tuple[int, Any]] = []
    while len(played) < turns:
        if state.outcome is not None:
            return None
        seat = state.current_player
        action: Any = None
        if state.initial_meld_done[seat]:
            action = _one_tile(state, seat)
        else:
            chosen = choose_for(state, seat, "easy", rng)
            action = chosen if isinstance(chosen, Play) else None
        if action is None or (state.pool and rng.random() < 0.55):
            action = Draw() if state.pool else Pass()
        try:
            state = apply(state, action, seat)
        except GameError:
            return None
        played.append((seat, action))
    return played if state.outcome is None else None


def _one_tile(state: Any, seat: int) -> Any:
    """A play of one rack tile onto the table, or None."""
    from engine.actions import GameError, Play
    from engine.game import apply
    from engine.solver import Budget, OutOfBudget, arrange

    for tile in sorted(set(state.racks[seat])):
        try:
            laid = arrange(state.table, [tile], True, state.ruleset, budget=Budget(seconds=0.05))
        except OutOfBudget:
            continue
        if laid is None:
            continue
        try:
            apply(state, Play(laid), seat)
        except GameError:
            continue
        return Play(laid)
    return None


def _dealt_table(players: Sequence[Any]) -> Any:
    """A correspondence table of ``players`` whose round has started."""
    from games import services
    from games.models.table_settings import TableSettings

    table = services.create_table(
        players[0],
        TableSettings(clock="correspondence"),
        [services.SeatPlan.taken_by(players[0])]
        + [services.SeatPlan.reserved_for(p) for p in players[1:]],
    )
    for player in players[1:]:
        services.join_table(table.pk, player)
    return table


def build(args: argparse.Namespace) -> tuple[Any, Any]:
    """The case of a game of ``args.turns`` turns, and its moderator (claimed)."""
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.test.utils import override_settings
    from django.utils import timezone

    from accounts.models import User
    from engine.game import apply
    from games.models import Game, Move
    from moderation.models import SITE_MODERATORS, Case, Category, Report

    players = [
        # Named apart from the league the ruling half builds in the same database.
        User.objects.create(username=f"evidence-player{n}", display_name=f"Player {n}")
        for n in range(4)
    ]
    moderator = User.objects.create(username="evidence-moderator", display_name="Moderator")
    moderator.groups.add(Group.objects.get(name=SITE_MODERATORS))
    rng = random.Random(args.seed)
    for attempt in range(TABLES_TRIED):
        # The round's seed deals the game: pinned, every run times the same game.
        seed = f"bench-{args.seed}-{attempt}"
        with override_settings(GAMES_ROUND_SEED=lambda _table, seed=seed: seed):
            table = _dealt_table(players)
        game = Game.objects.get(table=table, number=1)
        start = game.engine_state()
        actions = patient_actions(start, args.turns, rng)
        if actions is None:
            continue
        users = {seat.number: seat.user for seat in table.seats.select_related("user")}
        state, rows = start, []
        for seq, (seat, action) in enumerate(actions, start=1):
            rows.append(
                Move(
                    game=game,
                    seq=seq,
                    seat=seat,
                    action=action.to_dict(),
                    turn_number=state.turn_number,
                    by=Move.By.USER,
                    user=users[seat],
                )
            )
            state = apply(state, action, seat)
        with transaction.atomic():
            Move.objects.bulk_create(rows)
            game.set_engine_state(state)
            game.version = len(rows)
            game.turn_number = state.turn_number
            game.current_seat = state.current_player
            game.save()
        now = timezone.now()
        case = Case.objects.create(
            game=game,
            category=Category.STALLING,
            turn_number=1,
            opened_at=now,
            claimed_by=moderator,
            claimed_at=now,
            claim_seen_at=now,
        )
        Report.objects.create(
            case=case, filer=players[1], text="They keep drawing.", created_at=now
        )
        return case, moderator
    raise SystemExit(f"no game of {args.turns} turns in {TABLES_TRIED} deals")


@dataclass
class EvidenceTimes:
    complete: list[float] = field(default_factory=list)
    """First opens until every solver line is in (ms)."""
    page: list[float] = field(default_factory=list)
    """The page's first answer of each first open (ms)."""
    requests: list[int] = field(default_factory=list)
    """Requests each first open took."""
    cached: list[float] = field(default_factory=list)


def measure_evidence(args: argparse.Namespace) -> dict[str, EvidenceTimes]:
    """The first opens and the cached ones, the old way and the new, side by side: the
    page's first answer asking the solver for as long as each list of turns after it
    (``MODERATION_EVIDENCE_SECONDS``, before), or for the short first slice
    (``MODERATION_EVIDENCE_FIRST_SECONDS``, now). Opens of the two alternate, so that
    both meet the same machine."""
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import reverse

    from moderation.selectors.evidence import game_evidence, turns_key
    from moderation.selectors.solver_lines import position_key

    case, moderator = build(args)
    client = Client()
    client.force_login(moderator)
    url = reverse("moderation:evidence", args=[case.pk])
    game = case.game
    turns = [turn.replay for turn in game_evidence(game).turns]
    keys = [position_key(turn) for turn in turns]
    keys.append(turns_key(game))
    ways = {
        "before": {"MODERATION_EVIDENCE_FIRST_SECONDS": settings.MODERATION_EVIDENCE_SECONDS},
        "now": {},
    }
    times = {way: EvidenceTimes() for way in ways}
    for _ in range(args.opens):
        for way, changed in ways.items():
            with override_settings(**changed):
                _first_open(client, url, keys, times[way])
    for way, changed in ways.items():
        with override_settings(**changed):
            times[way].cached = [timed(lambda: _page(client.get(url))) for _ in range(args.cached)]
    return times


def _first_open(client: Any, url: str, keys: list[str], times: EvidenceTimes) -> None:
    """One first open (the game's replay and solver answers dropped from the cache), its
    page's answer, then its list of turns asked for again until every line is in."""
    from django.core.cache import cache

    cache.delete_many(keys)
    started = time.perf_counter()
    html = _page(client.get(url))
    times.page.append((time.perf_counter() - started) * 1000)
    requests = 1
    while ASKS_AGAIN in html:
        html = _page(client.get(f"{url}?turn=1&part=turns", HTTP_HX_REQUEST="true"))
        requests += 1
    times.complete.append((time.perf_counter() - started) * 1000)
    times.requests.append(requests)


def measure_rulings(n: int) -> list[float] | None:
    """The rulings helper's half (``benchmarks/moderation_ruling_bench.py``), if present."""
    if importlib.util.find_spec("benchmarks.moderation_ruling_bench") is None:
        return None
    module = importlib.import_module("benchmarks.moderation_ruling_bench")
    timings: list[float] = module.measure_rulings(n)
    return timings


def _page(response: Any) -> str:
    if response.status_code != 200:
        raise SystemExit(f"the evidence page answered {response.status_code}")
    return str(response.content.decode())


def _figures(values: Sequence[float]) -> str:
    if not values:
        return "p50 n/a ms p95 n/a ms"
    return f"p50 {statistics.median(values):.0f} ms p95 {percentile(list(values), 0.95):.0f} ms"


def _ratio(before: Sequence[float], now: Sequence[float]) -> str:
    """How many times faster now is than before, at p50 and p95."""
    if not before or not now:
        return "n/a"
    p50 = statistics.median(before) / max(statistics.median(now), 1e-9)
    p95 = percentile(list(before), 0.95) / max(percentile(list(now), 0.95), 1e-9)
    return f"x{p50:.2f} at p50, x{p95:.2f} at p95"


def measure(args: argparse.Namespace) -> str:
    ways = measure_evidence(args)
    for way, times in ways.items():
        print(
            f"[{way}] evidence of {args.turns} turns, the page's first answer: "
            f"{_figures(times.page)}"
        )
        print(
            f"[{way}] evidence, first open until every solver line is in: "
            f"{_figures(times.complete)} ({len(times.complete)} opens, "
            f"{statistics.median(times.requests):.0f} requests each)"
        )
        print(f"[{way}] evidence, cached: {_figures(times.cached)} ({len(times.cached)} opens)")
    before, now = ways["before"], ways["now"]
    print(
        f"before/now: the page's first answer {_ratio(before.page, now.page)}; "
        f"until every line is in {_ratio(before.complete, now.complete)}; "
        f"cached {_ratio(before.cached, now.cached)}"
    )
    rulings = measure_rulings(args.rulings)
    if rulings is None:
        print("ruling: benchmarks/moderation_ruling_bench.py is not on this branch")
    return f"evidence {_figures(now.complete)}; ruling {_figures(rulings or [])}"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    summary = in_django_of_its_own(
        "bench-moderation",
        args.database_suffix,
        args.redis_db,
        args.keep_db,
        lambda: measure(args),
    )
    print(summary)


if __name__ == "__main__":
    main()
