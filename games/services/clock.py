"""The turn clock of a game, kept in the database: what :mod:`engine.clock` computes.

A turn's deadline is stored on the game (``turn_deadline``, and ``turn_reminder_at`` for
"time is running out"), so the sweeps find every turn that is due with one indexed
query. It is computed when the turn starts (:func:`turn_clock_for`) and again whenever
a vacation of the player changes (:func:`reclock_turn`); when the turn ends, the seat's
time bank is settled (:func:`settle_bank`). These run inside the transaction of the
move, with the game row locked, on the rows the move loaded (its seats, and the
players' vacations read once: :func:`vacations_of`), and write nothing themselves; the
clock's tasks are queued by the receivers of the signals sent after commit
(:func:`announce_turn`, and :data:`~games.signals.turn_reclocked` from
:func:`reclock_turn`). The game page reads the clock through
:mod:`games.selectors.clock`, which also maps a table's settings to its
:class:`~engine.clock.TimeControl` (:func:`~games.selectors.clock.time_control`).

At a table that pauses on weekends the clock also stands still from Saturday 00:00 to
Monday 00:00 in the mover's zone: the zone they had when the turn started, kept on the
game (``turn_zone``) so that every later computation of the same turn (a vacation's
reclock, the bank's settling, a moderator's release) uses it. A member who changes zone
mid-turn moves no deadline: their next turn is counted in the new zone.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

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
from games.selectors.forced import proof_wanted
from games.selectors.vacations import GRACE
from games.services.page_versions import game_shown_anew


def vacations_of(user_ids: Iterable[int], since: datetime) -> dict[int, list[Pause]]:
    """The vacations of these members that end after ``since``, by member, in one query:
    all of them, those too short to stop a clock too (:func:`stopping` picks the others;
    a vacation in progress ends with the member's move however short it is)."""
    found: dict[int, list[Pause]] = {}
    rows = Vacation.objects.filter(user_id__in=set(user_ids), ends_at__gt=since)
    for user_id, starts_at, ends_at in rows.values_list("user_id", "starts_at", "ends_at"):
        found.setdefault(user_id, []).append((starts_at, ends_at))
    return found


def stopping(vacations: Iterable[Pause], since: datetime) -> list[Pause]:
    """The ``vacations`` that stop a clock counted from ``since``: those that end after
    it and last at least :data:`~games.selectors.vacations.GRACE`.

    A vacation shorter than the grace (ended within it of its start) takes no day from
    the allowance, so it stops no clock either: else ending one after 59 minutes, every
    hour, would keep an opponent waiting without end, for free (review wave 3, S10).
    What stops the clock is what the allowance is charged."""
    return [(start, end) for start, end in vacations if end > since and end >= start + GRACE]


def pauses_of(user_id: int | None, since: datetime) -> list[Pause]:
    """The member's vacations that stop a clock counted from ``since`` (one query)."""
    if user_id is None:
        return []
    return stopping(vacations_of([user_id], since).get(user_id, []), since)


def turn_clock_for(
    game: Game, seat: Seat | None, now: datetime, pauses: list[Pause] | None = None
) -> None:
    """Start the clock of ``game``'s current turn, ``seat``'s, at ``now`` (the game is not
    saved). ``pauses``: the player's vacations that stop it, when the caller has read
    them (:func:`vacations_of`); ``None`` reads them here if they may stop it.

    Only a person at a correspondence table gets a reminder, and only their clock stops
    for their vacations: live games are played while everyone is there, and a bot is
    never away.
    """
    game.turn_started_at = now
    game.turn_zone = ""
    if seat is None:
        game.turn_deadline = game.turn_reminder_at = None
        return
    control = time_control(game.table)
    person = seat.kind == Seat.Kind.PLAYER and control.is_correspondence
    if not person:
        pauses = []
    elif pauses is None:
        pauses = pauses_of(seat.user_id, now)
    if person and control.weekend_pause and seat.user is not None:
        game.turn_zone = seat.user.zone.key
    clock = turn_clock(control, now, seat.bank_seconds, pauses, turn_zone(game))
    game.turn_deadline = clock.deadline
    game.turn_reminder_at = clock.reminder_at if person else None


def announce_turn(game: Game, seat: Seat | None) -> None:
    """After commit, announce the turn ``game`` is now in, ``seat``'s (as loaded, with
    its member), with its clock: it has just started (the game is saved). Its tasks and
    notifications follow from the signal, which tells them who plays the turn, so that
    they need not read it again."""
    member = seat.user_id if seat is not None and seat.kind == Seat.Kind.PLAYER else None
    signals.send_about_game(
        signals.turn_started,
        game,
        seat=game.current_seat,
        clock=game.table.clock,
        kind=seat.kind if seat is not None else "",
        member_id=member,
        wants_proof=proof_wanted(game, seat) is not None,
        **_turn_clock(game),
    )


def reclock_turn(game: Game, seat: Seat, now: datetime) -> bool:
    """Compute the current turn's deadline again (the player's vacations changed); the
    game must be locked and ``seat`` be the one whose turn it is. Returns whether
    anything changed; saves if so.

    The reminder is recomputed only if it is still to come: one already sent stays sent.
    """
    if game.is_over or game.current_seat != seat.number:
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


def resumed_deadline(game: Game, seat: Seat | None, held_seconds: int, now: datetime) -> datetime:
    """The deadline of ``game``'s turn (``seat``'s) resumed at ``now`` after a
    moderator's hold that left ``held_seconds`` until its deadline (``game.held_at`` is
    when it was held).

    The time left is what the clock would have counted of them (without the player's
    vacations and weekends), counted again from ``now`` the same way: a hold released
    on a Saturday gives the player their time from Monday, as if there had been none.
    """
    assert game.held_at is not None
    control = time_control(game.table)
    person = seat is not None and seat.kind == Seat.Kind.PLAYER and control.is_correspondence
    pauses = pauses_of(seat.user_id, game.held_at) if person and seat is not None else []
    weekends = weekend_zone_of(control, turn_zone(game))
    held_until = game.held_at + timedelta(seconds=held_seconds)
    left = active_seconds(game.held_at, held_until, pauses, weekends)
    return instant_after(now, left, pauses, weekends)


def settle_bank(game: Game, seat: Seat, pauses: list[Pause], now: datetime) -> int:
    """The bank of ``seat``, whose turn ends ``now``, once settled: unused time in,
    overtime out (nothing is written). ``pauses``: the player's vacations that stop the
    ended turn's clock.

    Before the game's clock fields move on to the next turn: the turn's length is
    measured from its ``turn_started_at``, without the player's vacations and (at a
    table that pauses on weekends) the weekends of the turn's zone, the one kept on the
    game for it, whatever the player's zone is now.
    """
    control = time_control(game.table)
    if control.bank_seconds == 0:
        return seat.bank_seconds
    stops = pauses if control.is_correspondence else []
    weekends = weekend_zone_of(control, turn_zone(game))
    used = active_seconds(game.turn_started_at, now, stops, weekends)
    return bank_after_turn(control, seat.bank_seconds, used)


def _turn_clock(game: Game) -> dict[str, Any]:
    """What the signals of a turn's clock tell: the turn, and its clock as it stands."""
    return {
        "turn_number": game.turn_number,
        "deadline": game.turn_deadline,
        "reminder_at": game.turn_reminder_at,
    }
