"""Reads of the rulings pages: the case a moderator rules on, its game's seats as they
stand, the members a ruling may name, and one ruling with who may confirm it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from accounts.models import User
from games.models import Result
from games.selectors.players import seat_names
from moderation.errors import NotFound
from moderation.models import Case, LogEntry, Ruling
from moderation.permissions import conflicts, party_ids


@dataclass(frozen=True)
class SeatNow:
    """A seat of the case's game, and its current result (``None`` while in play)."""

    seat: int
    name: str
    score: int | None = None
    rack_value: int | None = None
    place: int | None = None
    is_winner: bool = False
    source: str = ""


def visible_case(user: Any, case_id: int) -> Case:
    """The case, if ``user`` moderates it and is no party to it; else :class:`NotFound`
    (as if none: a party reads the case hub's party view and the outcome page)."""
    case = (
        Case.objects.select_related("game__table", "club", "fixture__matchday__season__league")
        .filter(pk=case_id)
        .first()
    )
    if case is None or not user.has_perm("moderation.read_case", case):
        raise NotFound("No such case.")
    return case


def visible_ruling(user: Any, ruling_id: int) -> Ruling:
    """The ruling, for a moderator of its case who is no party to it (a party reads
    what took effect on the outcome page, never a proposal); else :class:`NotFound`."""
    ruling = (
        Ruling.objects.select_related("case__game", "by", "confirmed_by", "target", "supersedes")
        .filter(pk=ruling_id)
        .first()
    )
    if ruling is None or not user.has_perm("moderation.read_case", ruling.case):
        raise NotFound("No such ruling.")
    return ruling


def seats_now(case: Case) -> list[SeatNow]:
    names = seat_names(case.game_id)
    rows = {row.seat: row for row in Result.objects.current().of_game(case.game_id)}
    seats = []
    for seat, name in enumerate(names):
        row = rows.get(seat)
        if row is None:
            seats.append(SeatNow(seat, name))
        else:
            seats.append(
                SeatNow(
                    seat,
                    name,
                    row.score,
                    row.rack_value,
                    row.place,
                    row.is_winner,
                    row.get_source_display(),
                )
            )
    return seats


def parties(case: Case) -> list[User]:
    """The members a warning or suspension may name: the case's parties, and the
    author of the chat message reported."""
    ids = party_ids(case)
    if case.message is not None:
        ids.add(case.message.author_id)
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def may_confirm(user: Any, ruling: Ruling) -> bool:
    """Whether ``user`` is a second moderator who may confirm (or decline) ``ruling``."""
    return (
        ruling.status == Ruling.Status.PROPOSED
        and user.pk != ruling.by_id
        and user.has_perm("moderation.view_case", ruling.case)
        and not conflicts(user, ruling.case)
    )


def may_rule(user: Any, case: Case) -> bool:
    """Whether ``user`` may make a ruling in ``case`` now (see
    :func:`moderation.services.checks.check_moderator`)."""
    return not why_not_rule(user, case)


def why_not_rule(user: Any, case: Case) -> str:
    """Why ``user`` may not rule in ``case`` now, in words (empty when they may): their
    conflicts; on an open case, who claimed it or that it waits for a claim. A decided
    case is nobody's: whoever has no conflict may supersede its rulings."""
    reasons = conflicts(user, case)
    if reasons:
        return " ".join(reasons)
    if case.status != Case.Status.OPEN or case.claimed_by_id == user.pk:
        return ""
    if case.claimed_by_id is None:
        return "Claim the case to rule on it."
    return f"{case.claimed_by} moderates this case: only they rule on it while it is open."


def case_rulings(case: Case) -> list[Ruling]:
    return list(case.rulings.select_related("by", "confirmed_by", "target").order_by("created_at"))


def decline_reasons(case: Case) -> dict[int, str]:
    """Why each declined ruling of ``case`` was declined, by ruling id: the second
    moderator's words, as the log keeps them."""
    declined = LogEntry.objects.filter(case=case, action=LogEntry.Action.DECLINED)
    return {
        int(ruling_id): reason
        for ruling_id, reason in declined.values_list("changes__ruling", "reason")
        if ruling_id is not None
    }


def rulings_with_reasons(case: Case, moderator: bool = True) -> list[tuple[Ruling, str]]:
    """The case's rulings, each with why it was declined (empty if it was not); the
    reasons are the moderators' to read, like the proposals."""
    why = decline_reasons(case) if moderator else {}
    return [(ruling, why.get(ruling.pk, "")) for ruling in case_rulings(case)]
