"""Settings of the leagues app: each function reads one from Django settings, where a
site may override its default (docs/operating.md lists them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.module_loading import import_string

from leagues.errors import NotAllowed

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game

ClubPolicy = Callable[["User", "int | None", str], "str | None"]
PartyPolicy = Callable[["User", "Game"], "str | None"]
StaffPolicy = Callable[["User", "int"], "str | None"]


def play_policy() -> ClubPolicy | None:
    """``LEAGUES_PLAY_POLICY``: the dotted path of a further check of a member taking part
    in a club (unset: none), called as ``policy(user, club_id, doing)`` with ``doing``
    one of ``register``, ``join`` (the member asks), ``substitute`` or ``admit`` (an
    organiser asks for them); it returns ``None`` to allow it, or the sentence that
    refuses it. Moderation sets it to enforce suspensions without leagues knowing
    moderation."""
    path = getattr(settings, "LEAGUES_PLAY_POLICY", "")
    policy: ClubPolicy | None = import_string(path) if path else None
    return policy


def ensure_may_take_part(user: User, club_id: int, doing: str) -> None:
    """:class:`~leagues.errors.NotAllowed` (403) with the policy's sentence if
    ``LEAGUES_PLAY_POLICY`` keeps ``user`` from ``doing`` in the club ``club_id``."""
    policy = play_policy()
    refusal = policy(user, club_id, doing) if policy is not None else None
    if refusal:
        raise NotAllowed(refusal)


def party_policy() -> PartyPolicy | None:
    """``LEAGUES_PARTY_POLICY``: the dotted path of the function that says whether a
    member is a party to a case about a game (unset: nobody is), called as
    ``policy(user, game)``; it returns ``None``, or the sentence that says so. An
    organiser who is a party may not adjust the game's score. Moderation sets it without
    leagues knowing moderation."""
    path = getattr(settings, "LEAGUES_PARTY_POLICY", "")
    policy: PartyPolicy | None = import_string(path) if path else None
    return policy


def staff_policy() -> StaffPolicy | None:
    """``LEAGUES_STAFF_POLICY``: the dotted path of the function that says whether a
    member's staff powers in a club (an owner's, organiser's or moderator's) are taken
    away for now (unset: never), called as ``policy(user, club_id)``; it returns
    ``None``, or the sentence that says why. Moderation sets it to its suspensions
    without leagues knowing moderation."""
    path = getattr(settings, "LEAGUES_STAFF_POLICY", "")
    policy: StaffPolicy | None = import_string(path) if path else None
    return policy


def staff_refusal(user: Any, club_id: int) -> str | None:
    """Why ``user`` may not use their staff powers in the club ``club_id`` now (the
    policy's sentence), or ``None``: every staff door asks it."""
    policy = staff_policy()
    if policy is None or not getattr(user, "is_authenticated", False):
        return None
    return policy(user, club_id)


def close_grace() -> timedelta:
    """``LEAGUES_CLOSE_GRACE_HOURS``: how long after its last deadline at the earliest a
    season's announced close comes (48): disputes may still be filed until then."""
    return timedelta(hours=int(getattr(settings, "LEAGUES_CLOSE_GRACE_HOURS", 48)))
