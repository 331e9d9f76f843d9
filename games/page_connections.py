"""The history of players' connections to a game's page, for moderators.

:mod:`games.presence` answers "is this player looking now?" from Redis and forgets at
once; a timeout disputed later needs what was: when each seat's page was open. The game
socket (:class:`games.consumers.GameConsumer`) of a player opens a
:class:`~games.models.PageConnection` when it connects, refreshes its ``seen_at`` with
its heartbeat, and closes it when it disconnects. A connection its server never closed
(the process died) ends at its last heartbeat.

Bounded: a player keeps the newest :data:`KEPT_PER_GAME` connections of a game (a page
reloaded all day long does not grow without end), and :func:`prune` (the beat job)
deletes those older than ``GAMES_CONNECTION_DAYS``. Spectators are not recorded.

A database error here must not stop a page: it is logged and the page goes on.

Not a service: a connection is no fact of a game but a trace of the socket's life, like
:mod:`games.presence` (its counterpart in Redis), written one statement at a time
outside any transaction, with no lock taken and nothing announced. The consumers, which
stay on the read side (the ``reads-not-writes`` contract keeps them from
:mod:`games.services`), record it here directly; the beat job prunes it here too.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import DatabaseError
from django.utils import timezone

from games.conf import connection_days
from games.models import PageConnection, Seat

logger = logging.getLogger(__name__)

KEPT_PER_GAME = 100
"""The most connections of one player to one game's page that are kept."""


def opened(game_id: int, user_id: int, now: datetime | None = None) -> int | None:
    """A player's page of ``game_id`` connected: the new connection's id (``None`` for
    a member with no seat in the game)."""
    now = now or timezone.now()
    # One statement at a time, each on one table, in no transaction: nothing here holds
    # a lock while it waits for another.
    try:
        seat = (
            Seat.objects.filter(table__games=game_id, user_id=user_id, kind=Seat.Kind.PLAYER)
            .values_list("number", flat=True)
            .first()
        )
        if seat is None:
            return None
        connection = PageConnection.objects.create(
            game_id=game_id, user_id=user_id, seat=seat, connected_at=now, seen_at=now
        )
        _keep_newest(game_id, user_id)
    except DatabaseError:
        logger.exception("could not record a page of game %s", game_id)
        return None
    return connection.pk


def seen(connection_id: int, now: datetime | None = None) -> None:
    """The page's heartbeat: it is still connected at ``now``."""
    try:
        PageConnection.objects.filter(pk=connection_id, disconnected_at=None).update(
            seen_at=now or timezone.now()
        )
    except DatabaseError:
        logger.exception("could not refresh page connection %s", connection_id)


def closed(connection_id: int, now: datetime | None = None) -> None:
    """The page disconnected."""
    now = now or timezone.now()
    try:
        PageConnection.objects.filter(pk=connection_id, disconnected_at=None).update(
            seen_at=now, disconnected_at=now
        )
    except DatabaseError:
        logger.exception("could not close page connection %s", connection_id)


def prune(now: datetime | None = None) -> int:
    """Delete the connections older than ``GAMES_CONNECTION_DAYS``; how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=connection_days())
    deleted, _ = PageConnection.objects.filter(connected_at__lt=cutoff).delete()
    return deleted


def _keep_newest(game_id: int, user_id: int) -> None:
    older = (
        PageConnection.objects.filter(game_id=game_id, user_id=user_id)
        .order_by("-connected_at", "-pk")
        .values_list("pk", flat=True)[KEPT_PER_GAME:]
    )
    PageConnection.objects.filter(pk__in=list(older)).delete()
