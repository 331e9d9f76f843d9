"""The lobby: setting up a table and taking its seats. The round starts when it is full."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import live
from games.errors import TableError
from games.models import BotLevel, Game, Notification, Seat, Table
from games.services import notifications
from games.services.locking import ensure_may_play, lock_seat_of_table, lock_table
from games.services.rounds import start_round
from games.table_settings import TableSettings


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


def create_table(creator: User, settings: TableSettings, seats: Sequence[SeatPlan]) -> Table:
    """A new table playing by ``settings``, with one seat per plan; the round starts at
    once if every seat is filled.

    The number of players comes from the seats, and so does the number of games when
    ``settings`` leaves it open. Raises :class:`~games.errors.TableError`.
    """
    _check_seats(seats)
    ruleset = settings.ruleset(players=len(seats))
    control = settings.time_control
    with transaction.atomic():
        table = Table.objects.create(
            creator=creator,
            preset=settings.preset,
            options=dict(settings.options),
            ruleset=ruleset.to_dict(),
            turn_seconds=control.turn_seconds,
            games_in_round=settings.games_for(len(seats)),
            clock=settings.clock,
            time_bank_seconds=control.bank_seconds,
            timeouts_to_forfeit=settings.timeouts_to_forfeit,
            on_forfeit=settings.on_forfeit,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table, number=number, kind=plan.kind, user=plan.user, bot_level=plan.bot_level
            )
            for number, plan in enumerate(seats)
        )
        notifications.invited(table, creator)
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
        ensure_may_play(user, table)
        seats = list(table.seats.order_by("number"))
        if any(seat.user_id == user.pk and seat.kind == Seat.Kind.PLAYER for seat in seats):
            raise TableError("You already have a seat at this table.")
        seat = _seat_for(seats, user, seat_number)
        seat.kind, seat.user = Seat.Kind.PLAYER, user
        seat.save(update_fields=["kind", "user"])
        notifications.seats_changed(table, timezone.now())
        if all(seat.is_filled for seat in seats):
            start_round(table, timezone.now())
    return table


def replace_seat_player(table_id: int, seat_number: int, user: User) -> Seat:
    """Hand seat ``seat_number`` to ``user``: an authority above the table (a league's
    organiser seating a substitute) replaces the member who sat or was invited there.

    The seat keeps everything that is the seat's (its tiles, its place in the round, its
    time bank); only who plays it changes, with its count of turns run out in a row
    starting again. Raises :class:`~games.errors.TableError` for a finished round, a
    bot's or open seat, or a member who has another seat at the table.
    """
    with transaction.atomic():
        # The game in play is held too: a move under way is made wholly by the old
        # player, or the new one makes it.
        game, table, seat = lock_seat_of_table(table_id, seat_number)
        if table.status == Table.Status.FINISHED:
            raise TableError("This table's round is over.")
        if seat is None:
            raise TableError(f"There is no seat {seat_number} at this table.")
        if seat.kind not in (Seat.Kind.PLAYER, Seat.Kind.RESERVED):
            raise TableError("Only a member's seat can be handed to another member.")
        if Seat.objects.filter(table=table, user=user).exclude(pk=seat.pk).exists():
            raise TableError(f"{user} already has a seat at this table.")
        previous = seat.user_id
        seat.user, seat.timeouts_in_a_row = user, 0
        seat.save(update_fields=["user", "timeouts_in_a_row"])
        now = timezone.now()
        notifications.seats_changed(table, now)
        notifications.invited(table, table.creator)
        if game is not None:
            _hand_over_turn(game, seat, previous, now)
    return seat


def _hand_over_turn(game: Game, seat: Seat, previous: int | None, now: datetime) -> None:
    """The game's pages show the new player; if it is the seat's turn, the new player is
    told and the old one's notice of it needs nothing more."""
    if game.current_seat == seat.number and game.table.clock == Table.Clock.CORRESPONDENCE:
        if previous is not None:
            Notification.objects.filter(
                notifications.about(game), user_id=previous, read_at=None
            ).update(read_at=now)
        assert seat.user_id is not None
        notifications.turn_started(game, seat.user_id)
    transaction.on_commit(partial(live.publish_changed, game.pk, game.version), robust=True)
    for user_id in (previous, seat.user_id):
        transaction.on_commit(partial(live.publish_user, user_id), robust=True)


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
