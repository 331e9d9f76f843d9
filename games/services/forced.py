"""Forced turns that play themselves: a member's standing order to draw for them on a
turn where no legal play exists.

Three steps, each safe to run late, early or twice:

1. :func:`prove_turn` (a task on the bots' queue, queued when the turn starts): the
   exact solver, within its budget, decides whether the player has any legal play
   (:func:`engine.bots.check_for_play`). Only a proof that there is none writes a
   :class:`~games.models.ForcedTurn`; a play, or a budget that ran out, writes nothing.
   Members who answered the offer "no" are not asked about.
2. For a member who gave the order, a delay taken from the table's usual turn times
   (:func:`draw_delay`), so that the others cannot tell the draw from a considered
   one, kept with the proof (``draw_at``), then :func:`draw_for_member` (a task on the
   same queue, queued when the moment is within the horizon of queued tasks; the
   sweep, :func:`sweep_draws`, makes the draws whose task was lost or never queued).
3. :func:`draw_for_member`: under the game's lock, only if the game is still at the
   version the proof was made at (nobody moved since: the member did not play, the
   clock did not end the turn), the member's own draw is committed through the one
   move path as a move of :attr:`~games.models.Move.By.ORDER`, and they are told.

Never in a web request: the proof runs in the task, and a page only reads its rows.
The offer itself (:func:`answer_offer`) is the member's answer, from the game page.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.bots import PlayCheck, check_for_play
from engine.solver import Budget
from engine.views import view_for
from games.conf import forced_draw_bounds, forced_steps, help_seconds
from games.errors import GameActionError
from games.models import ForcedTurn, Game, Move, Seat
from games.selectors.forced import proof_wanted, recent_turn_seconds
from games.selectors.notifications import GameNotice
from games.services.move import load_for_player, make_move
from notifications.services.notices import create

logger = logging.getLogger("games.services")


@dataclass(frozen=True)
class Proof:
    """What :func:`prove_turn` found: the member whose turn it is, the game's version
    it was proven at, the solver's answer, and the row written when it proved no play."""

    member_id: int
    version: int
    check: PlayCheck
    forced_turn: ForcedTurn | None


def wants_proof(game: Game) -> int | None:
    """The member to prove the turn in progress for, if any
    (:func:`~games.selectors.forced.proof_wanted`: the rule, which a move applies to
    the seats it loaded and announces with the turn)."""
    if game.current_seat is None:
        return None
    seat = (
        Seat.objects.select_related("user")
        .filter(table_id=game.table_id, number=game.current_seat)
        .first()
    )
    return proof_wanted(game, seat)


def prove_turn(game_id: int, turn_number: int, budget: Budget | None = None) -> Proof | None:
    """Prove, on a snapshot of the game, whether turn ``turn_number`` has any play.

    Runs outside any lock (the solver may think for seconds; the turn clock must not
    wait): the proof is tied to the snapshot's version, and the draw is made only if
    the game is still at it. Returns ``None`` when there is nothing to prove (the turn
    is over, a bot's, a member who declined).
    """
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.turn_number != turn_number or game.held_at is not None:
        return None
    member_id = wants_proof(game)
    if member_id is None or game.current_seat is None:
        return None
    seat = game.current_seat
    view = view_for(game.engine_state(), seat)
    check = check_for_play(view, budget or Budget(steps=forced_steps(), seconds=help_seconds()))
    logger.info(
        "game %s: turn %s of seat %s: %s after %s steps",
        game_id,
        turn_number,
        seat,
        check.answer,
        check.steps,
    )
    if not check.forced:
        return Proof(member_id, game.version, check, None)
    forced = _record(game, seat, member_id, check)
    return Proof(member_id, game.version, check, forced)


def _record(game: Game, seat: int, member_id: int, check: PlayCheck) -> ForcedTurn:
    """The proof's row, once per turn and version (a task run twice finds it)."""
    fields = {"seat": seat, "member_id": member_id, "steps": check.steps}
    try:
        with transaction.atomic():
            forced, _ = ForcedTurn.objects.get_or_create(
                game=game, turn_number=game.turn_number, version=game.version, defaults=fields
            )
    except IntegrityError:
        forced = ForcedTurn.objects.get(
            game=game, turn_number=game.turn_number, version=game.version
        )
    return forced


def draw_delay(durations: Sequence[float], seconds_left: float | None, rng: random.Random) -> float:
    """Seconds to wait before drawing for the member: one of ``durations`` (recent
    turns of people at the table), picked at random and jittered by up to a fifth, so the
    draw comes when one of their considered turns would; bounded by
    ``GAMES_FORCED_DRAW_SECONDS`` and to half of what is left of the turn
    (``seconds_left``; None: no deadline), so it always comes well before the clock.

    >>> same = draw_delay([10.0, 10.0], None, random.Random(1))
    >>> same == draw_delay([10.0], None, random.Random(1))
    True
    >>> 8 <= draw_delay([10.0], None, random.Random(2)) <= 12
    True
    >>> draw_delay([10_000.0], 60.0, random.Random(3))
    30.0
    """
    low, high = forced_draw_bounds()
    if seconds_left is not None:
        high = min(high, seconds_left / 2)
    picked = rng.choice(list(durations)) if durations else (low + high) / 2
    seconds = picked * rng.uniform(0.8, 1.2)
    return max(min(seconds, high), min(low, high), 0.0)


def plan_draw(game_id: int, proof: Proof, rng: random.Random, now: datetime) -> float | None:
    """The delay before the draw for a proven forced turn of a member who gave the
    order; ``None`` when no draw is to be made (no proof, no order)."""
    if proof.forced_turn is None:
        return None
    ordered = User.objects.filter(pk=proof.member_id, draws_forced_turns=True).exists()
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if not ordered or game is None:
        return None
    left = (game.turn_deadline - now).total_seconds() if game.turn_deadline else None
    delay = draw_delay(recent_turn_seconds(game, proof.member_id), left, rng)
    # Kept with the proof: the draw is refused before it, whoever asks (a task run early).
    ForcedTurn.objects.filter(pk=proof.forced_turn.pk, draw_at=None).update(
        draw_at=now + timedelta(seconds=delay)
    )
    return delay


def draw_for_member(game_id: int, turn_number: int, version: int) -> Game | None:
    """Draw for the member whose turn ``turn_number`` is, by their standing order.

    Only when, under the game's lock, the game is still at ``version`` (nothing moved
    since the proof), that version's proof of no play exists, the member still plays
    the seat and still wants it, its planned moment has come, and they may move now
    (not held, not barred, before the deadline: the checks of their own move).
    Returns the game, or ``None`` when nothing was done; so a second task for the same
    turn does nothing.
    """
    with transaction.atomic():
        forced = (
            ForcedTurn.objects.select_related("member")
            .filter(game_id=game_id, turn_number=turn_number, version=version)
            .first()
        )
        if forced is None or forced.drawn_for_them or forced.member.draws_forced_turns is not True:
            return None
        if forced.draw_at is None or timezone.now() < forced.draw_at:
            return None  # not planned, or planned for later: a task run early does nothing
        try:
            load, seat = load_for_player(game_id, forced.member, version)
        except GameActionError:
            return None  # moved on, held, barred or out of time: the draw is theirs to make
        if load.game.turn_number != turn_number or seat != forced.seat:
            return None
        game = make_move(load, seat, engine.Draw(), Move.By.ORDER, forced.member)
        ForcedTurn.objects.filter(pk=forced.pk).update(drawn_for_them=True)
        _tell(game, forced)
        return game


SWEEP_LIMIT = 200
"""At most this many due draws per sweep; the next sweep takes the rest."""


def sweep_draws(now: datetime) -> int:
    """Celery beat: make the standing orders' draws whose moment has passed and whose
    task did not (lost, or never queued: a wait longer than the horizon of queued tasks,
    as a correspondence table's turn times may be). One query on the rows still to draw
    at the version they were proven at; each draw checks all again under the lock.
    Returns how many were made."""
    due = (
        ForcedTurn.objects.filter(
            drawn_for_them=False,
            draw_at__lte=now - SWEEP_GRACE,
            game__status=Game.Status.PLAYING,
            game__version=F("version"),
            game__turn_number=F("turn_number"),
        )
        .order_by("draw_at")
        .values_list("game_id", "turn_number", "version")[:SWEEP_LIMIT]
    )
    return sum(draw_for_member(*row) is not None for row in due)


SWEEP_GRACE = timedelta(seconds=1)
"""A draw's own task normally makes it within this; the sweep leaves it that long."""


def _tell(game: Game, forced: ForcedTurn) -> None:
    """The member's notice: which turn had no play, and where."""
    create(
        forced.member_id,
        GameNotice.DRAWN_FOR_YOU,
        f"Turn {forced.turn_number} had no play: drawn for you "
        f"(game {game.number} of table {game.table_id}).",
        reverse("games:game", args=[game.pk]),
        subject=game,
        key=f"{GameNotice.DRAWN_FOR_YOU}:game-{game.pk}:turn-{forced.turn_number}",
    )


def answer_offer(user: User, yes: bool) -> None:
    """The member's answer to the offer of the standing order (or a change of mind
    on their settings): yes, draw for me when a turn has no play; or no."""
    User.objects.filter(pk=user.pk).update(draws_forced_turns=yes)
    user.draws_forced_turns = yes
