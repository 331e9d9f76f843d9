"""What a suspension keeps a member from doing, asked by games at the table; and who
sees a private table (``GAMES_SIGHT_POLICY``, :func:`table_sight`).

Games never imports moderation; it calls these by the dotted paths of the settings
``GAMES_CHAT_POLICY`` and ``GAMES_PLAY_POLICY`` (see :mod:`games.conf`). Each answers
``None`` to allow, or the sentence that refuses. A suspension from the site holds at every
table; one from a club at the tables of that club's league fixtures. A suspended member
can still log in, watch, read the chat and appeal: only saying, sitting down and moving
are refused.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import date_format

from accounts.models import User
from games.models import Table
from games.permissions import Sight
from leagues.models import Fixture
from leagues.selectors.sight import table_sight as leagues_sight
from moderation.models import Case, Suspension
from moderation.rules import is_site_moderator


def active_suspensions(user: User, now: datetime | None = None) -> QuerySet[Suspension]:
    """The member's suspensions in force at ``now`` (not lifted, started, not ended)."""
    now = now or timezone.now()
    return Suspension.objects.filter(
        user=user, starts_at__lte=now, ends_at__gt=now, lifted_at__isnull=True
    )


def suspension_at(user: User, table: Table, now: datetime | None = None) -> Suspension | None:
    """The suspension that keeps ``user`` from ``table`` (the one that ends last), or
    ``None``. The member's own suspensions are read first: nearly always there are none,
    and then the table's club is not even looked up."""
    suspensions = list(active_suspensions(user, now).select_related("club"))
    if not suspensions:
        return None
    club_id = (
        Fixture.objects.filter(table=table)
        .values_list("division__season__league__club_id", flat=True)
        .first()
    )
    barring = [s for s in suspensions if s.club_id is None or s.club_id == club_id]
    return max(barring, key=lambda s: s.ends_at, default=None)


def may_chat(user: User, table: Table) -> str | None:
    """``GAMES_CHAT_POLICY``: ``None``, or why ``user`` may not chat at ``table``."""
    suspension = suspension_at(user, table)
    return None if suspension is None else _sentence(suspension, "chat")


def may_play(user: User, table: Table) -> str | None:
    """``GAMES_PLAY_POLICY``: ``None``, or why ``user`` may not sit or move at ``table``."""
    suspension = suspension_at(user, table)
    return None if suspension is None else _sentence(suspension, "play")


def table_sight(user: Any, table: Table) -> Sight:
    """``GAMES_SIGHT_POLICY``: what the leagues let ``user`` see of a private table (its
    club's members, its players: :func:`leagues.selectors.sight.table_sight`), and a
    site moderator the table (not its club's name) while a case about one of its games
    exists, to take it. A club's moderators are its members already."""
    sight = leagues_sight(user, table)
    if sight >= Sight.TABLE:
        return sight
    if Case.objects.filter(game__table=table).exists() and is_site_moderator(user):
        return Sight.TABLE
    return sight


def _sentence(suspension: Suspension, doing: str) -> str:
    where = f"the club {suspension.club}" if suspension.club_id else "this site"
    until = date_format(timezone.localtime(suspension.ends_at), "j F Y, H:i")
    return (
        f"You are suspended from {where} until {until}, so you cannot {doing} here. You "
        "can still watch, read and appeal the ruling."
    )


__all__ = ["active_suspensions", "may_chat", "may_play", "suspension_at", "table_sight"]
