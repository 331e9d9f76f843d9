"""A notice's line kept as its facts, so that each reader reads its moments in their
own zone, whenever and wherever they read it.

A line written once as text holds its moments in the zone of whoever it was written
for, at that time: a season's close announced to all its players in the organiser's
zone, a deadline read after its member moved to another zone or across a change of
daylight-saving time. A :class:`Line` keeps words and moments apart; a notice stores it
as its ``facts`` (a list whose strings are words and whose ``{"moment": ISO 8601}``
are moments) and writes it out as it is shown (:meth:`Line.written`): on the
notifications page in the reader's zone, in an email, a digest or a push in the
member's zone when it is sent.

>>> from datetime import UTC, datetime
>>> from zoneinfo import ZoneInfo
>>> due = line("Matchday 2 ends ", datetime(2026, 12, 8, 22, 23, tzinfo=UTC), ".")
>>> due.written(ZoneInfo("Asia/Tokyo"))
'Matchday 2 ends Wed 9 Dec, 07:23 JST.'
>>> from_facts(due.facts()) == due
True
>>> (due + " Play on.").written(ZoneInfo("Europe/Lisbon"))
'Matchday 2 ends Tue 8 Dec, 22:23 WET. Play on.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from common import moments

Part = str | datetime
"""Words, or a moment (aware)."""

MOMENT = "moment"
"""The key of a moment among a line's facts."""


@dataclass(frozen=True)
class Line:
    """Words and moments, in order; written out in a zone only when read."""

    parts: tuple[Part, ...]

    def __add__(self, other: Line | str) -> Line:
        return Line((*self.parts, *_parts_of(other)))

    def __radd__(self, other: str) -> Line:
        return Line((*_parts_of(other), *self.parts))

    @property
    def has_moments(self) -> bool:
        return any(isinstance(part, datetime) for part in self.parts)

    def written(self, zone: ZoneInfo | None = None) -> str:
        """The line as a reader reads it: its moments as every notice writes one
        (:func:`common.moments.when`, the zone named), in ``zone``, else in the current
        time zone."""
        return "".join(_written(part, zone) for part in self.parts)

    def facts(self) -> list[str | dict[str, str]]:
        """The line as a notice stores it (JSON): its words, and its moments in UTC."""
        return [
            {MOMENT: part.astimezone(UTC).isoformat()} if isinstance(part, datetime) else part
            for part in self.parts
        ]


def line(*parts: Part) -> Line:
    """A line of ``parts``: words, and moments (aware datetimes)."""
    for part in parts:
        if isinstance(part, datetime) and part.tzinfo is None:
            raise ValueError("a notice's moment must say its zone (an aware datetime)")
    return Line(tuple(part for part in parts if part != ""))


def from_facts(facts: Sequence[Any]) -> Line:
    """The line a notice's ``facts`` hold (what :meth:`Line.facts` stored)."""
    return Line(tuple(_part(fact) for fact in facts))


def _part(fact: Any) -> Part:
    if isinstance(fact, dict):
        return datetime.fromisoformat(fact[MOMENT])
    return str(fact)


def _parts_of(other: Line | str) -> tuple[Part, ...]:
    return other.parts if isinstance(other, Line) else line(other).parts


def _written(part: Part, zone: ZoneInfo | None) -> str:
    if not isinstance(part, datetime):
        return part
    return moments.when(part) if zone is None else moments.when_in(part, zone)
