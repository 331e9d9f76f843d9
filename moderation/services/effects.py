"""What each kind of ruling does to the game, its results, its case and its members, and
how a later ruling undoes exactly that.

A ruling's :attr:`~moderation.models.Ruling.effects` record what applying it changed,
in ids and small values: the result rows current before and after for each seat it
changed (``results``), the suspension it created and the running seats it handled
(``benched``: :mod:`moderation.services.benching`), the rewind it logged, whether it
decided its case, and what that did to the game's clocks. A ruling that supersedes
another records under ``undoing`` what undoing that one changed: shown, never replayed.

Rulings compose: a ruling's effects are worked out against the state *after* the ruling
it supersedes is undone, so undoing it restores exactly what it found, whatever came
before it in the chain. Undoing reads the record back: the seats get new rows with the
values and places of the rows that were current before (the results service writes
them, so the round and the league standings follow), a suspension is lifted (the
seats a bot took under it given back while their rounds run: ``reseated``), a rewind
taken back (one more logged move, :func:`games.services.rewinds.restore`, only while
nobody has moved since), and a case it decided is open again.

Clocks are not an effect of their own: a game is held exactly while an open case has
an applied pause (:func:`holding_cases`), and :func:`sync_clocks` makes the game say so
after every change. Deciding one case releases only that case's hold.

These run inside the ruling's transaction (:mod:`moderation.services.rulings`), with the
case row locked; the results service and the clock hold lock the game row themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from engine.round import forfeit
from games.models import Game, Result
from games.services import GameActionError, InvalidRuling
from games.services.holds import hold_clocks, release_clocks
from games.services.results import SeatCorrection, supersede
from games.services.rewinds import restore, rewind
from moderation.errors import Conflict, ModerationError
from moderation.models import Case, Ruling, Suspension
from moderation.services import benching

RESULT_KINDS = frozenset({Ruling.Kind.VOID, Ruling.Kind.SET_RESULT, Ruling.Kind.FORFEIT})
"""The kinds that change a game's result (and so its round and league standings)."""

Effects = dict[str, Any]


def current_rows(game_id: int) -> dict[int, Result]:
    return {row.seat: row for row in Result.objects.current().of_game(game_id)}


def corrections_for(
    kind: str, details: Mapping[str, Any], rows: Mapping[int, Result], score_mode: str
) -> dict[int, SeatCorrection]:
    """The seats' corrections a result-changing ruling asks for (void: none; the
    results service rewrites every seat)."""
    if kind == Ruling.Kind.SET_RESULT:
        winner = details.get("winner")
        return {
            seat: SeatCorrection(
                score=int(details["scores"][str(seat)]),
                rack_value=int(details.get("racks", {}).get(str(seat), rows[seat].rack_value)),
                is_winner=seat == winner,
            )
            for seat in rows
        }
    if kind == Ruling.Kind.FORFEIT:
        return forfeit_corrections(int(details["seat"]), rows, score_mode)
    return {}


def forfeit_corrections(
    seat: int, rows: Mapping[int, Result], score_mode: str
) -> dict[int, SeatCorrection]:
    """Every seat's result once ``seat`` forfeits, by the engine's scoring
    (:func:`engine.round.forfeit`): the forfeiter last, a zero-sum game still zero-sum."""
    seats = sorted(rows)
    winner = next((s for s in seats if rows[s].is_winner), None)
    result = forfeit(
        score_mode,
        [rows[s].score for s in seats],
        None if winner is None else seats.index(winner),
        seats.index(seat),
    )
    return {
        s: SeatCorrection(
            score=result.scores[i],
            is_winner=result.winner == i,
            place=result.places[i],
        )
        for i, s in enumerate(seats)
    }


@dataclass(frozen=True)
class Snapshot:
    """What a ruling may change, as it stands: the game's current result rows and
    whether its clocks are held."""

    rows: dict[int, Result]
    held: bool

    @classmethod
    def of(cls, game_id: int) -> Snapshot:
        held = Game.objects.filter(pk=game_id, held_at__isnull=False).exists()
        return cls(current_rows(game_id), held)


def effects_between(before: Snapshot, after: Snapshot, reported: Effects) -> Effects:
    """What differs between the two snapshots (the seats given new rows, the clocks),
    with what :func:`do` or :func:`undo` reported (a suspension, a rewind, the case)."""
    effects: Effects = dict(reported)
    results = {
        str(seat): [before.rows[seat].pk, row.pk]
        for seat, row in sorted(after.rows.items())
        if seat in before.rows and before.rows[seat].pk != row.pk
    }
    if results:
        effects["results"] = results
    if after.held and not before.held:
        effects["held"] = True
    if before.held and not after.held:
        effects["released"] = True
    return effects


def holding_cases(game_id: int) -> QuerySet[Case]:
    """The cases that hold ``game_id``: open, with a pause applied."""
    return Case.objects.filter(
        game_id=game_id,
        status=Case.Status.OPEN,
        rulings__kind=Ruling.Kind.PAUSE,
        rulings__status=Ruling.Status.APPLIED,
    ).distinct()


def holds(case: Case) -> bool:
    """Whether ``case`` holds its game's clocks now."""
    return holding_cases(case.game_id).filter(pk=case.pk).exists()


def sync_clocks(game_id: int, now: datetime) -> None:
    """Hold the game while any open case holds it, and only then: a hold is the case's,
    and the game's clocks follow the holds there are (a finished game has none)."""
    game = Game.objects.get(pk=game_id)
    wanted = not game.is_over and holding_cases(game_id).exists()
    if wanted and game.held_at is None:
        hold_clocks(game_id, now)
    elif not wanted and game.held_at is not None:
        release_clocks(game_id, now)


def do(ruling: Ruling, case: Case, now: datetime) -> Effects:
    """Do what ``ruling`` says (its details checked already). Returns what the
    snapshots do not show: the suspension it created, the turn it rewound to, that its
    case holds the game (a pause: once applied, :func:`sync_clocks` stops the clocks
    unless another case holds them already)."""
    kind = ruling.kind
    try:
        if kind in RESULT_KINDS:
            _change_results(ruling, case, now)
        elif kind == Ruling.Kind.PAUSE:
            return {"holds": True}
        elif kind == Ruling.Kind.REWIND:
            game = rewind(case.game_id, int(ruling.details["turn"]), now)
            return {"rewound": int(ruling.details["turn"]), "rewind_move": game.version}
        elif kind == Ruling.Kind.RESTRICT_CHAT:
            # A chat restriction is a suspension from chat alone: undone the same way,
            # and it leaves the member's seats alone.
            return {"suspended": [_suspend(ruling, case, now).pk]}
        elif kind == Ruling.Kind.SUSPEND:
            suspension = _suspend(ruling, case, now)
            done: Effects = {"suspended": [suspension.pk]}
            benched = benching.bench(suspension, now)
            if benched:
                done["benched"] = benched
            unseated = benching.unseat_waiting(suspension)
            if unseated:
                done["unseated"] = unseated
            return done
    except GameActionError as error:
        raise ModerationError(error.message) from error
    return {}


def _change_results(ruling: Ruling, case: Case, now: datetime) -> None:
    game = Game.objects.get(pk=case.game_id)
    corrections = corrections_for(
        ruling.kind, ruling.details, current_rows(game.pk), game.engine_ruleset().score_mode
    )
    source = Result.Source.VOID if ruling.kind == Ruling.Kind.VOID else Result.Source.RULING
    supersede(game.pk, corrections, source, ruling.note, ruling.by, now)


def _suspend(ruling: Ruling, case: Case, now: datetime) -> Suspension:
    club_id = case.club_id if ruling.details.get("scope") == "club" else None
    assert ruling.target is not None  # checked: a suspension names its member
    return Suspension.objects.create(
        user=ruling.target,
        club_id=club_id,
        ruling=ruling,
        starts_at=now,
        ends_at=now + timedelta(days=int(ruling.details["days"])),
        chat_only=ruling.kind == Ruling.Kind.RESTRICT_CHAT,
    )


REWIND_KEPT = (
    "A rewind cannot be undone: the game has been played on from the turn it "
    "went back to. Rule on the game as it now stands instead."
)


def undo(earlier: Ruling, case: Case, by: User, reason: str, now: datetime) -> Effects:
    """Undo what ``earlier`` itself changed (never what undoing the ruling before it
    did: that one stays undone). Returns what the snapshots will not show: the
    suspensions lifted (``lifted``), a rewind taken back (``restored``), the case
    opened again (``reopened``). The caller brings the clocks in line afterwards.

    Refused (:class:`Conflict`) when a later ruling changed the same rows since: that
    one must be undone first, or the undoing would not restore what was; and for a
    rewind once anybody has moved since it (only a rewind regretted at once is exact
    to take back; older records without the rewind's move are refused too).
    """
    effects = earlier.effects or {}
    undone: Effects = {}
    try:
        if effects.get("rewound"):
            undone.update(_take_back_rewind(case.game_id, effects, now))
        if effects.get("results"):
            _restore_results(case.game_id, effects["results"], by, reason, now)
    except GameActionError as error:
        raise ModerationError(error.message) from error
    lifting = Suspension.objects.filter(pk__in=effects.get("suspended", []), lifted_at=None)
    lifted = list(lifting.values_list("pk", flat=True))
    lifting.update(lifted_at=now)
    if lifted:
        undone["lifted"] = lifted
        reseated = benching.give_back(lifted, now)
        if reseated:
            undone["reseated"] = reseated
    if effects.get("decided"):
        undone.update(_reopen(case))
    return undone


def _reopen(case: Case) -> Effects:
    """The case the undone ruling decided is open again, as it found it."""
    if (
        Case.objects.filter(game_id=case.game_id, category=case.category, status=Case.Status.OPEN)
        .exclude(pk=case.pk)
        .exists()
    ):
        raise Conflict(
            "Undoing this ruling would open its case again, and the game has another "
            "open case of the same kind: decide that one first."
        )
    Case.objects.filter(pk=case.pk).update(status=Case.Status.OPEN, decided_at=None)
    return {"reopened": True}


def _take_back_rewind(game_id: int, effects: Effects, now: datetime) -> Effects:
    """Restore the game as it was just before the rewind, if nobody has moved since."""
    if "rewind_move" not in effects:
        raise Conflict(REWIND_KEPT)
    try:
        game = restore(game_id, int(effects["rewind_move"]), now)
    except InvalidRuling:
        raise Conflict(REWIND_KEPT) from None
    return {"restored": int(effects["rewound"]), "restore_move": game.version}


def _said(row: Result) -> tuple[int, int, bool, int, bool]:
    """What a result row says: score, rack value, win, place, and whether it counts."""
    return (row.score, row.rack_value, row.is_winner, row.place, row.source != Result.Source.VOID)


def _restore_results(
    game_id: int, results: Mapping[str, list[int]], by: User, reason: str, now: datetime
) -> None:
    """Give each seat the ruling changed a new row with the values and the place of the
    row it found, and what that row was: the played ones come back as ``restored`` (they
    correct nothing), a correction as that correction, with its reason (undoing a void of
    a game an organiser had corrected gives back that one seat's correction, not a
    correction of every seat in the undoing's words)."""
    now_rows = current_rows(game_id)
    pairs = {int(seat): ids for seat, ids in results.items()}
    old = Result.objects.in_bulk([pk for pair in pairs.values() for pk in pair])
    # Compared by what the rows say, not by their ids: a later ruling undone since
    # gave back these values in rows of its own.
    if any(_said(now_rows[seat]) != _said(old[after]) for seat, (_, after) in pairs.items()):
        raise Conflict("A later ruling changed this game's result since: supersede that one first.")
    restored = {seat: old[before] for seat, (before, _) in pairs.items()}
    corrections = {
        seat: SeatCorrection(
            score=row.score, rack_value=row.rack_value, is_winner=row.is_winner, place=row.place
        )
        for seat, row in restored.items()
    }
    sources = {row.source for row in restored.values()}
    if Result.Source.VOID in sources:
        source = Result.Source.VOID
    elif sources <= {Result.Source.PLAYED, Result.Source.RESTORED}:
        source = Result.Source.RESTORED
    else:
        source = Result.Source.RULING
    supersede(game_id, corrections, source, reason, by, now, restoring=restored)
