"""A game as its page and its pushes show it, read once per version: :class:`LiveGame`.

After a move every page open on the game renders it again: each player their own view,
the spectators one per zone (:mod:`games.consumers`), the mover the answer to their
request. What they all start from is the same: the committed state and what surrounds it
(the seats, who played them, the moves in words, the round's totals, the clock, the
result). So it is read once into a snapshot, and each render picks from it what its
reader may see (:func:`games.rendering.live_context`, no query).

A snapshot holds plain values only, never a model instance (a pickled ``Seat.user`` would
carry a password hash). It does hold the whole state, every rack and the pool, and every
seat's drawn tiles in its timeline: like the game row, it stays on the server. It is
never put in a template's context, never in a group message.

Where a snapshot comes from (:func:`live_game`): this process's memory, then the cache
(``live:game:<shape>:<id>:<version>``), then the database. The request or task that committed a
move seeds both (:func:`seed`, from :mod:`games.receivers` before the move's push goes
out), so the answer and every socket of every process render it without reading the
game again; a process that finds no entry (the cache evicted it, or is down) reads the
database, as before there was a cache: correct, only slower.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime

import redis
from django.core.cache import cache
from django.utils import timezone

from engine.state import GameState
from games.models import Game, Move, Result, Seat
from games.selectors.clock import Away, ClockFacts, SeatTime, seat_times, vacations_of
from games.selectors.move_log import GameTimeline, timeline
from games.selectors.players import GamePlayers, game_players
from games.selectors.rows import PublicGame, public_game
from games.selectors.seats import table_seats

logger = logging.getLogger(__name__)

CACHE_SECONDS = 120
"""How long a snapshot stays in the cache: the pushes of its move are rendered within
seconds; a page that connects later reads the database."""

KEPT = 512
"""How many games' snapshots this process keeps in memory (the newest of each)."""

SHAPE = 1
"""In the cache key: raise it when :class:`LiveGame` changes, so a process of the new
code never reads a snapshot pickled by the old one (during a deploy both run)."""


@dataclass(frozen=True)
class LiveSeat:
    """A seat of the table as the renders need it: who sits there (a member or a bot)."""

    number: int
    kind: str
    user_id: int | None


@dataclass(frozen=True)
class LiveGame:
    """A game at one version, with what its page shows around it, in plain values.

    ``row`` is the game's heading as anyone without a seat reads it, except that
    ``belongs_to`` there is the table's own (a reader's sight decides whether it is shown:
    :func:`games.selectors.sight.shown_belongs_to`). ``totals``: each seat's score in
    the round so far. ``vacations``: those of the seats' players that had not ended when
    it was read (the clock is computed at each render's moment).
    """

    game_id: int
    table_id: int
    version: int
    turn_number: int
    current_seat: int | None
    is_over: bool
    created_at: datetime
    private: bool
    state: GameState
    row: PublicGame
    players: GamePlayers
    seats: tuple[LiveSeat, ...]
    clock: ClockFacts
    seat_times: tuple[SeatTime, ...]
    vacations: tuple[Away, ...]
    totals: tuple[int, ...]
    timeline: GameTimeline

    @property
    def pk(self) -> int:
        return self.game_id

    def engine_state(self) -> GameState:
        """The whole state. Secret: hand only views of it to anything that renders."""
        return self.state

    def seat_of(self, user_id: int) -> int | None:
        """The seat the member plays in the game in play (the table's seat they sit in
        now), or played to the end of it once it is over (whoever sits there now)."""
        if self.is_over:
            return self.players.seat_of(user_id)
        return next(
            (s.number for s in self.seats if s.kind == Seat.Kind.PLAYER and s.user_id == user_id),
            None,
        )

    @property
    def turn_began(self) -> bool:
        """Whether this version's move began the turn in progress: nobody has built
        anything in it yet (no draft to read)."""
        shown = self.timeline.shown
        return not self.is_over and (not shown or shown[-1].turn != self.turn_number)


def snapshot(game: Game, seats: list[Seat] | None = None) -> LiveGame:
    """``game`` (with its table) as its pages show it, read from the database: the
    seats (``seats``: the table's in order, if already loaded), the record of who played,
    the moves (replayed once), the result, the round's totals, the players' vacations."""
    table = game.table
    if seats is None:
        seats = table_seats(game)
    record = game_players(game, len(seats))
    facts = ClockFacts.of(game)
    times = seat_times(seats)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    return LiveGame(
        game_id=game.pk,
        table_id=game.table_id,
        version=game.version,
        turn_number=game.turn_number,
        current_seat=game.current_seat,
        is_over=game.is_over,
        created_at=game.created_at,
        private=table.private,
        state=game.engine_state(),
        row=_row(game, seats, record),
        players=record,
        seats=tuple(LiveSeat(s.number, s.kind, s.user_id) for s in seats),
        clock=facts,
        seat_times=times,
        vacations=vacations_of(facts, times, timezone.now()),
        totals=round_totals(game),
        timeline=timeline(game, moves, record),
    )


def _row(game: Game, seats: list[Seat], record: GamePlayers) -> PublicGame:
    """The heading as a spectator reads it, with the table's own ``belongs_to``."""
    table = game.table
    row = public_game(game, None, seats, record)
    return replace(row, belongs_to=table.belongs_to, belongs_to_link=table.belongs_to_link)


def round_totals(game: Game) -> tuple[int, ...]:
    """Each seat's score in the round so far. Results are written when a game ends, so
    while the round's first game is in play there is nothing to read (every page of a
    one-game table, and every push of its moves, is spared the query)."""
    if game.number == 1 and not game.is_over:
        return (0,) * game.engine_state().ruleset.players
    return Result.objects.counting().of_table(game.table_id).totals(game.table)


class LiveGames:
    """The snapshots this process read or made last, the newest per game, so that the
    renders a move sets off here read nothing (:data:`kept`)."""

    def __init__(self, size: int = KEPT) -> None:
        self._size = size
        self._games: OrderedDict[int, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> LiveGame | None:
        """The kept snapshot of the game at ``version`` or newer."""
        with self._lock:
            kept = self._games.get(game_id)
        return kept if kept is not None and kept.version >= version else None

    def keep(self, live: LiveGame) -> None:
        """Keep ``live`` unless a newer one of its game is kept (an older one is not a
        step back: a render for an earlier version shows the newer state)."""
        with self._lock:
            kept = self._games.get(live.game_id)
            if kept is None or kept.version <= live.version:
                self._games[live.game_id] = live
                self._games.move_to_end(live.game_id)
            while len(self._games) > self._size:
                self._games.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


kept = LiveGames()


def cache_key(game_id: int, version: int) -> str:
    return f"live:game:{SHAPE}:{game_id}:{version}"


def seed(live: LiveGame) -> None:
    """Keep ``live`` in this process and put it in the cache for the others. The cache
    may be down: the others then read the database."""
    kept.keep(live)
    try:
        cache.set(cache_key(live.game_id, live.version), live, CACHE_SECONDS)
    except redis.RedisError:
        logger.warning("snapshot of game %s not cached: Redis unavailable", live.game_id)


def live_game(game_id: int, version: int | None = None) -> LiveGame | None:
    """The game at ``version`` or newer, from memory, the cache or the database (in that
    order); ``version=None``: as it is now, from the database (a page connects, the
    clock changed without a move). ``None`` if there is no such game."""
    if version is not None:
        found = kept.get(game_id, version) or _cached(game_id, version)
        if found is not None:
            return found
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    live = snapshot(game)
    kept.keep(live)
    return live


def _cached(game_id: int, version: int) -> LiveGame | None:
    try:
        found = cache.get(cache_key(game_id, version))
    except redis.RedisError:
        logger.warning("snapshot of game %s not read: Redis unavailable", game_id)
        return None
    if not isinstance(found, LiveGame):
        return None
    kept.keep(found)
    return found
