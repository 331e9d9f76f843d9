"""Players' connections to a game's page as their record keeps them
(:class:`games.models.PageConnection`, written by :mod:`games.page_connections` and kept
``GAMES_CONNECTION_DAYS``): read for a case's evidence, never shown to another player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from games.conf import connection_days
from games.models import Game, PageConnection

Span = tuple[datetime, datetime]


def kept_days() -> float:
    """How far back the record reaches, in days: older connections are pruned
    (:func:`games.page_connections.prune`), so a page never connected within it may
    still have been open before."""
    return connection_days()


def connected_spans(game: Game) -> dict[int, list[Span]]:
    """Each seat's connected time on the game's page, overlapping connections merged
    (two tabs are one presence); a connection never closed ends at its last heartbeat."""
    by_seat: dict[int, list[Span]] = defaultdict(list)
    rows = PageConnection.objects.filter(game=game).order_by("connected_at")
    for row in rows.values_list("seat", "connected_at", "seen_at", "disconnected_at"):
        seat, began, seen, ended = row
        by_seat[seat].append((began, ended or seen))
    return {seat: merged(spans) for seat, spans in by_seat.items()}


def merged(spans: Iterable[Span]) -> list[Span]:
    """The spans joined where they overlap or touch, in order."""
    out: list[Span] = []
    for began, ended in sorted(spans):
        if out and began <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], ended))
        else:
            out.append((began, ended))
    return out
