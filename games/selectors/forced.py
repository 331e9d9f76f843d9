"""Reads for forced turns (:mod:`games.services.forced`): how long people at a table
take over their turns, and the offer of the standing order on a game page."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

from accounts.models import User
from games.models import ForcedTurn, Game, Move, Seat


def proof_wanted(game: Game, seat: Seat | None) -> int | None:
    """The member to prove the turn of ``seat`` (the one to move in ``game``) for, if
    any: one who gave the standing order, or who has not answered its offer yet (a proof
    lets the page offer it). Only in single-draw games, only for a member's seat. From
    the rows given (the seat with its member, as a move loads them): no query."""
    if game.is_over or seat is None or seat.kind != Seat.Kind.PLAYER or seat.user is None:
        return None
    if game.engine_ruleset().draw_mode != "single":
        return None
    return seat.user.pk if seat.user.draws_forced_turns is not False else None


TURN_SAMPLE = 20
"""How many recent turns of people the delay before a standing order's draw is taken
from."""

_MOVES_READ = 200


def recent_turn_seconds(game: Game, member_id: int) -> list[float]:
    """How long recent turns of people at ``game``'s table took, in seconds: the
    member's own when they have played a few, else everyone's there (bots and clocks
    left out: a bot waits a set time, a clock its deadline). A turn lasts from the
    game's move before it (or its start) to the player's move; newest first."""
    rows: list[tuple[int, int, str, int | None, datetime]] = list(
        Move.objects.filter(game__table_id=game.table_id)
        .order_by("-created_at", "-seq")
        .values_list("game_id", "seq", "by", "user_id", "created_at")[:_MOVES_READ]
    )
    # Each game's start counts as the move before its first (seq 0): a first turn is a turn.
    started = Game.objects.filter(pk__in={row[0] for row in rows}).values_list("pk", "created_at")
    rows += [(pk, 0, "", None, at) for pk, at in started]
    rows.sort(key=lambda row: (row[0], row[1]))
    theirs: list[tuple[datetime, float]] = []
    everyone: list[tuple[datetime, float]] = []
    for before, move in pairwise(rows):
        if before[0] != move[0] or move[2] != Move.By.USER:
            continue
        took = (move[4], (move[4] - before[4]).total_seconds())
        everyone.append(took)
        if move[3] == member_id:
            theirs.append(took)
    chosen = theirs if len(theirs) >= 3 else everyone
    chosen.sort(reverse=True)
    return [seconds for _, seconds in chosen[:TURN_SAMPLE]]


def standing_order_offer(game_id: int, user: User) -> int | None:
    """The turn to name in the offer of the standing order on the game's page: the
    latest of ``user``'s turns there that the solver proved had no play and that they
    drew themselves. ``None`` once they answered, or while there is none."""
    if not user.is_authenticated or user.draws_forced_turns is not None:
        return None
    proven = (
        ForcedTurn.objects.filter(game_id=game_id, member=user, drawn_for_them=False)
        .order_by("-turn_number")
        .values_list("turn_number", flat=True)
    )
    drew = Move.objects.filter(
        game_id=game_id, user=user, by=Move.By.USER, action__type="draw", turn_number__in=proven
    )
    return drew.order_by("-turn_number").values_list("turn_number", flat=True).first()
