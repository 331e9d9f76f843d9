"""The lobby: setting up a table and taking its seats. The round starts when it is full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine.ruleset import PRESETS, Ruleset, RulesetError
from games.clock import DAY, HOUR
from games.errors import TableError
from games.models import BotLevel, Seat, Table
from games.services.locking import lock_table
from games.services.rounds import start_round

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 24 * 3600
MIN_CORRESPONDENCE_SECONDS = HOUR
MAX_CORRESPONDENCE_SECONDS = 14 * DAY
DEFAULT_CORRESPONDENCE_SECONDS = DAY
MAX_TIME_BANK_SECONDS = 14 * DAY
MAX_TIMEOUTS_TO_FORFEIT = 10
MAX_GAMES_IN_ROUND = 20


@dataclass(frozen=True)
class SeatPlan:
    """How a seat starts out when a table is created."""

    kind: Seat.Kind
    user: User | None = None
    bot_level: str = ""

    @classmethod
    def open(cls) -> SeatPlan:
        """A seat anyone may take."""
        return cls(Seat.Kind.OPEN)

    @classmethod
    def reserved_for(cls, user: User) -> SeatPlan:
        """A seat kept for an invited member until they join."""
        return cls(Seat.Kind.RESERVED, user)

    @classmethod
    def taken_by(cls, user: User) -> SeatPlan:
        """A seat taken at once (the creator's own)."""
        return cls(Seat.Kind.PLAYER, user)

    @classmethod
    def bot(cls, level: str) -> SeatPlan:
        """A bot of level ``easy``, ``normal`` or ``strong``."""
        return cls(Seat.Kind.BOT, bot_level=level)


def create_table(
    creator: User,
    seats: Sequence[SeatPlan],
    *,
    preset: str = "standard",
    options: Mapping[str, Any] | None = None,
    turn_seconds: int | None = None,
    games_in_round: int | None = None,
    clock: str = Table.Clock.LIVE,
    time_bank_seconds: int = 0,
    timeouts_to_forfeit: int = 3,
    on_forfeit: str = Table.OnForfeit.DROP_OUT,
) -> Table:
    """A new table with one seat per plan; the round starts at once if every seat is filled.

    ``options`` are ruleset options that differ from ``preset``. The number of players
    comes from the seats; ``games_in_round`` defaults to the number of seats.

    The clock: ``clock`` is ``"live"`` (``turn_seconds`` from 10 s to 24 h, by default the
    ruleset's turn time limit) or ``"correspondence"`` (from 1 hour to 14 days, by default
    a day; vacations stop it). ``time_bank_seconds`` is each seat's bank (0: none).
    After ``timeouts_to_forfeit`` turns in a row run out of time (1-10) a player forfeits
    the game; ``on_forfeit`` says whether they drop out (``"drop_out"``) or a bot takes
    the seat (``"bot"``). Raises :class:`~games.errors.TableError`.
    """
    options = dict(options or {})
    _check_seats(seats)
    if clock not in Table.Clock.values:
        raise TableError("A table's clock is live or correspondence.")
    if turn_seconds is None and clock == Table.Clock.CORRESPONDENCE:
        turn_seconds = options.get("turn_time_limit_s", DEFAULT_CORRESPONDENCE_SECONDS)
    ruleset = _ruleset(preset, options, len(seats), turn_seconds, clock)
    _check_forfeits(time_bank_seconds, timeouts_to_forfeit, on_forfeit)
    games = len(seats) if games_in_round is None else games_in_round
    if (
        isinstance(games, bool)
        or not isinstance(games, int)
        or not 1 <= games <= MAX_GAMES_IN_ROUND
    ):
        raise TableError(f"A round has between 1 and {MAX_GAMES_IN_ROUND} games.")
    with transaction.atomic():
        table = Table.objects.create(
            creator=creator,
            preset=preset,
            options=options,
            ruleset=ruleset.to_dict(),
            turn_seconds=ruleset.turn_time_limit_s,
            games_in_round=games,
            clock=clock,
            time_bank_seconds=time_bank_seconds,
            timeouts_to_forfeit=timeouts_to_forfeit,
            on_forfeit=on_forfeit,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table, number=number, kind=plan.kind, user=plan.user, bot_level=plan.bot_level
            )
            for number, plan in enumerate(seats)
        )
        if all(plan.kind in (Seat.Kind.PLAYER, Seat.Kind.BOT) for plan in seats):
            start_round(table, timezone.now())
    return table


def join_table(table_id: int, user: User, seat_number: int | None = None) -> Table:
    """Take seat ``seat_number`` (an open one, or the one reserved for ``user``); without a
    number, the seat reserved for ``user`` or else the first open one. The last seat
    filled starts the round. Raises :class:`~games.errors.TableError`."""
    with transaction.atomic():
        # Locked so that two members racing for the last seat, or for the same seat,
        # are served one after the other: each sees the seats the other took.
        table = lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise TableError("This table is no longer taking players.")
        seats = list(table.seats.order_by("number"))
        if any(seat.user_id == user.pk and seat.kind == Seat.Kind.PLAYER for seat in seats):
            raise TableError("You already have a seat at this table.")
        seat = _seat_for(seats, user, seat_number)
        seat.kind, seat.user = Seat.Kind.PLAYER, user
        seat.save(update_fields=["kind", "user"])
        if all(seat.is_filled for seat in seats):
            start_round(table, timezone.now())
    return table


def _seat_for(seats: list[Seat], user: User, number: int | None) -> Seat:
    if number is None:
        mine = [s for s in seats if s.kind == Seat.Kind.RESERVED and s.user_id == user.pk]
        free = mine or [s for s in seats if s.kind == Seat.Kind.OPEN]
        if not free:
            raise TableError("There is no open seat at this table.")
        return free[0]
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise TableError(f"There is no seat {number} at this table.")
    if seat.kind == Seat.Kind.RESERVED and seat.user_id != user.pk:
        raise TableError("This seat is kept for another member.")
    if seat.kind not in (Seat.Kind.OPEN, Seat.Kind.RESERVED):
        raise TableError("This seat is taken.")
    return seat


def _check_seats(seats: Sequence[SeatPlan]) -> None:
    if not 2 <= len(seats) <= 4:
        raise TableError("A table has 2, 3 or 4 seats.")
    members = [plan.user.pk for plan in seats if plan.user is not None]
    if len(members) != len(set(members)):
        raise TableError("A member can have only one seat at a table.")
    if all(plan.kind == Seat.Kind.BOT for plan in seats):
        raise TableError("At least one seat must be for a person.")
    for plan in seats:
        if plan.kind == Seat.Kind.BOT and plan.bot_level not in BotLevel.values:
            raise TableError(f"A bot is {', '.join(BotLevel.values)}; not {plan.bot_level!r}.")
        needs_user = plan.kind in (Seat.Kind.RESERVED, Seat.Kind.PLAYER)
        if needs_user != (plan.user is not None):
            raise TableError("Only a reserved or taken seat names a member.")


def _check_forfeits(bank: int, timeouts: int, on_forfeit: str) -> None:
    if not _whole(bank) or not 0 <= bank <= MAX_TIME_BANK_SECONDS:
        raise TableError(f"A time bank holds from 0 to {MAX_TIME_BANK_SECONDS // DAY} days.")
    if not _whole(timeouts) or not 1 <= timeouts <= MAX_TIMEOUTS_TO_FORFEIT:
        raise TableError(
            f"A player forfeits after 1 to {MAX_TIMEOUTS_TO_FORFEIT} timed-out turns in a row."
        )
    if on_forfeit not in Table.OnForfeit.values:
        raise TableError("A player who forfeits drops out, or a bot takes the seat.")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ruleset(
    preset: str,
    options: dict[str, Any],
    players: int,
    turn_seconds: int | None,
    clock: str = Table.Clock.LIVE,
) -> Ruleset:
    if preset not in PRESETS:
        raise TableError(f"Unknown rules {preset!r}; choose one of {', '.join(PRESETS)}.")
    if "players" in options:
        raise TableError("The number of players is the number of seats.")
    if turn_seconds is not None:
        if isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int):
            raise TableError("The time for a turn is a whole number of seconds.")
        options = {**options, "turn_time_limit_s": turn_seconds}
    try:
        ruleset = Ruleset.from_dict({**options, "players": players}, preset)
    except RulesetError as err:
        raise TableError(f"{str(err)[0].upper()}{str(err)[1:]}.") from None
    if clock == Table.Clock.CORRESPONDENCE:
        if (
            not MIN_CORRESPONDENCE_SECONDS
            <= ruleset.turn_time_limit_s
            <= MAX_CORRESPONDENCE_SECONDS
        ):
            raise TableError(
                "A correspondence turn lasts between 1 hour and "
                f"{MAX_CORRESPONDENCE_SECONDS // DAY} days."
            )
    elif not MIN_TURN_SECONDS <= ruleset.turn_time_limit_s <= MAX_TURN_SECONDS:
        raise TableError(
            f"A turn lasts between {MIN_TURN_SECONDS} seconds and {MAX_TURN_SECONDS // 3600} hours."
        )
    return ruleset
