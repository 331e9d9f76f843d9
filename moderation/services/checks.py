"""What a ruling must be to be made: who may make it, and what each kind needs.

Every check raises a :class:`~moderation.errors.ModerationError` with the sentence the
moderator reads; nothing has been written when one does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.models import User
from games.models import Game, Result
from leagues.models import Membership
from leagues.permissions import MODERATING
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound
from moderation.models import SITE_MODERATORS, Case, Ruling
from moderation.permissions import (
    conflicts,
    is_site_moderator,
    party_ids,
    suspended_from_moderating,
)
from moderation.services.effects import RESULT_KINDS, current_rows, holds

LONGEST_SUSPENSION_DAYS = 365
NAMING_KINDS = (Ruling.Kind.WARN, Ruling.Kind.SUSPEND, Ruling.Kind.RESTRICT_CHAT)
"""The kinds that name a member (the ruling's target)."""
WHAT: dict[str, str] = {
    Ruling.Kind.WARN: "warning",
    Ruling.Kind.SUSPEND: "suspension",
    Ruling.Kind.RESTRICT_CHAT: "chat restriction",
}
STILL_PLAYED = (
    "The game is still being played: only a finished game's result can change "
    "(pause it, or rewind it)."
)
NO_CLOCK = "The game is over: there is no clock to pause."
NOT_REWOUND = "The game is over: a finished game is not rewound (set its result, or void it)."


def kind_refused(game: Game, kind: str) -> str:
    """Why a ruling of ``kind`` cannot be made on ``game`` as it stands, running or over
    (empty when it can): the ruling form marks those kinds with it, and
    :func:`checked_details` refuses them with it."""
    if kind in RESULT_KINDS and not game.is_over:
        return STILL_PLAYED
    if kind == Ruling.Kind.PAUSE and game.is_over:
        return NO_CLOCK
    if kind == Ruling.Kind.REWIND and game.is_over:
        return NOT_REWOUND
    return ""


LARGEST_SCORE = 10_000
"""No seat scores more than this in one game, either way (the form's bound)."""


def check_moderator(user: User, case: Case) -> None:
    """``user`` may rule on ``case``: they moderate it (no suspension keeps them from
    it), have no conflict of interest, and, while it is open, are the moderator who
    claimed it."""
    suspended = suspended_from_moderating(user, case)
    if suspended:
        raise NotAllowed(suspended)
    if not user.has_perm("moderation.view_case", case):
        raise NotFound("No such case.")
    reasons = conflicts(user, case)
    if reasons:
        raise NotAllowed(" ".join(reasons))
    if case.status == Case.Status.OPEN and case.claimed_by_id != user.pk:
        raise NotAllowed("Only the moderator who claimed this case may rule on it: claim it first.")


def moderator_candidates(case: Case) -> list[User]:
    """The moderators of ``case``'s club (a league game) or of the site (a casual one),
    before conflicts of interest are counted; none a suspension keeps from it."""
    if case.club_id is not None:
        ids = Membership.objects.filter(club_id=case.club_id, role__in=MODERATING).values("user_id")
        candidates = User.objects.filter(pk__in=ids, is_active=True)
    else:
        candidates = User.objects.filter(is_active=True).filter(
            groups__name=SITE_MODERATORS
        ) | User.objects.filter(is_active=True, is_superuser=True)
    return [
        user
        for user in candidates.distinct().order_by("pk")
        if not suspended_from_moderating(user, case)
    ]


def needs_second(case: Case, kind: str, supersedes: Ruling | None, by: User) -> bool:
    """Whether a ruling waits for a second moderator's confirmation: it suspends a
    member or changes league standings (or undoes one that did), and the club (or the
    site) has another moderator who could take the case."""
    kinds = {kind} | ({supersedes.kind} if supersedes is not None else set())
    weighty = Ruling.Kind.SUSPEND in kinds or (
        case.fixture_id is not None and bool(kinds & RESULT_KINDS)
    )
    if not weighty:
        return False
    # Conflicts cost queries: stop at the first other moderator free to confirm.
    others = (user for user in moderator_candidates(case) if user.pk != by.pk)
    return any(not conflicts(user, case) for user in others)


def checked_details(
    case: Case, by: User, kind: str, details: Mapping[str, Any], target: User | None
) -> dict[str, Any]:
    """The details ``kind`` needs, checked against the game as it stands, in their
    stored form."""
    if kind not in Ruling.Kind.values:
        raise ModerationError("Choose what the ruling does.")
    game = Game.objects.get(pk=case.game_id)
    refused = kind_refused(game, kind)
    if refused:
        raise ModerationError(refused)
    if kind in NAMING_KINDS:
        _check_target(case, target, kind)
    elif target is not None:
        raise ModerationError("Only a warning, a suspension or a chat restriction names a member.")
    if kind in RESULT_KINDS:
        return _result_details(game, kind, details)
    if kind == Ruling.Kind.PAUSE:
        if holds(case):
            raise Conflict("This case holds the game's clocks already.")
        return {}
    if kind in (Ruling.Kind.SUSPEND, Ruling.Kind.RESTRICT_CHAT):
        return _suspension_details(case, by, details, kind)
    if kind == Ruling.Kind.REWIND:
        return _rewind_details(game, details)
    return {}


def _check_target(case: Case, target: User | None, kind: str) -> None:
    if target is None:
        raise ModerationError(f"Name the member: a {WHAT[kind]} is about one member.")
    authors = set()
    if case.message is not None:
        authors.add(case.message.author_id)
    if target.pk not in party_ids(case) | authors:
        raise ModerationError(f"{target} is not a party to this case.")


def _result_details(game: Game, kind: str, details: Mapping[str, Any]) -> dict[str, Any]:
    rows = current_rows(game.pk)
    if not rows:
        raise ModerationError(STILL_PLAYED)
    void = all(row.source == Result.Source.VOID for row in rows.values())
    if kind == Ruling.Kind.VOID:
        if void:
            raise Conflict("The game is void already.")
        return {}
    if kind == Ruling.Kind.FORFEIT:
        seat = _seat(details.get("seat"), rows, "the seat that forfeits")
        return {"seat": seat}
    scores = details.get("scores")
    if not isinstance(scores, Mapping):
        raise ModerationError("Give every seat's score.")
    checked_scores, racks = {}, {}
    for seat in sorted(rows):
        checked_scores[str(seat)] = _whole(scores.get(str(seat)), f"seat {seat + 1}'s score")
        rack = (details.get("racks") or {}).get(str(seat))
        if rack not in (None, ""):
            racks[str(seat)] = _whole(rack, f"seat {seat + 1}'s rack value", lowest=0)
    winner = details.get("winner")
    checked_winner = None if winner in (None, "") else _seat(winner, rows, "the winner")
    return {"scores": checked_scores, "racks": racks, "winner": checked_winner}


def _seat(value: Any, rows: Mapping[int, Result], what: str) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ModerationError(f"Choose {what}.") from None
    if seat not in rows:
        raise ModerationError(f"The game has no seat {seat + 1}.")
    return seat


def _whole(value: Any, what: str, lowest: int = -LARGEST_SCORE) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise ModerationError(f"Give {what} as a whole number.") from None
    if not lowest <= number <= LARGEST_SCORE:
        raise ModerationError(
            f"{what[0].upper()}{what[1:]} must be between {lowest} and {LARGEST_SCORE}."
        )
    return number


def _suspension_details(
    case: Case, by: User, details: Mapping[str, Any], kind: str
) -> dict[str, Any]:
    """Where and how long: a suspension's, or a chat restriction's (the same bounds)."""
    what = WHAT[kind]
    scope = details.get("scope")
    if scope not in ("club", "site"):
        raise ModerationError(f"Choose where the {what} holds: the club or the whole site.")
    if scope == "club" and case.club_id is None:
        raise ModerationError(f"This game is of no club: a {what} for it holds on the site.")
    if scope == "site" and not is_site_moderator(by):
        raise NotAllowed(f"Only a site moderator makes a {what} hold on the whole site.")
    days = _whole(details.get("days"), "the number of days", lowest=1)
    if days > LONGEST_SUSPENSION_DAYS:
        raise ModerationError(f"A {what} lasts {LONGEST_SUSPENSION_DAYS} days at most.")
    return {"scope": scope, "days": days}


def _rewind_details(game: Game, details: Mapping[str, Any]) -> dict[str, Any]:
    turn = _whole(details.get("turn"), "the turn", lowest=1)
    if turn >= game.turn_number:
        raise ModerationError(
            f"Rewind to an earlier turn than the present one ({game.turn_number})."
        )
    return {"turn": turn}
