"""Rulings: a moderator decides a case, and a second moderator confirms what weighs most.

:func:`rule` makes a ruling of one of the kinds of :class:`~moderation.models.Ruling`,
with its required note: it takes effect at once, or waits ``proposed`` when it suspends
a member or changes league standings and another moderator could confirm it
(:func:`confirm`, :func:`decline`). A ruling may supersede an earlier applied ruling of
the case: applying it first undoes the earlier one's effects exactly
(:mod:`moderation.services.effects`), then does its own.

Each is one transaction: the case row is locked first (``select_for_update``), which
orders two moderators acting on one case; then, for a game of a league fixture, its
season, matchday and fixture, in the order a season's close takes them
(:mod:`leagues.services.locks`), so that a ruling either lands before the close reads
the final order or finds the season closed (a late correction); the results service and
the clock hold then lock the game and its table, in the games app's order. Everything
done is written to the moderation log, and the facts are announced after commit
(:data:`~moderation.signals.ruling_proposed`, :data:`~moderation.signals.ruling_applied`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from leagues.services.locks import lock_fixture_of_game
from moderation import signals
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound
from moderation.models import Case, LogEntry, Ruling
from moderation.permissions import conflicts, suspended_from_moderating
from moderation.selectors.effects import in_words
from moderation.services import effects
from moderation.services.checks import check_moderator, checked_details, needs_second

LEAVES_CASE_OPEN = frozenset({Ruling.Kind.PAUSE})
"""A pause holds the game while the case is studied; every other ruling decides it."""


def rule(
    case_id: int,
    by: User,
    kind: str,
    note: str,
    *,
    details: Mapping[str, Any] | None = None,
    target: User | None = None,
    supersedes_id: int | None = None,
    now: datetime | None = None,
) -> Ruling:
    """Make a ruling in case ``case_id``: applied at once, or proposed for a second
    moderator's confirmation. Raises :class:`~moderation.errors.ModerationError`
    (nothing changed) when it cannot be made."""
    return make(case_id, by, kind, note, details, target, supersedes_id, now, preview=False)


def make(
    case_id: int,
    by: User,
    kind: str,
    note: str,
    details: Mapping[str, Any] | None,
    target: User | None,
    supersedes_id: int | None,
    now: datetime | None,
    preview: bool,
) -> Ruling:
    """:func:`rule`; with ``preview`` the ruling is applied even if it would wait for a
    second moderator (the preview rolls it all back)."""
    now = timezone.now() if now is None else now
    if not note.strip():
        raise ModerationError("Write the note: the parties read why.")
    with transaction.atomic():
        case = _lock_case(case_id)
        check_moderator(by, case)
        earlier = _earlier(case, supersedes_id)
        if earlier is None and case.status != Case.Status.OPEN:
            raise Conflict("The case is decided: a new ruling supersedes one of its rulings.")
        if case.rulings.filter(status=Ruling.Status.PROPOSED).exists():
            raise Conflict(
                "A ruling of this case awaits a second moderator: confirm or decline it first."
            )
        checked = _checked(case, by, kind, details or {}, target, earlier, now)
        ruling = Ruling.objects.create(
            # A preview's ruling takes no number from the sequence (a rolled-back insert
            # would burn one, and the rulings people read would skip numbers).
            pk=_preview_id() if preview else None,
            case=case,
            kind=kind,
            note=note.strip(),
            details=checked,
            target=target,
            by=by,
            supersedes=earlier,
            created_at=now,
        )
        if not preview and needs_second(case, kind, earlier, by):
            summary = f"{by} proposed to {_to_do(ruling)} in case {case.pk}."
            _log(case, by, LogEntry.Action.PROPOSED, summary, ruling, now)
            send_after_commit(signals.ruling_proposed, Ruling, case_id=case.pk, ruling_id=ruling.pk)
            return ruling
        return _apply(ruling, case, now)


def confirm(ruling_id: int, by: User, now: datetime | None = None) -> Ruling:
    """A second moderator confirms a proposed ruling: it takes effect."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        ruling, case = _lock_proposed(ruling_id, by)
        ruling.confirmed_by = by
        summary = f"{by} confirmed {_proposal(ruling)}: it is applied."
        _log(case, by, LogEntry.Action.CONFIRMED, summary, ruling, now)
        return _apply(ruling, case, now)


def decline(ruling_id: int, by: User, note: str, now: datetime | None = None) -> Ruling:
    """A second moderator declines a proposed ruling: nothing of it happens, and the
    case waits for another ruling."""
    now = timezone.now() if now is None else now
    if not note.strip():
        raise ModerationError("Say why you decline it: the moderator who proposed it reads it.")
    with transaction.atomic():
        ruling, case = _lock_proposed(ruling_id, by)
        # A ruling is superseded once (``Ruling.supersedes`` is one-to-one): a declined
        # proposal lets go of the ruling it would have superseded, which stays in effect
        # and may be superseded later. What it proposed stays in its log entry (and in the
        # ruling's history).
        released = ruling.supersedes_id
        ruling.status = Ruling.Status.DECLINED
        ruling.confirmed_by, ruling.supersedes = by, None
        ruling.save(update_fields=["status", "confirmed_by", "supersedes"])
        _log(
            case,
            by,
            LogEntry.Action.DECLINED,
            f"{by} declined {_proposal(ruling)}: nothing of it happens.",
            ruling,
            now,
            {"would_supersede": released} if released is not None else None,
            reason=note.strip(),
        )
        send_after_commit(signals.ruling_declined, Ruling, case_id=case.pk, ruling_id=ruling.pk)
    return ruling


class _Undone(Exception):
    """Raised to leave the savepoint in which a superseded ruling was undone for a look."""


def _checked(
    case: Case,
    by: User,
    kind: str,
    details: Mapping[str, Any],
    target: User | None,
    earlier: Ruling | None,
    now: datetime,
) -> dict[str, Any]:
    """The ruling's details checked against the game as the ruling will find it: with
    the ruling it supersedes undone (in a savepoint rolled back at once), so that a
    void superseding a void, or a pause superseding a pause, is judged rightly; an
    undoing that cannot be done is refused here already."""
    if earlier is None:
        return checked_details(case, by, kind, details, target)
    found: dict[str, Any] = {}
    try:
        with transaction.atomic():
            effects.undo(earlier, case, by, "(checked before the ruling)", now)
            Ruling.objects.filter(pk=earlier.pk).update(status=Ruling.Status.SUPERSEDED)
            found["details"] = checked_details(case, by, kind, details, target)
            raise _Undone
    except _Undone:
        pass
    return dict(found["details"])


def _lock_case(case_id: int) -> Case:
    case = (
        Case.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(pk=case_id)
        .first()
    )
    if case is None:
        raise NotFound("No such case.")
    lock_fixture_of_game(case.game_id)
    return case


def _lock_proposed(ruling_id: int, by: User) -> tuple[Ruling, Case]:
    case_id = Ruling.objects.filter(pk=ruling_id).values_list("case_id", flat=True).first()
    if case_id is None:
        raise NotFound("No such ruling.")
    case = _lock_case(case_id)
    suspended = suspended_from_moderating(by, case)
    if suspended:
        raise NotAllowed(suspended)
    if not by.has_perm("moderation.view_case", case):
        raise NotFound("No such ruling.")
    ruling = Ruling.objects.select_for_update().get(pk=ruling_id)
    # A conflict is said before the ruling's state: a party learns nothing of it.
    if ruling.by_id != by.pk and not by.has_perm("moderation.take_case", case):
        raise NotAllowed(" ".join(conflicts(by, case)) or "You may not take this case.")
    if ruling.status != Ruling.Status.PROPOSED:
        raise Conflict(f"This ruling is {ruling.get_status_display().lower()} already.")
    if ruling.by_id == by.pk:
        raise NotAllowed("A second moderator confirms a ruling, not the one who proposed it.")
    return ruling, case


def _earlier(case: Case, supersedes_id: int | None) -> Ruling | None:
    if supersedes_id is None:
        return None
    earlier = Ruling.objects.select_for_update().filter(pk=supersedes_id, case=case).first()
    if earlier is None:
        raise NotFound("No such ruling in this case.")
    if earlier.status != Ruling.Status.APPLIED:
        raise Conflict("Only an applied ruling can be superseded.")
    return earlier


def _apply(ruling: Ruling, case: Case, now: datetime) -> Ruling:
    """Undo what the superseded ruling did, do what this one says, decide the case,
    bring the clocks in line with the case holds, and record exactly what changed.

    The ruling's own effects are measured from the state *after* the superseded one is
    undone: that is the state it found, and what undoing it must give back. (Measured
    before the undoing, they would bring back what the superseded ruling did.)"""
    earlier = ruling.supersedes
    undoing: effects.Effects = {}
    if earlier is not None:
        start = effects.Snapshot.of(case.game_id)
        undone = effects.undo(earlier, case, ruling.by, ruling.note, now)
        earlier.status = Ruling.Status.SUPERSEDED
        earlier.save(update_fields=["status"])
        case.refresh_from_db(fields=["status", "decided_at"])
        effects.sync_clocks(case.game_id, now)
        undoing = effects.effects_between(start, effects.Snapshot.of(case.game_id), undone)
        _log(
            case,
            ruling.by,
            LogEntry.Action.SUPERSEDED,
            f"Superseded the ruling “{_what(earlier)}” of case {case.pk} with a new ruling: "
            f"“{_what(ruling)}”.",
            ruling,
            now,
            {"undone": earlier.pk, "effects": in_words(undoing, UTC)},
        )
    if ruling.kind == Ruling.Kind.PAUSE and case.status != Case.Status.OPEN:
        raise Conflict("The case is decided: a pause holds a game only while its case is open.")
    before = effects.Snapshot.of(case.game_id)
    done = effects.do(ruling, case, now)
    if ruling.kind not in LEAVES_CASE_OPEN and case.status == Case.Status.OPEN:
        # The case is decided: its hold on the game goes with it (another open
        # case's hold stays).
        case.status, case.decided_at = Case.Status.DECIDED, now
        case.save(update_fields=["status", "decided_at"])
        done["decided"] = True
    ruling.status, ruling.applied_at = Ruling.Status.APPLIED, now
    ruling.save(update_fields=["status", "applied_at", "confirmed_by"])
    effects.sync_clocks(case.game_id, now)
    ruling.effects = effects.effects_between(before, effects.Snapshot.of(case.game_id), done)
    if undoing:
        ruling.effects["undoing"] = undoing
    ruling.save(update_fields=["effects"])
    _log(
        case,
        ruling.by,
        LogEntry.Action.RULED,
        _describe(ruling),
        ruling,
        now,
        {**ruling.effects, "effects": in_words(ruling.effects, UTC)},
    )
    send_after_commit(
        signals.ruling_applied,
        Ruling,
        case_id=case.pk,
        ruling_id=ruling.pk,
        superseded_id=earlier.pk if earlier is not None else None,
    )
    return ruling


def _preview_id() -> int:
    """A number for a preview's ruling that no real ruling has (the sequence gives
    positive ones), random so that two previews at once do not wait on each other."""
    return -1 - secrets.randbelow(2**62)


def _what(ruling: Ruling) -> str:
    """The ruling's kind, with the member it names."""
    what = ruling.get_kind_display()
    if ruling.target_id is not None:
        what += f" ({ruling.target})"
    return what


TO_DO = {
    Ruling.Kind.DISMISS: "dismiss the case",
    Ruling.Kind.WARN: "warn {target}",
    Ruling.Kind.PAUSE: "pause the game's clocks",
    Ruling.Kind.VOID: "void the game",
    Ruling.Kind.SET_RESULT: "set the game's result",
    Ruling.Kind.FORFEIT: "award a forfeit",
    Ruling.Kind.REWIND: "rewind the game to the start of a turn",
    Ruling.Kind.SUSPEND: "suspend {target}",
    Ruling.Kind.RESTRICT_CHAT: "restrict {target}'s chat",
}
"""What a ruling of each kind does, as the log's sentences say it after "to"."""


def _to_do(ruling: Ruling) -> str:
    """What the ruling does, in words with the member it names ("suspend Bob")."""
    target = ruling.target if ruling.target_id is not None else "a member"
    return TO_DO[Ruling.Kind(ruling.kind)].format(target=target)


def _proposal(ruling: Ruling) -> str:
    """A proposed ruling named by who proposed it: "Maud's ruling to suspend Bob in case 3"."""
    return f"{ruling.by}'s ruling to {_to_do(ruling)} in case {ruling.case_id}"


def _describe(ruling: Ruling) -> str:
    return f"{_what(ruling)} in case {ruling.case_id}"[:300]


def _log(
    case: Case,
    actor: User,
    action: str,
    summary: str,
    ruling: Ruling,
    now: datetime,
    changes: Mapping[str, Any] | None = None,
    reason: str = "",
) -> LogEntry:
    return LogEntry.objects.create(
        at=now,
        actor=actor,
        action=action,
        case=case,
        club_id=case.club_id,
        summary=summary[:300],
        reason=reason or ruling.note,
        changes={"ruling": ruling.pk, "kind": ruling.kind, **(changes or {})},
    )
