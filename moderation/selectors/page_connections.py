"""Beside each timeout in a case's evidence: whether the player's page of the game was
connected while their turn ran (each seat's connected spans, read by
:mod:`games.selectors.connections`), and on which turns a player asked the solver for help
(:class:`games.models.HelpAsked`).

Secret like the rest of the evidence: read only through it, by whoever decides in the
case. A player never reads another's connections.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.utils import dateformat, timezone

from games.models import Game, HelpAsked
from games.selectors.connections import Span, kept_days

NO_RECORD = (
    "No connection to this game's page is on record for any player: the game is older "
    "than the record, or its connections were pruned."
)

NOTICED = timedelta(seconds=60)
"""A gap counts beside a timeout when at least this much of it falls in the turn: a
page reloading, or a socket reconnecting after a network blip, is no absence."""


def at(moment: datetime) -> str:
    """A moment as the evidence writes it: the day, the time to the second, the zone."""
    return dateformat.format(timezone.localtime(moment), "D j M Y, H:i:s T")


def beside_timeout(name: str, spans: Sequence[Span], began: datetime, ran_out: datetime) -> str:
    """What the page connections say about a turn of ``name`` that began at ``began`` and
    ran out at ``ran_out``: when their page was not connected around it."""
    if not spans:
        return (
            f"{name}'s page of this game was never connected while the history was kept "
            f"(the last {kept_days():g} days); the turn ran out at {at(ran_out)}."
        )
    gaps = _gaps(spans)
    around = [
        (start, end)
        for start, end in gaps
        if min(end or ran_out, ran_out) - max(start or began, began) >= NOTICED
    ]
    if not around:
        return (
            f"{name}'s page was connected for the whole turn, from {at(began)}; "
            f"the turn ran out at {at(ran_out)}."
        )
    told = "; ".join(_gap_words(start, end) for start, end in around)
    return f"{name}'s page was not connected {told}; the turn ran out at {at(ran_out)}."


def _gaps(spans: Sequence[Span]) -> list[tuple[datetime | None, datetime | None]]:
    """The times between the connected spans: before the first (``None``: from the
    start of the history), between two, after the last (``None``: not since)."""
    gaps: list[tuple[datetime | None, datetime | None]] = [(None, spans[0][0])]
    gaps += [(spans[i][1], spans[i + 1][0]) for i in range(len(spans) - 1)]
    gaps.append((spans[-1][1], None))
    return gaps


def _gap_words(start: datetime | None, end: datetime | None) -> str:
    if start is None:
        return f"until {at(end)}" if end is not None else "at all"
    return f"from {at(start)} to {at(end)}" if end is not None else f"from {at(start)} on"


def help_by_turn(game: Game) -> dict[tuple[int, int], list[str]]:
    """What each seat asked the solver for, by (seat, turn number): "a hint (2 times)"."""
    asked: dict[tuple[int, int], list[str]] = defaultdict(list)
    rows = HelpAsked.objects.filter(game=game).order_by("turn_number", "seat", "kind")
    for row in rows:
        times = f" ({row.times} times)" if row.times > 1 else ""
        asked[row.seat, row.turn_number].append(f"{row.get_kind_display()}{times}")
    return dict(asked)
