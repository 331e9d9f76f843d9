"""The clock of a game as its page shows it: the time control, each seat's bank, vacation
and timeouts in a row, and whether the turn's clock stands still; and a table's clock
settings as :mod:`engine.clock` takes them (:func:`time_control`), which the evidence of a
case rebuilds turns with. The deadlines themselves are computed by :mod:`engine.clock` and
kept by :mod:`games.services.clock`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from engine.clock import LIVE, TimeControl, weekends
from games.models import Game, Seat, Table, Vacation
from games.selectors.seats import in_seat_order


def time_control(table: Table) -> TimeControl:
    """The table's clock settings as :mod:`engine.clock` wants them."""
    kind = LIVE if table.clock == Table.Clock.LIVE else "correspondence"
    return TimeControl(kind, table.turn_seconds, table.time_bank_seconds, table.weekend_pause)


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock as everyone at the game may see it."""

    number: int
    bank_seconds: int
    timeouts_in_a_row: int
    vacation_from: datetime | None
    """The start of the seat player's current or next vacation (correspondence only)."""
    vacation_until: datetime | None
    on_vacation: bool
    dropped: bool


@dataclass(frozen=True)
class GameClock:
    """What the game page shows about time: the table's kind of clock, its bank and its
    limit of timeouts in a row, each seat, the turn's deadline, and whether the clock of
    the turn in progress stands still (its player is on vacation, or it is the weekend
    in the zone of the turn)."""

    kind: str
    bank_seconds: int
    timeouts_to_forfeit: int
    deadline: datetime | None
    paused_until: datetime | None
    seats: tuple[SeatClock, ...]
    weekend_pause: bool = False
    """The table's clocks stand still at weekends, in the zone of the player to move."""
    weekend_until: datetime | None = None
    """The end of the weekend the turn's clock stands still in now (Monday 00:00)."""
    weekend_zone: str = ""
    """The zone of that weekend: the mover's when the turn started (``Game.turn_zone``)."""

    @property
    def is_correspondence(self) -> bool:
        return self.kind == Table.Clock.CORRESPONDENCE

    @property
    def stands_until(self) -> datetime | None:
        """When the turn's clock, standing still now (a vacation, a weekend, or both one
        after the other), counts again: the countdown shows the time left from then."""
        pauses = [until for until in (self.paused_until, self.weekend_until) if until]
        return max(pauses) if pauses else None

    def seat(self, number: int) -> SeatClock | None:
        return next((s for s in self.seats if s.number == number), None)


@dataclass(frozen=True)
class ClockFacts:
    """What a game's clock shows that the game row and its table say: plain values, so
    a snapshot of the game (:mod:`games.selectors.live`) keeps them and its renders
    compute the clock at their own moment (:func:`clock_at`)."""

    kind: str
    bank_seconds: int
    timeouts_to_forfeit: int
    weekend_pause: bool
    turn_zone: str
    deadline: datetime | None
    current_seat: int | None
    is_over: bool
    held: bool

    @classmethod
    def of(cls, game: Game) -> ClockFacts:
        table = game.table
        return cls(
            kind=table.clock,
            bank_seconds=table.time_bank_seconds,
            timeouts_to_forfeit=table.timeouts_to_forfeit,
            weekend_pause=table.clock == Table.Clock.CORRESPONDENCE and table.weekend_pause,
            turn_zone=game.turn_zone,
            deadline=game.turn_deadline,
            current_seat=game.current_seat,
            is_over=game.is_over,
            held=game.held_at is not None,
        )


@dataclass(frozen=True)
class SeatTime:
    """One seat's clock as the seat row has it (``user_id``: its player's, a member)."""

    number: int
    user_id: int | None
    bank_seconds: int
    timeouts_in_a_row: int


@dataclass(frozen=True)
class Away:
    """A member's vacation that had not ended when it was read."""

    user_id: int
    starts_at: datetime
    ends_at: datetime


def seat_times(seats: Sequence[Seat]) -> tuple[SeatTime, ...]:
    """The table's seats (in order) as their clocks read them."""
    return tuple(
        SeatTime(
            number=seat.number,
            user_id=seat.user_id if seat.kind == Seat.Kind.PLAYER else None,
            bank_seconds=seat.bank_seconds,
            timeouts_in_a_row=seat.timeouts_in_a_row,
        )
        for seat in seats
    )


def vacations_of(facts: ClockFacts, seats: Sequence[SeatTime], now: datetime) -> tuple[Away, ...]:
    """The vacations of the seats' players not over at ``now``, earliest first; only a
    correspondence clock stands still for one (a live game asks nothing)."""
    user_ids = [s.user_id for s in seats if s.user_id]
    if facts.kind != Table.Clock.CORRESPONDENCE or not user_ids:
        return ()
    upcoming = Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=now).order_by("starts_at")
    return tuple(
        Away(user_id, starts_at, ends_at)
        for user_id, starts_at, ends_at in upcoming.values_list("user_id", "starts_at", "ends_at")
    )


def game_clock(
    game: Game, now: datetime, dropped: tuple[int, ...] = (), seats: list[Seat] | None = None
) -> GameClock:
    """The clock of ``game`` for its page (``dropped``: the engine state's dropped seats;
    ``seats``: the table's seats in order, when the caller has them already)."""
    facts = ClockFacts.of(game)
    times = seat_times(in_seat_order(game.table) if seats is None else seats)
    return clock_at(facts, times, vacations_of(facts, times, now), dropped, now)


def clock_at(
    facts: ClockFacts,
    seats: Sequence[SeatTime],
    vacations: Sequence[Away],
    dropped: Sequence[int],
    now: datetime,
) -> GameClock:
    """The clock at ``now`` from what was read of it (no query): ``vacations`` read
    earlier (:func:`vacations_of`) count if they have not ended by ``now``."""
    away: dict[int, Away] = {}
    for vacation in vacations:
        if vacation.ends_at > now:
            away.setdefault(vacation.user_id, vacation)
    infos = []
    for seat in seats:
        gone = away.get(seat.user_id) if seat.user_id is not None else None
        infos.append(
            SeatClock(
                number=seat.number,
                bank_seconds=seat.bank_seconds,
                timeouts_in_a_row=seat.timeouts_in_a_row,
                vacation_from=gone.starts_at if gone else None,
                vacation_until=gone.ends_at if gone else None,
                on_vacation=gone is not None and gone.starts_at <= now,
                dropped=seat.number in dropped,
            )
        )
    current = next((s for s in infos if s.number == facts.current_seat), None)
    paused = current.vacation_until if current is not None and current.on_vacation else None
    weekend = facts.weekend_pause
    return GameClock(
        kind=facts.kind,
        bank_seconds=facts.bank_seconds,
        timeouts_to_forfeit=facts.timeouts_to_forfeit,
        deadline=None if facts.is_over else facts.deadline,
        paused_until=None if facts.is_over else paused,
        seats=tuple(infos),
        weekend_pause=weekend,
        weekend_until=weekend_end(facts, now) if weekend else None,
        weekend_zone=facts.turn_zone if weekend else "",
    )


def turn_zone(game: Game) -> ZoneInfo | None:
    """The zone whose weekends stop the clock of ``game``'s current turn: the mover's when
    it started, kept on the game; ``None`` when no weekend stops it (a live table, one
    that does not pause on weekends, a bot's turn). A zone the database no longer knows
    is UTC, as for the member (:attr:`accounts.models.User.zone`)."""
    if not (game.table.weekend_pause and game.turn_zone):
        return None
    return _zone_named(game.turn_zone)


def _zone_named(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, LookupError):
        return ZoneInfo("UTC")


def weekend_end(facts: ClockFacts, now: datetime) -> datetime | None:
    """When the weekend that stops the turn's clock at ``now`` ends, in the turn's zone;
    ``None`` when it runs (a weekday there, or a turn no weekend stops: a bot's, a game
    over or held by a moderator, whose clock waits for the release)."""
    if facts.is_over or facts.held or not (facts.weekend_pause and facts.turn_zone):
        return None
    zone = _zone_named(facts.turn_zone)
    return next((end for start, end in weekends(zone, now, now) if start <= now < end), None)
