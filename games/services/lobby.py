"""The lobby: setting up a table and taking its seats. The round starts when it is full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine.ruleset import PRESETS, Ruleset, RulesetError
from games.errors import NotFound, TableError
from games.models import BotLevel, Seat, Table
from games.services.rounds import start_round

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 24 * 3600
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
) -> Table:
    """A new table with one seat per plan; the round starts at once if every seat is filled.

    ``options`` are ruleset options that differ from ``preset``. The number of players
    comes from the seats; ``turn_seconds`` defaults to the ruleset's turn time limit and
    ``games_in_round`` to the number of seats. Raises :class:`~games.errors.TableError`.
    """
    options = dict(options or {})
    _check_seats(seats)
    ruleset = _ruleset(preset, options, len(seats), turn_seconds)
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
        table = _lock_table(table_id)
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


def _lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("There is no such table.") from None


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


def _ruleset(
    preset: str, options: dict[str, Any], players: int, turn_seconds: int | None
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
    if not MIN_TURN_SECONDS <= ruleset.turn_time_limit_s <= MAX_TURN_SECONDS:
        raise TableError(
            f"A turn lasts between {MIN_TURN_SECONDS} seconds and {MAX_TURN_SECONDS // 3600} hours."
        )
    return ruleset
