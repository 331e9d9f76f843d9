"""What a case's parties may read of its outcome: the rulings in effect or replaced,
with their reasons, and the history of the game's result rows.

Nothing here shows evidence: no rack, no move of anyone's, no report of another
filer. A ruling's ``note`` is written for the parties; its ``details`` and
``effects`` (seats, periods, rows) are shown only as what they did to the result,
which the result rows' own history tells (django-pghistory events of ``games.Result``,
each with the context of the request or job that wrote it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from accounts.models import User
from games.models import Result
from moderation.models import Case, Ruling, Suspension


@dataclass(frozen=True)
class RulingLine:
    """One ruling of a case as its parties read it."""

    pk: int
    kind: str
    status: str
    in_effect: bool
    note: str
    applied_at: datetime | None
    by: str
    target: str


@dataclass(frozen=True)
class ResultChange:
    """One row written into a game's result: a seat's values, and what they replaced."""

    at: datetime
    seat: int
    player: str
    score: int
    place: int
    is_winner: bool
    before: tuple[int, int, bool] | None
    source: str
    reason: str
    by: str

    @property
    def changed(self) -> bool:
        return self.before is not None


def ruling_lines(case: Case) -> list[RulingLine]:
    """The case's rulings that took effect (applied, or applied then superseded), oldest
    first. Proposals waiting for a second moderator, and declined ones, are not an
    outcome and are left out."""
    rulings = (
        Ruling.objects.filter(case=case)
        .filter(Q(status=Ruling.Status.APPLIED) | Q(status=Ruling.Status.SUPERSEDED))
        .exclude(applied_at=None)
        .select_related("by", "target")
        .order_by("applied_at", "pk")
    )
    return [
        RulingLine(
            pk=ruling.pk,
            kind=ruling.get_kind_display(),
            status=ruling.get_status_display(),
            in_effect=ruling.status == Ruling.Status.APPLIED,
            note=ruling.note,
            applied_at=ruling.applied_at,
            by=str(ruling.by),
            target=str(ruling.target) if ruling.target else "",
        )
        for ruling in rulings
    ]


def suspensions_of(case: Case, user_id: int) -> list[Suspension]:
    """The suspensions the case's rulings gave ``user_id`` (only theirs: nobody reads
    another member's sanction here)."""
    return list(
        Suspension.objects.filter(ruling__case=case, user_id=user_id)
        .select_related("club")
        .order_by("starts_at")
    )


def result_history(game_id: int) -> list[ResultChange]:
    """Every row written into the game's result, in the order written, each with the
    values it replaced: the played result, then each correction (who, when, why).

    Read from the rows' pghistory insert events, so a row's context (the member whose
    request wrote it) is the database's own record; ``decided_by`` on the row names
    the moderator for rows written before tracking began."""
    events: Any = Result.pgh_event_model.objects  # type: ignore[attr-defined]
    rows = (
        events.filter(game_id=game_id, pgh_label="insert")
        .select_related("member", "decided_by", "supersedes", "pgh_context")
        .order_by("pgh_created_at", "pgh_id")
    )
    rows = list(rows)
    writers = _context_users(rows)
    changes = []
    for event in rows:
        old = event.supersedes
        changes.append(
            ResultChange(
                at=event.created_at,
                seat=event.seat,
                player=str(event.member) if event.member else f"Seat {event.seat + 1} (a bot)",
                score=event.score,
                place=event.place,
                is_winner=event.is_winner,
                before=(old.score, old.place, old.is_winner) if old else None,
                source=Result.Source(event.source).label
                if event.source in Result.Source.values
                else event.source,
                reason=event.reason,
                by=str(event.decided_by) if event.decided_by else writers.get(event.pk, ""),
            )
        )
    return changes


@dataclass(frozen=True)
class ResultCorrection:
    """The rows one correction wrote into a game's result: when, by whom, why, and each
    seat's values before and after."""

    at: datetime
    by: str
    reason: str
    seats: list[ResultChange]


def result_corrections(game_id: int) -> list[ResultCorrection]:
    """The corrections of the game's result, oldest first (the played rows left out)."""
    corrections: list[ResultCorrection] = []
    for change in result_history(game_id):
        if not change.changed:
            continue
        last = corrections[-1] if corrections else None
        if last is not None and (last.at, last.by, last.reason) == (
            change.at,
            change.by,
            change.reason,
        ):
            last.seats.append(change)
        else:
            corrections.append(ResultCorrection(change.at, change.by, change.reason, [change]))
    return corrections


def _context_users(events: list[Any]) -> dict[int, str]:
    """The member named by each event's pghistory context (the request's user), by the
    event's row id, in one query."""
    user_of = {}
    for event in events:
        metadata = event.pgh_context.metadata if event.pgh_context else {}
        if isinstance(metadata.get("user"), int):
            user_of[event.pk] = metadata["user"]
    names = {user.pk: str(user) for user in User.objects.filter(pk__in=set(user_of.values()))}
    return {row: names.get(user_id, "") for row, user_id in user_of.items()}
