"""What each kind of ruling does to the game, its results and its members, and how a
later ruling undoes exactly that.

A ruling's :attr:`~moderation.models.Ruling.effects` record what applying it changed,
in ids and small values: the result rows current before and after for each seat it
changed (``results``), whether it held or released the game's clocks, the suspension it
created. Undoing reads them back: the seats get new rows with the values of the rows
that were current before (the results service writes them, so the round and the league
standings follow, as they did when it was applied), a hold is released, a suspension
lifted. The rows in between stay, superseded, for the audit. A rewind is taken back by
one more logged move that restores the game as it was just before it
(:func:`games.services.rewinds.restore`), only while nobody has moved since; and a
ruling that took one back is undone by rewinding again, on the same condition.

These run inside the ruling's transaction (:mod:`moderation.services.rulings`), with the
case row locked; the results service and the clock hold lock the game row themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from games.errors import GameActionError, InvalidRuling
from games.models import Game, Result
from games.services.holds import hold_clocks, release_clocks
from games.services.results import SeatCorrection, supersede
from games.services.rewinds import restore, rewind
from moderation.errors import Conflict, ModerationError
from moderation.models import Case, Ruling, Suspension

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
        return {int(details["seat"]): forfeit_correction(int(details["seat"]), rows, score_mode)}
    return {}


def forfeit_correction(seat: int, rows: Mapping[int, Result], score_mode: str) -> SeatCorrection:
    """The seat that forfeits loses its win and scores no better than any seat of the
    game (the lowest score, or the highest penalty), so it takes the last place; the
    other seats keep what they scored."""
    scores = [row.score for row in rows.values()]
    worst = max(scores) if score_mode == "penalty_only" else min(scores)
    return SeatCorrection(score=worst, is_winner=False)


@dataclass(frozen=True)
class Snapshot:
    """What a ruling may change, as it stands: the game's current result rows, whether
    its clocks are held, and the member's suspensions in force."""

    rows: dict[int, Result]
    held: bool

    @classmethod
    def of(cls, game_id: int) -> Snapshot:
        held = Game.objects.filter(pk=game_id, held_at__isnull=False).exists()
        return cls(current_rows(game_id), held)


def effects_between(before: Snapshot, after: Snapshot, done: Effects, undone: Effects) -> Effects:
    """The effects record of a ruling: what differs between the two snapshots, what
    :func:`do` reported (a suspension created, a rewind), and what :func:`undo`
    reported (the suspensions lifted, a rewind taken back)."""
    effects: Effects = {**done, **undone}
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


def do(ruling: Ruling, case: Case, now: datetime) -> Effects:
    """Do what ``ruling`` says (its details checked already). Returns what the
    snapshots do not show: the suspension it created, the turn it rewound to."""
    kind = ruling.kind
    try:
        if kind in RESULT_KINDS:
            _change_results(ruling, case, now)
        elif kind == Ruling.Kind.PAUSE:
            hold_clocks(case.game_id, now)
        elif kind == Ruling.Kind.REWIND:
            game = rewind(case.game_id, int(ruling.details["turn"]), now)
            return {"rewound": int(ruling.details["turn"]), "rewind_move": game.version}
        elif kind == Ruling.Kind.SUSPEND:
            return {"suspended": [_suspend(ruling, case, now).pk]}
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
    )


def release_hold(game_id: int, now: datetime) -> None:
    """The case is decided: a game its pause held runs again (nothing if not held)."""
    release_clocks(game_id, now)


REWIND_KEPT = (
    "A rewind cannot be undone: the game has been played on from the turn it "
    "went back to. Rule on the game as it now stands instead."
)


def undo(earlier: Ruling, by: User, reason: str, now: datetime) -> Effects:
    """Undo what ``earlier`` changed. Returns what the snapshots will not show: the
    suspensions the undoing lifted (``lifted``), a rewind it took back (``restored``).

    Refused (:class:`Conflict`) when a later ruling changed the same rows since: that
    one must be undone first, or the undoing would not restore what was; and for a
    rewind once anybody has moved since it (only a rewind regretted at once is exact
    to take back; older records without the rewind's move are refused too).
    """
    effects = earlier.effects or {}
    game_id = earlier.case.game_id
    undone: Effects = {}
    try:
        if effects.get("rewound"):
            undone.update(_take_back_rewind(game_id, effects, now))
        if effects.get("restored"):
            # A ruling that took back one rewind and did another: the game is back
            # before both by now, right after the restore just logged.
            after = undone.get("restore_move", effects["restore_move"])
            undone.update(_rewind_again(game_id, int(effects["restored"]), after, now))
        if effects.get("results"):
            _restore_results(earlier, by, reason, now)
        if effects.get("held"):
            release_clocks(game_id, now)
        if effects.get("released"):
            game = Game.objects.get(pk=game_id)
            if not game.is_over and game.held_at is None:
                hold_clocks(game_id, now)
    except GameActionError as error:
        raise ModerationError(error.message) from error
    if effects.get("lifted"):
        # Lifted by the ruling undone: they are in force again (until they end).
        Suspension.objects.filter(pk__in=effects["lifted"]).update(lifted_at=None)
    lifting = Suspension.objects.filter(pk__in=effects.get("suspended", []), lifted_at=None)
    lifted = list(lifting.values_list("pk", flat=True))
    lifting.update(lifted_at=now)
    if lifted:
        undone["lifted"] = lifted
    return undone


def _take_back_rewind(game_id: int, effects: Effects, now: datetime) -> Effects:
    """Restore the game as it was just before the rewind, if nobody has moved since."""
    if "rewind_move" not in effects:
        raise Conflict(REWIND_KEPT)
    try:
        game = restore(game_id, int(effects["rewind_move"]), now)
    except InvalidRuling:
        raise Conflict(REWIND_KEPT) from None
    return {"restored": int(effects["rewound"]), "restore_move": game.version}


def _rewind_again(game_id: int, turn: int, after: int, now: datetime) -> Effects:
    """Rewind again, to ``turn``, the game whose rewind was taken back by move
    ``after``, if nobody has moved since."""
    try:
        game = rewind(game_id, turn, now, after=after)
    except InvalidRuling as error:
        raise Conflict(error.message) from None
    return {"rewound": turn, "rewind_move": game.version}


def _restore_results(earlier: Ruling, by: User, reason: str, now: datetime) -> None:
    game_id = earlier.case.game_id
    now_rows = current_rows(game_id)
    pairs = {int(seat): ids for seat, ids in earlier.effects["results"].items()}
    if any(now_rows[seat].pk != after for seat, (_, after) in pairs.items()):
        raise Conflict("A later ruling changed this game's result since: supersede that one first.")
    old = Result.objects.in_bulk([before for before, _ in pairs.values()])
    restored = {seat: old[before] for seat, (before, _) in pairs.items()}
    corrections = {
        seat: SeatCorrection(score=row.score, rack_value=row.rack_value, is_winner=row.is_winner)
        for seat, row in restored.items()
    }
    was_void = any(row.source == Result.Source.VOID for row in restored.values())
    source = Result.Source.VOID if was_void else Result.Source.RULING
    supersede(game_id, corrections, source, reason, by, now)
