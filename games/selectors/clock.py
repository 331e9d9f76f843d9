"""The clock of a game as its page shows it: the time control, each seat's bank, vacation
and timeouts in a row, and whether the turn's clock stands still; and a table's clock
settings as :mod:`engine.clock` takes them (:func:`time_control`), which the evidence of a
case rebuilds turns with. The deadlines themselves are computed by :mod:`engine.clock` and
kept by :mod:`games.services.clock`."""

from __future__ import annotations

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

    def seat(self, number: int) -> SeatClock | None:
        return next((s for s in self.seats if s.number == number), None)


def game_clock(
    game: Game, now: datetime, dropped: tuple[int, ...] = (), seats: list[Seat] | None = None
) -> GameClock:
    """The clock of ``game`` for its page (``dropped``: the engine state's dropped seats;
    ``seats``: the table's seats in order, when the caller has them already)."""
    table = game.table
    if seats is None:
        seats = in_seat_order(table)
    correspondence = table.clock == Table.Clock.CORRESPONDENCE
    user_ids = [s.user_id for s in seats if s.kind == Seat.Kind.PLAYER and s.user_id]
    vacations: dict[int, tuple[datetime, datetime]] = {}
    if correspondence and user_ids:
        upcoming = Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=now).order_by(
            "starts_at"
        )
        for user_id, starts_at, ends_at in upcoming.values_list("user_id", "starts_at", "ends_at"):
            vacations.setdefault(user_id, (starts_at, ends_at))
    infos = []
    for seat in seats:
        away = vacations.get(seat.user_id) if seat.user_id is not None else None
        infos.append(
            SeatClock(
                number=seat.number,
                bank_seconds=seat.bank_seconds,
                timeouts_in_a_row=seat.timeouts_in_a_row,
                vacation_from=away[0] if away else None,
                vacation_until=away[1] if away else None,
                on_vacation=away is not None and away[0] <= now,
                dropped=seat.number in dropped,
            )
        )
    current = next((s for s in infos if s.number == game.current_seat), None)
    paused = current.vacation_until if current is not None and current.on_vacation else None
    weekend = correspondence and table.weekend_pause
    return GameClock(
        kind=table.clock,
        bank_seconds=table.time_bank_seconds,
        timeouts_to_forfeit=table.timeouts_to_forfeit,
        deadline=None if game.is_over else game.turn_deadline,
        paused_until=None if game.is_over else paused,
        seats=tuple(infos),
        weekend_pause=weekend,
        weekend_until=weekend_end(game, now) if weekend else None,
        weekend_zone=game.turn_zone if weekend else "",
    )


def turn_zone(game: Game) -> ZoneInfo | None:
    """The zone whose weekends stop the clock of ``game``'s current turn: the mover's when
    it started, kept on the game; ``None`` when no weekend stops it (a live table, one
    that does not pause on weekends, a bot's turn). A zone the database no longer knows
    is UTC, as for the member (:attr:`accounts.models.User.zone`)."""
    if not (game.table.weekend_pause and game.turn_zone):
        return None
    try:
        return ZoneInfo(game.turn_zone)
    except (ValueError, LookupError):
        return ZoneInfo("UTC")


def weekend_end(game: Game, now: datetime) -> datetime | None:
    """When the weekend that stops ``game``'s turn clock at ``now`` ends, in the turn's
    zone; ``None`` when it runs (a weekday there, or a turn no weekend stops: a bot's, a
    game over or held by a moderator, whose clock waits for the release)."""
    zone = turn_zone(game)
    if game.is_over or game.held_at is not None or zone is None:
        return None
    return next((end for start, end in weekends(zone, now, now) if start <= now < end), None)
