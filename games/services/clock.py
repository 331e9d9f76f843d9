"""The turn clock of a game, kept in the database: what :mod:`engine.clock` computes.

A turn's deadline is stored on the game (``turn_deadline``, and ``turn_reminder_at`` for
"time is running out"), so the sweeps find every turn that is due with one indexed
query. It is computed when the turn starts (:func:`start_turn_clock`) and again whenever
a vacation of the player changes (:func:`reclock_turn`); when the turn ends, the seat's
time bank is settled (:func:`end_turn_clock`). These run inside the transaction of the
move, with the game row locked; the clock's tasks are queued by the receivers of the
signals sent after commit (:func:`announce_turn`, and :data:`~games.signals.turn_reclocked`
from :func:`reclock_turn`). The game page reads the clock through
:mod:`games.selectors.clock`, which also maps a table's settings to its
:class:`~engine.clock.TimeControl` (:func:`~games.selectors.clock.time_control`).

At a table that pauses on weekends the clock also stands still from Saturday 00:00 to
Monday 00:00 in the mover's zone: the zone they had when the turn started, kept on the
game (``turn_zone``) so that every later computation of the same turn (a vacation's
reclock, the bank's settling, a moderator's release) uses it. A member who changes zone
mid-turn moves no deadline: their next turn is counted in the new zone.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import F

from common.signals import send_after_commit
from engine.clock import (
    Pause,
    active_seconds,
    bank_after_turn,
    instant_after,
    turn_clock,
    weekend_zone_of,
)
from games import signals
from games.models import Game, Seat, Vacation
from games.selectors.clock import time_control, turn_zone
from games.selectors.vacations import GRACE
from games.services.page_versions import game_shown_anew


def pauses_of(user_id: int | None, since: datetime) -> list[Pause]:
    """The member's vacations that end after ``since`` (the clock may stop in them).

    A vacation shorter than :data:`~games.selectors.vacations.GRACE` (ended within it of
    its start) takes no day from the allowance, so it stops no clock either: else ending
    one after 59 minutes, every hour, would keep an opponent waiting without end, for
    free (review wave 3, S10). What stops the clock is what the allowance is charged."""
    if user_id is None:
        return []
    vacations = Vacation.objects.filter(
        user_id=user_id, ends_at__gt=since, ends_at__gte=F("starts_at") + GRACE
    )
    return list(vacations.values_list("starts_at", "ends_at"))


def start_turn_clock(game: Game, now: datetime) -> None:
    """Start the clock of ``game``'s current turn at ``now`` (the game is not saved).

    Only a person at a correspondence table gets a reminder, and only their clock stops
    for their vacations: live games are played while everyone is there, and a bot is
    never away.
    """
    seat = _current_seat(game)
    game.turn_started_at = now
    game.turn_zone = ""
    if seat is None:
        game.turn_deadline = game.turn_reminder_at = None
        return
    control = time_control(game.table)
    person = seat.kind == Seat.Kind.PLAYER and control.is_correspondence
    pauses = pauses_of(seat.user_id, now) if person else []
    if person and control.weekend_pause and seat.user is not None:
        game.turn_zone = seat.user.zone.key
    clock = turn_clock(control, now, seat.bank_seconds, pauses, turn_zone(game))
    game.turn_deadline = clock.deadline
    game.turn_reminder_at = clock.reminder_at if person else None


def announce_turn(game: Game) -> None:
    """After commit, announce the turn ``game`` is now in, with its clock: it has just
    started (the game is saved). Its tasks and notifications follow from the signal."""
    signals.send_about_game(
        signals.turn_started,
        game,
        seat=game.current_seat,
        clock=game.table.clock,
        **_turn_clock(game),
    )


def reclock_turn(game: Game, now: datetime) -> bool:
    """Compute the current turn's deadline again (the player's vacations changed); the
    game must be locked. Returns whether anything changed; saves if so.

    The reminder is recomputed only if it is still to come: one already sent stays sent.
    """
    seat = _current_seat(game)
    if game.is_over or seat is None:
        return False
    control = time_control(game.table)
    if not control.is_correspondence or seat.kind != Seat.Kind.PLAYER:
        return False
    pauses = pauses_of(seat.user_id, game.turn_started_at)
    zone = turn_zone(game)
    clock = turn_clock(control, game.turn_started_at, seat.bank_seconds, pauses, zone)
    reminder = game.turn_reminder_at if game.turn_reminder_at is None else clock.reminder_at
    if (game.turn_deadline, game.turn_reminder_at) == (clock.deadline, reminder):
        return False
    game.turn_deadline, game.turn_reminder_at = clock.deadline, reminder
    game.save(update_fields=["turn_deadline", "turn_reminder_at"])
    game_shown_anew(game)
    send_after_commit(signals.turn_reclocked, Game, game_id=game.pk, **_turn_clock(game))
    return True


def resumed_deadline(game: Game, held_seconds: int, now: datetime) -> datetime:
    """The deadline of ``game``'s turn resumed at ``now`` after a moderator's hold that
    left ``held_seconds`` until its deadline (``game.held_at`` is when it was held).

    The time left is what the clock would have counted of them (without the player's
    vacations and weekends), counted again from ``now`` the same way: a hold released
    on a Saturday gives the player their time from Monday, as if there had been none.
    """
    assert game.held_at is not None
    seat = _current_seat(game)
    control = time_control(game.table)
    person = seat is not None and seat.kind == Seat.Kind.PLAYER and control.is_correspondence
    pauses = pauses_of(seat.user_id, game.held_at) if person and seat is not None else []
    weekends = weekend_zone_of(control, turn_zone(game))
    held_until = game.held_at + timedelta(seconds=held_seconds)
    left = active_seconds(game.held_at, held_until, pauses, weekends)
    return instant_after(now, left, pauses, weekends)


def end_turn_clock(game: Game, seat_number: int, now: datetime) -> None:
    """Settle the bank of the seat whose turn ends now: unused time in, overtime out.

    Runs before the game's clock fields move on to the next turn: the turn's length is
    measured from its ``turn_started_at``, without the player's vacations and (at a
    table that pauses on weekends) the weekends of the turn's zone.
    """
    control = time_control(game.table)
    if control.bank_seconds == 0:
        return
    seat = Seat.objects.filter(table_id=game.table_id, number=seat_number).first()
    if seat is None:
        return
    pauses = pauses_of(seat.user_id, game.turn_started_at) if control.is_correspondence else []
    weekends = weekend_zone_of(control, turn_zone(game))
    used = active_seconds(game.turn_started_at, now, pauses, weekends)
    bank = bank_after_turn(control, seat.bank_seconds, used)
    if bank != seat.bank_seconds:
        Seat.objects.filter(pk=seat.pk).update(bank_seconds=bank)


def _turn_clock(game: Game) -> dict[str, Any]:
    """What the signals of a turn's clock tell: the turn, and its clock as it stands."""
    return {
        "turn_number": game.turn_number,
        "deadline": game.turn_deadline,
        "reminder_at": game.turn_reminder_at,
    }


def _current_seat(game: Game) -> Seat | None:
    if game.current_seat is None:
        return None
    seats = Seat.objects.select_related("user")
    return seats.filter(table_id=game.table_id, number=game.current_seat).first()
