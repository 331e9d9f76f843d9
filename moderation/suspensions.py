"""Which suspensions hold, and where: read by what a suspension keeps a member from
(:mod:`moderation.policies`) and by who moderates (:mod:`moderation.permissions`).

A suspension from a club holds for that club; one from the site holds everywhere. Besides
playing and the other doings of :data:`moderation.policies.DOINGS`, a suspension takes
away the member's staff powers where it holds, for its duration (:func:`staff_refusal`):
a club's owner, organisers and moderators do not use the organisers' tools nor moderate
the club's cases; a site moderator suspended from the site moderates nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import dateformat, timezone

from games.models import Table
from leagues.models import Fixture
from moderation.models import SITE_FORMAT, Suspension


def active_suspensions(
    user: Any, now: datetime | None = None, *, chat: bool = False
) -> QuerySet[Suspension]:
    """The member's suspensions in force at ``now`` (not lifted, started, not ended);
    with ``chat``, their chat restrictions too (which keep them from nothing else)."""
    now = now or timezone.now()
    rows = Suspension.objects.filter(
        user=user, starts_at__lte=now, ends_at__gt=now, lifted_at__isnull=True
    )
    return rows if chat else rows.filter(chat_only=False)


def suspension_at(
    user: Any, club: int | Table | None, now: datetime | None = None, *, chat: bool = False
) -> Suspension | None:
    """The suspension that keeps ``user`` from ``club`` (a club's id, ``None`` for what
    belongs to no club, or a table: its league fixture's club): the one that ends last,
    or ``None``; with ``chat``, a chat restriction counts too."""
    if not getattr(user, "is_authenticated", False):
        return None
    suspensions = list(active_suspensions(user, now, chat=chat).select_related("club"))
    if not suspensions:
        return None
    club_id = _club_of(club) if isinstance(club, Table) else club
    barring = [s for s in suspensions if s.club_id is None or s.club_id == club_id]
    return max(barring, key=lambda s: s.ends_at, default=None)


def _club_of(table: Table) -> int | None:
    return (
        Fixture.objects.filter(table=table)
        .values_list("division__season__league__club_id", flat=True)
        .first()
    )


def ends_in_words(suspension: Suspension) -> str:
    """When ``suspension`` ends, as moderation's pages write a moment, in the current
    time zone (the reader's: a refusal is read by the suspended member), which it names:
    a member told "until 18:00" must know whose 18:00."""
    return dateformat.format(timezone.localtime(suspension.ends_at), SITE_FORMAT)


def staff_refusal(user: Any, club_id: int | None) -> str | None:
    """``None`` if no suspension takes away ``user``'s staff powers in the club
    ``club_id`` (``None``: the site's, a site moderator's), else the sentence that says
    so. ``LEAGUES_STAFF_POLICY`` (:mod:`leagues.conf`) is this function: the one answer
    the organisers' tools and moderation's doors ask."""
    suspension = suspension_at(user, club_id)
    if suspension is None:
        return None
    where = f"the club {suspension.club}" if suspension.club_id else "this site"
    until = ends_in_words(suspension)
    powers = "organise or moderate there" if suspension.club_id else "organise or moderate"
    return (
        f"You are suspended from {where} until {until}: while it lasts you do not {powers}. "
        "You can still watch, read and appeal the ruling."
    )


def suspended_club_ids(user: Any, club_ids: set[int]) -> set[int]:
    """Those of ``club_ids`` whose staff powers a suspension takes away from ``user``
    (every one, for a suspension from the site): one query."""
    if not club_ids or not getattr(user, "is_authenticated", False):
        return set()
    barring = set(active_suspensions(user).values_list("club_id", flat=True))
    return set(club_ids) if None in barring else club_ids & barring
