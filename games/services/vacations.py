"""Vacations: a member's correspondence clocks stand still while they are away.

Each member has ``GAMES_VACATION_DAYS_PER_YEAR`` days a year (14 unless configured); a
vacation counts against the year it starts in, one day for each day or part of a day
it lasts (none if it ends within an hour of its start). It starts at once or at midnight
of a chosen date (in the request's time zone: the member's), and it ends early - only
the days used so far are counted - when the member asks, or when they make a move in a
correspondence game.
Live games are not affected.

The deadlines of the member's correspondence turns already allow for every vacation
they know of (:mod:`games.services.clock`); whenever a vacation is planned or ends early
those deadlines are computed again (:func:`reclock_games_of`, in a task queued by a
receiver of :data:`~games.signals.vacation_changed`), each game under its own lock, and
the watchers are told. The vacation page reads the allowance and the vacations from
:mod:`games.selectors.vacations`.
"""

from __future__ import annotations

from datetime import date, datetime, time

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from games import signals
from games.conf import vacation_days_per_year, vacation_policy
from games.errors import GameActionError
from games.models import Game, Seat, Table, Vacation
from games.selectors.vacations import DAY, days_used
from games.services.clock import reclock_turn
from games.services.locking import lock_game, lock_member, lock_vacation_in_progress


class VacationError(GameActionError):
    """A vacation that cannot be planned (too long, overlapping, in the past...)."""

    code = "vacation"


def plan_vacation(user: User, days: int, starts_on: date | None = None) -> Vacation:
    """A vacation of ``days`` days from now, or from midnight of ``starts_on``.

    Raises :class:`VacationError` for a date in the past, a vacation that overlaps
    another, more days than are left in that year's allowance, or one the site's
    ``GAMES_VACATION_POLICY`` refuses (:func:`games.conf.vacation_policy`).
    """
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationError("A vacation lasts at least one whole day.")
    now = timezone.now()
    if starts_on is None:
        starts_at = now
    else:
        if starts_on < timezone.localdate(now):
            raise VacationError("A vacation cannot start in the past.")
        starts_at = max(now, timezone.make_aware(datetime.combine(starts_on, time.min)))
    ends_at = starts_at + days * DAY
    year = timezone.localtime(starts_at).year
    with transaction.atomic():
        lock_member(user.pk)
        overlapping = Vacation.objects.filter(
            user=user, starts_at__lt=ends_at, ends_at__gt=starts_at
        )
        if overlapping.exists():
            raise VacationError("You already have a vacation at that time.")
        left = vacation_days_per_year() - days_used(user, year)
        if days > left:
            raise VacationError(f"You have {max(left, 0)} vacation days left in {year}.")
        # Under the member's lock, like the yearly allowance: two requests at once cannot
        # both pass a policy's count of the days taken.
        policy = vacation_policy()
        refusal = policy(user, starts_at, ends_at) if policy is not None else None
        if refusal:
            raise VacationError(refusal)
        vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
        _reclock_after_commit(user.pk)
    return vacation


def end_vacation(user: User) -> Vacation | None:
    """End the vacation in progress now; returns it, or ``None`` if there was none."""
    with transaction.atomic():
        now = timezone.now()
        vacation = lock_vacation_in_progress(user.pk, now)
        if vacation is None:
            return None
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
        _reclock_after_commit(user.pk)
    return vacation


def cancel_vacation(user: User, vacation_id: int) -> None:
    """Call off a planned vacation that has not begun (its days are given back)."""
    with transaction.atomic():
        deleted, _ = Vacation.objects.filter(
            pk=vacation_id, user=user, starts_at__gt=timezone.now()
        ).delete()
        if not deleted:
            raise VacationError("There is no such planned vacation.")
        _reclock_after_commit(user.pk)


def end_vacation_on_move(user_id: int, now: datetime) -> bool:
    """The member moved in a correspondence game: a vacation in progress ends now.

    Runs in the move's transaction. The member's other games are clocked again after
    commit, each under its own lock (taking them here could deadlock with a move in one
    of them that waits for this game).
    """
    ended = Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).update(
        ends_at=now
    )
    if ended:
        _reclock_after_commit(user_id)
    return bool(ended)


def reclock_games_of(user_id: int) -> list[int]:
    """Compute again the deadlines of the correspondence turns that are ``user_id``'s;
    returns the games whose clock changed. Each game is locked in its own transaction."""
    games = (
        Game.objects.active()
        .awaiting(User(pk=user_id))
        .filter(table__clock=Table.Clock.CORRESPONDENCE)
        .values_list("pk", flat=True)
    )
    changed = []
    for game_id in list(games):
        with transaction.atomic():
            game = lock_game(game_id)
            seat = Seat.objects.filter(
                table_id=game.table_id, number=game.current_seat or 0, kind=Seat.Kind.PLAYER
            ).first()
            if game.current_seat is None or seat is None or seat.user_id != user_id:
                continue
            # Announced by reclock_turn after commit: the clock's tasks are queued for
            # the new deadline and the watchers told.
            if reclock_turn(game, seat, timezone.now()):
                changed.append(game_id)
    return changed


def _reclock_after_commit(user_id: int) -> None:
    # The deadlines are computed again after commit, each game under its own lock, by
    # a task the signal's receiver queues: taking the games' locks in this transaction
    # (which may be a move's, holding its game) could deadlock with a move in another.
    send_after_commit(signals.vacation_changed, Vacation, user_id=user_id)
