"""The lobby: setting up a table and taking its seats. The round starts when it is full."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from common.publish import publish_user
from common.signals import send_after_commit
from games import live, signals
from games.errors import NotFound, TableError
from games.models import BotLevel, Game, Seat, Table
from games.models.table_settings import TableSettings
from games.services import notifications
from games.services.locking import ensure_may_play, lock_seat_of_table, lock_table
from games.services.occupancy import record_change_at_table
from games.services.page_versions import game_shown_anew
from games.services.rounds import start_round
from notifications.models import Notification
from notifications.services import notices


@dataclass(frozen=True)
class SeatPlan:
    """How a seat starts out when a table is created."""

    kind: Seat.Kind
    user: User | None = None
    bot_level: str = ""
    plays_for: User | None = None
    """The member whose place the seat's player takes (:attr:`Seat.plays_for`)."""
    forfeits_each_game: bool = False
    """The seat forfeits every game as it is dealt (:attr:`Seat.forfeits_each_game`)."""

    @classmethod
    def open(cls) -> SeatPlan:
        """A seat anyone may take."""
        return cls(Seat.Kind.OPEN)

    @classmethod
    def reserved_for(cls, user: User) -> SeatPlan:
        """A seat kept for an invited member until they join."""
        return cls(Seat.Kind.RESERVED, user)

    @classmethod
    def taken_by(cls, user: User, plays_for: User | None = None) -> SeatPlan:
        """A seat taken at once (the creator's own), for ``plays_for`` if given."""
        return cls(Seat.Kind.PLAYER, user, plays_for=plays_for)

    @classmethod
    def bot(cls, level: str, plays_for: User | None = None) -> SeatPlan:
        """A bot of level ``easy``, ``normal`` or ``strong``, for ``plays_for`` if given."""
        return cls(Seat.Kind.BOT, bot_level=level, plays_for=plays_for)

    @classmethod
    def forfeiting(cls, user: User, plays_for: User | None = None) -> SeatPlan:
        """``user``'s seat (for ``plays_for`` if given), which forfeits every game of the
        round as it is dealt: an authority above the table keeps the seat for a member
        who left the competition (its results are theirs), and nobody waits for them."""
        return cls(Seat.Kind.PLAYER, user, plays_for=plays_for, forfeits_each_game=True)


def create_table(
    creator: User,
    settings: TableSettings,
    seats: Sequence[SeatPlan],
    *,
    seated_by_authority: bool = False,
    private: bool = False,
) -> Table:
    """A new table playing by ``settings``, with one seat per plan; the round starts at
    once if every seat is filled.

    The number of players comes from the seats, and so does the number of games when
    ``settings`` leaves it open. Raises :class:`~games.errors.TableError`, or
    :class:`~games.errors.Barred` when the creator takes a seat that ``GAMES_PLAY_POLICY``
    keeps them from (a suspension). ``seated_by_authority``: the seats are given by an
    authority above the table (a league's fixture, whose creator is an organiser who may
    play in it), so nobody is asked. ``private``: only those seated or invited see it
    (``games.selectors.sight``), so it has no open seat that nobody could find.
    """
    _check_seats(seats, private)
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
            weekend_pause=control.weekend_pause,
            timeouts_to_forfeit=settings.timeouts_to_forfeit,
            on_forfeit=settings.on_forfeit,
            private=private,
        )
        # Asked of the new table, which the refusal rolls back with the transaction: the
        # policy decides by the table, and a creator who sits down takes a seat like anyone.
        seated = any(plan.kind == Seat.Kind.PLAYER and plan.user == creator for plan in seats)
        if seated and not seated_by_authority:
            ensure_may_play(creator, table)
        Seat.objects.bulk_create(
            Seat(
                table=table,
                number=number,
                kind=plan.kind,
                user=plan.user,
                bot_level=plan.bot_level,
                plays_for=plan.plays_for,
                forfeits_each_game=plan.forfeits_each_game,
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


PLAY_NOW_BOT = BotLevel.NORMAL
"""The bot that sits down when nobody came to play now."""


def play_now(user: User) -> Table:
    """Seat ``user`` for a live game at once: at the open live table that has waited
    longest for a player (not one of a league's fixtures), or, when none waits, at a new
    two-seat table of the standard rules where a bot takes the other seat unless a
    member comes within ``GAMES_PLAY_NOW_BOT_SECONDS``.

    Asking again while their own such table waits finds that table again. A member
    ``GAMES_PLAY_POLICY`` keeps from these tables (a site suspension) is refused with
    :class:`~games.errors.Barred` wherever they would sit, and nothing changes.
    """
    with transaction.atomic():
        mine = _waiting_tables().filter(creator=user, seats__user=user).first()
        if mine is not None:
            return mine
        # The oldest table first; skip a row another member is taking right now rather
        # than queue behind them (they may fill it).
        others = (
            _waiting_tables()
            .filter(seats__kind=Seat.Kind.OPEN)
            .exclude(seats__user=user)
            .order_by("created_at", "pk")
        )
        for table_id in others.values_list("pk", flat=True).distinct()[:5]:
            try:
                return join_table(table_id, user)
            except TableError:
                continue  # filled or started meanwhile: the next one
        table = create_table(user, TableSettings(), [SeatPlan.taken_by(user), SeatPlan.open()])
        send_after_commit(signals.opponent_sought, Table, table_id=table.pk)
    return table


def seat_bot_if_still_waiting(table_id: int) -> Table | None:
    """Nobody came to play now at ``table_id``: a bot takes its open seats and the round
    starts. Nothing (``None``) if the table is gone, or no longer waiting."""
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except NotFound:
            return None
        open_seats = table.seats.filter(kind=Seat.Kind.OPEN)
        if table.status != Table.Status.OPEN or not open_seats.exists():
            return None
        open_seats.update(kind=Seat.Kind.BOT, bot_level=PLAY_NOW_BOT)
        if all(seat.is_filled for seat in table.seats.all()):
            start_round(table, timezone.now())
    return table


def _waiting_tables() -> QuerySet[Table]:
    return Table.objects.filter(status=Table.Status.OPEN, clock=Table.Clock.LIVE, belongs_to="")


def play_again(table_id: int, user: User) -> Table:
    """A new table like the finished ``table_id``, with the same seats: ``user`` sits
    where they sat, the other members are invited to their seats, bots stay bots.

    The first player to ask sets it up; the others asking after them are seated at that
    one (their reserved seat), so a round's players meet again at one table. Raises
    :class:`~games.errors.TableError`.
    """
    with transaction.atomic():
        # Locked so that two players asking at once make one table between them.
        old = lock_table(table_id)
        seats = list(old.seats.select_related("user", "replaced_user").order_by("number"))
        if old.status != Table.Status.FINISHED:
            raise TableError("This table's round is not over yet.")
        if old.belongs_to:
            raise TableError(f"This table is part of {old.belongs_to}: play on there.")
        members = [_member_of(seat) for seat in seats]
        if user.pk not in {member.pk for member in members if member is not None}:
            raise TableError("Only the players of this table can play again at it.")
        unfinished = old.rematches.exclude(status=Table.Status.FINISHED)
        again = unfinished.filter(seats__user=user).order_by("-pk").first()
        if again is not None:
            if again.seats.filter(user=user, kind=Seat.Kind.RESERVED).exists():
                return join_table(again.pk, user)
            return again
        plans = [
            SeatPlan.bot(seat.bot_level)
            if member is None
            else SeatPlan.taken_by(user)
            if member.pk == user.pk
            else SeatPlan.reserved_for(member)
            for seat, member in zip(seats, members, strict=True)
        ]
        table = create_table(user, TableSettings.of_table(old), plans, private=old.private)
        Table.objects.filter(pk=table.pk).update(rematch_of=old)
    return table


def _member_of(seat: Seat) -> User | None:
    """The member a seat belongs to: who sat there, or who left it to a bot."""
    if seat.kind == Seat.Kind.BOT:
        return seat.replaced_user
    return seat.user


def change_seat(table_id: int, user: User, number: int, plan: SeatPlan) -> Table:
    """The creator of a waiting table changes seat ``number``, one no member sits in:
    open to anyone, a bot, or kept for an invited member. A table whose last seat this
    fills (a bot's) starts. Raises :class:`~games.errors.TableError`."""
    with transaction.atomic():
        # Locked: a member taking this seat meanwhile is served first, or after.
        table = lock_table(table_id)
        if table.creator_id != user.pk:
            raise TableError("Only the member who set up this table can change its seats.")
        if table.status != Table.Status.OPEN or table.belongs_to:
            raise TableError("The seats of this table can no longer be changed.")
        seats = list(table.seats.order_by("number"))
        seat = next((s for s in seats if s.number == number), None)
        if seat is None:
            raise TableError(f"There is no seat {number} at this table.")
        if seat.kind == Seat.Kind.PLAYER or plan.kind == Seat.Kind.PLAYER:
            raise TableError("A member sits there: only an empty seat can be changed.")
        others = [SeatPlan(Seat.Kind(s.kind), s.user, s.bot_level) for s in seats if s is not seat]
        _check_seats([*others, plan], table.private)
        seat.kind, seat.user, seat.bot_level = plan.kind, plan.user, plan.bot_level
        seat.save(update_fields=["kind", "user", "bot_level"])
        now = timezone.now()
        notifications.seats_changed(table, now)
        notifications.invited(table, user)
        if all(s.is_filled for s in seats):
            start_round(table, now)
    return table


def cancel_table(table_id: int, user: User) -> None:
    """Call off a table that is still waiting for players: only its creator may, and
    not a table that is part of something else (a league's fixture). The table goes,
    with its seats; the invitations to it are withdrawn. Raises
    :class:`~games.errors.TableError`."""
    with transaction.atomic():
        # Locked so that a member taking the last seat meanwhile either starts the round
        # first (and the table is no longer waiting) or finds it gone.
        table = lock_table(table_id)
        if table.creator_id != user.pk:
            raise TableError("Only the member who set up this table can call it off.")
        if table.status != Table.Status.OPEN:
            raise TableError("This table is no longer waiting: its round has started.")
        if table.belongs_to:
            raise TableError(f"This table is part of {table.belongs_to}: it cannot be called off.")
        members = set(table.seats.exclude(user=None).values_list("user_id", flat=True))
        Notification.objects.filter(notices.about(table)).delete()
        table.delete()
    for member in members:
        transaction.on_commit(partial(publish_user, member), robust=True)


def free_waiting_seat(table_id: int, user_id: int) -> bool:
    """An authority above the table (a suspension) takes the member's seat at a table
    still waiting for players: the seat is open again. Returns whether it did (``False``:
    the round was dealt meanwhile, or they sit there no longer)."""
    with transaction.atomic():
        # Locked: a member taking the last seat meanwhile deals the round first (and
        # the seat is a game's, for the suspension's rule), or finds this one open.
        table = lock_table(table_id)
        if table.status != Table.Status.OPEN:
            return False
        seat = table.seats.filter(user_id=user_id, kind=Seat.Kind.PLAYER).first()
        if seat is None:
            return False
        seat.kind, seat.user = Seat.Kind.OPEN, None
        seat.save(update_fields=["kind", "user"])
        notifications.seats_changed(table, timezone.now())
    transaction.on_commit(partial(publish_user, user_id), robust=True)
    return True


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
        record_change_at_table(game, seat)
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
            Notification.objects.filter(notices.about(game), user_id=previous, read_at=None).update(
                read_at=now
            )
        assert seat.user_id is not None
        notifications.turn_started(game, seat.user_id)
    game_shown_anew(game)
    transaction.on_commit(partial(live.publish_changed, game.pk, game.version), robust=True)
    for user_id in (previous, seat.user_id):
        transaction.on_commit(partial(publish_user, user_id), robust=True)


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


PRIVATE_OPEN_SEAT = (
    "A private table is seen only by its players and the members invited to it, so nobody "
    "would find an open seat: invite a member or seat a bot."
)


def _check_seats(seats: Sequence[SeatPlan], private: bool = False) -> None:
    if private and any(plan.kind == Seat.Kind.OPEN for plan in seats):
        raise TableError(PRIVATE_OPEN_SEAT)
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
