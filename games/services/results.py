"""Games' results: the rows that own them, written when a game ends or a ruling changes it.

A finished game's result is its :class:`~games.models.Result` rows, one per seat, and
nothing else: the round's totals, standings and winner are read from the current rows
(:class:`~games.models.ResultQuerySet`), never stored beside them. Two writers:

* :func:`record_played` - the move that ends a game writes the played rows, then the
  round goes on (the next game starts, or the table is finished);
* :func:`supersede` - a moderator's ruling or a league's adjudication writes new rows
  that supersede the current ones. The round follows at once, since everything about
  it is derived from the rows; nothing is restarted or replayed, and the move log and
  ``Game.state`` stay exactly as played, so the replay never changes.

Lock order: **the game row, then the table row**. Every writer that needs both takes
them in that order (a move locks its game and, when the game ends, its table; a ruling
does the same), so two writers never wait on each other in a cycle. Holding the table
lock while writing results serialises a ruling with the end of another game of the
round, which reads the rows to decide whether the round is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from engine.round import game_places
from engine.state import GameState
from games import signals
from games.errors import InvalidRuling
from games.models import Game, Result, Seat
from games.selectors.players import game_players
from games.services.locking import lock_game, lock_table_of
from games.services.rounds import game_recorded


@dataclass(frozen=True)
class SeatCorrection:
    """What a ruling changes for one seat; ``None`` keeps the current value.

    Making a seat the winner takes the win from whoever had it (a game has at most one
    winner); ``is_winner=False`` for the winner leaves the game without one.
    """

    score: int | None = None
    rack_value: int | None = None
    is_winner: bool | None = None
    place: int | None = None
    """Given by a ruling that places seats itself (a forfeit puts its seat last, an
    undoing puts every seat back where it was); then the seats it leaves out keep theirs."""


def record_played(
    game: Game, state: GameState, now: datetime, seats: list[Seat] | None = None
) -> Game | None:
    """Write the result of ``game``, which ``state`` (its last move) has just ended, and
    go on with the round (``seats``: the table's seats in order, as the move loaded
    them). Returns the round's next game, or ``None`` when it is over.

    Runs inside the move's transaction, with ``game`` locked by :func:`~.locking.lock_game`.
    """
    outcome = state.outcome
    if outcome is None:
        raise ValueError("only a finished game has a result")
    # Game, then table (the module's lock order). The game carries the locked table as
    # this move leaves it (the answer shows the round).
    table = lock_table_of(game)
    places = game_places(state.ruleset.score_mode, outcome.scores, outcome.winner)
    # Who played each seat to the end earned its result, whoever sits there later.
    members = game_players(game, state.players).members
    Result.objects.bulk_create(
        Result(
            game=game,
            seat=seat,
            member_id=members.get(seat),
            score=outcome.scores[seat],
            rack_value=outcome.rack_values[seat],
            place=places[seat],
            is_winner=seat == outcome.winner,
            source=Result.Source.PLAYED,
            created_at=now,
        )
        for seat in range(state.players)
    )
    return game_recorded(table, game, now, seats)


def supersede(
    game_id: int,
    corrections: Mapping[int, SeatCorrection],
    source: Result.Source,
    reason: str,
    by: User | None,
    now: datetime | None = None,
    *,
    restoring: Mapping[int, Result] | None = None,
) -> list[Result]:
    """Correct the result of finished game ``game_id``: the entry point of a moderator's
    ruling and a league's adjudication. Returns the game's current rows afterwards.

    ``corrections`` maps seats to what changes for them; every seat whose score, rack
    value, win or place changes gets a new row superseding its current one (places are
    worked out again for the whole game). ``source`` void voids the game (every seat's
    row is written again, counting for nobody); any other source on a voided game
    makes it count again; source restored puts the played result back (a ruling that
    changed it undone): the rows no longer count as a correction. Every row written
    carries ``source``, ``reason`` and ``by``, except where an undoing puts rows back
    (``restoring``: the row each seat gets the values of): a seat then gets back what
    that row was, a correction with its own source, reason and decider, a played result
    as ``restored``; so undoing a ruling leaves the seats it did not correct uncorrected
    (unless the game is voided, which ``source`` says for every seat). Raises
    :class:`~games.errors.InvalidRuling` (nothing changed) for an unfinished game, an
    unknown seat, a played source, an empty reason or a ruling that changes nothing.
    """
    if source == Result.Source.PLAYED:
        raise InvalidRuling("A correction is a ruling, not a played result.")
    if not reason.strip():
        raise InvalidRuling("A ruling needs its reason.")
    now = timezone.now() if now is None else now
    with transaction.atomic():
        # Game, then table (the module's lock order). The game lock is what orders this
        # ruling with any other correction of the game; the table lock with the end of
        # the round's other games.
        game = lock_game(game_id)
        lock_table_of(game)
        current = {row.seat: row for row in Result.objects.current().of_game(game)}
        if not game.is_over or not current:
            raise InvalidRuling("Only a finished game's result can be corrected.")
        unknown = sorted(set(corrections) - set(current))
        if unknown:
            raise InvalidRuling(f"The game has no seat {unknown[0]}.")
        wanted = _corrected(current, corrections, game.engine_ruleset().score_mode)
        # Voiding a game, or giving a voided one a result again, changes every seat's
        # row even when the values stay: whether they count is part of the result.
        voiding = source == Result.Source.VOID
        changed = [
            seat
            for seat in sorted(current)
            if wanted[seat] != _values(current[seat])
            or (current[seat].source == Result.Source.VOID) != voiding
        ]
        if not changed:
            raise InvalidRuling("The ruling changes nothing in the game's result.")
        rows = []
        for seat in changed:
            old = current[seat]
            score, rack_value, is_winner, place = wanted[seat]
            kept = (restoring or {}).get(seat)
            row_source, row_reason, row_by = _carried(kept, source, reason.strip(), by)
            rows.append(
                Result(
                    game=game,
                    seat=seat,
                    member_id=old.member_id,
                    score=score,
                    rack_value=rack_value,
                    place=place,
                    is_winner=is_winner,
                    source=row_source,
                    supersedes=old,
                    reason=row_reason,
                    decided_by=row_by,
                    created_at=now,
                )
            )
        Result.objects.bulk_create(rows)
        signals.send_about_game(
            signals.results_superseded, game, sender=Result, seats=changed, source=str(source)
        )
        return list(Result.objects.current().of_game(game).order_by("seat"))


def _carried(
    kept: Result | None, source: Result.Source, reason: str, by: User | None
) -> tuple[Result.Source, str, User | None]:
    """The source, reason and decider of a seat's new row: the ruling's, or, for a row an
    undoing puts back, what that row said (a played one comes back ``restored``)."""
    if kept is None or source == Result.Source.VOID:
        return source, reason, by
    if kept.source in (Result.Source.PLAYED, Result.Source.RESTORED):
        return Result.Source.RESTORED, reason, by
    return Result.Source(kept.source), kept.reason, kept.decided_by


Values = tuple[int, int, bool, int]
"""A seat's score, rack value, win and place."""


def _values(row: Result) -> Values:
    return (row.score, row.rack_value, row.is_winner, row.place)


def _corrected(
    current: Mapping[int, Result], corrections: Mapping[int, SeatCorrection], score_mode: str
) -> dict[int, Values]:
    """Each seat's values once ``corrections`` apply, places worked out again."""
    seats = sorted(current)
    scores = {s: current[s].score for s in seats}
    racks = {s: current[s].rack_value for s in seats}
    winner = next((s for s in seats if current[s].is_winner), None)
    for seat, change in corrections.items():
        if change.score is not None:
            scores[seat] = change.score
        if change.rack_value is not None:
            if change.rack_value < 0:
                raise InvalidRuling("A rack is never worth less than nothing.")
            racks[seat] = change.rack_value
    new_winners = [s for s, c in corrections.items() if c.is_winner]
    if len(new_winners) > 1:
        raise InvalidRuling("A game has at most one winner.")
    if new_winners:
        winner = new_winners[0]
    elif winner is not None and corrections.get(winner, SeatCorrection()).is_winner is False:
        winner = None
    places = dict(
        zip(seats, game_places(score_mode, [scores[s] for s in seats], winner), strict=True)
    )
    if any(change.place is not None for change in corrections.values()):
        places = {s: current[s].place for s in seats}
        places.update({s: c.place for s, c in corrections.items() if c.place is not None})
    return {s: (scores[s], racks[s], s == winner, places[s]) for s in seats}
