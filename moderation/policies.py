"""What a suspension keeps a member from doing: one answer, asked at every door;
and who sees a private table (``GAMES_SIGHT_POLICY``, :func:`table_sight`).

:func:`refusal` answers whether a member's suspension keeps them from ``doing`` something
where ``club`` is concerned: ``None`` to allow, or the sentence that refuses. A suspension
from the site holds everywhere; one from a club holds for that club only (its league
fixtures, registering for its seasons, joining it again, reporting its games). A
suspended member can still log in, watch, read the chat and appeal: only what
:data:`DOINGS` names is refused. A chat restriction (a suspension ``chat_only``, ruled
with the kind ``chat``) refuses ``chat`` alone, in the same places: the member's
messages are refused with the reason (not shown to them alone), and they play on.

A suspension also takes away the member's staff powers where it holds
(:func:`staff_refusal`, :mod:`moderation.suspensions`): a suspended organiser or club
moderator uses none of the club's organisers' tools and moderates none of its cases, a
site moderator suspended from the site moderates nothing.

Lower apps never import moderation; they ask by the dotted path of a setting:
``GAMES_PLAY_POLICY`` and ``GAMES_CHAT_POLICY`` (:func:`may_play`, :func:`may_chat`, see
:mod:`games.conf`), ``LEAGUES_PLAY_POLICY`` (:func:`refusal` itself) and
``LEAGUES_STAFF_POLICY`` (:func:`staff_refusal`, see :mod:`leagues.conf`). Moderation's
own doors (filing a report) call :func:`refusal`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import User
from games.models import Table
from games.selectors.sight import Sight
from leagues.selectors.sight import table_sight as leagues_sight
from moderation.models import Case, Suspension
from moderation.permissions import is_site_moderator
from moderation.suspensions import (
    active_suspensions,
    ends_in_words,
    staff_refusal,
    suspension_at,
)

DOINGS = {
    "play": "play here",
    "chat": "chat here",
    "register": "register for a season",
    "join": "join this club",
    "report": "file new reports",
}
"""What a suspended member is told they cannot do, by the name a door asks with."""

ON_BEHALF = {
    "substitute": "be seated as a substitute",
    "admit": "join this club",
}
"""What an organiser is told a suspended member cannot do, when the organiser asks."""


def refusal(
    user: User, club: int | Table | None, doing: str, now: datetime | None = None
) -> str | None:
    """``None`` if no suspension keeps ``user`` from ``doing`` (a key of :data:`DOINGS`
    or :data:`ON_BEHALF`) where ``club`` is concerned, else the sentence that refuses.

    ``club`` is a club's id, ``None`` for what belongs to no club (only a site
    suspension holds there), or a table: its league fixture's club, looked up only when
    the member has a suspension at all (nearly always they have none).
    """
    suspension = suspension_at(user, club, now, chat=doing == "chat")
    return None if suspension is None else _sentence(suspension, doing)


def may_chat(user: User, table: Table) -> str | None:
    """``GAMES_CHAT_POLICY``: ``None``, or why ``user`` may not chat at ``table``."""
    return refusal(user, table, "chat")


def may_play(user: User, table: Table) -> str | None:
    """``GAMES_PLAY_POLICY``: ``None``, or why ``user`` may not sit or move at ``table``."""
    return refusal(user, table, "play")


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
    until = ends_in_words(suspension)
    if suspension.chat_only:
        tables = f"the club {suspension.club}'s tables" if suspension.club_id else "this site"
        return (
            f"Your chat is restricted at {tables} until {until}, so you cannot chat here. "
            "You can still play, watch, read and appeal the ruling."
        )
    if doing in ON_BEHALF:
        return (
            f"{suspension.user} is suspended from {where} until {until}, so they cannot "
            f"{ON_BEHALF[doing]}."
        )
    return (
        f"You are suspended from {where} until {until}, so you cannot {DOINGS[doing]}. You "
        "can still watch, read and appeal the ruling."
    )


__all__ = [
    "DOINGS",
    "ON_BEHALF",
    "active_suspensions",
    "may_chat",
    "may_play",
    "refusal",
    "staff_refusal",
    "suspension_at",
    "table_sight",
]
