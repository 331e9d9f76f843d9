"""A ruling's effects in words, for its page and the moderation log.

The record (:attr:`~moderation.models.Ruling.effects`, written by
:mod:`moderation.services.effects`) holds ids and small values; these sentences say what
they did: whose result changed and how, who was suspended until when or had a
suspension lifted, what happened to the case and to the game's clocks, and what undoing
the superseded ruling changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

from django.utils import dateformat, timezone

from games.models import Result
from moderation.models import SITE_FORMAT, BenchedSeat, Suspension


def in_words(effects: Mapping[str, Any], zone: tzinfo | None = None) -> list[str]:
    """A ruling's effects as sentences, for its page and the log: its own first, then
    what undoing the ruling it superseded changed.

    Its moments (a suspension's end) in ``zone``, which they name; by default the
    current time zone: a page's, its reader's. The log, a record written once for every
    reader, keeps them in UTC."""
    zone = timezone.get_current_timezone() if zone is None else zone
    lines = _own_words(effects, zone)
    undoing = effects.get("undoing") or {}
    if undoing:
        lines += [
            f"Undoing the ruling it supersedes: {_mid(line)}" for line in _own_words(undoing, zone)
        ]
    return lines


def _mid(sentence: str) -> str:
    """``sentence`` after a colon: "The ..." lowered, a member's name as it is."""
    return f"the {sentence[4:]}" if sentence.startswith("The ") else sentence


def _own_words(effects: Mapping[str, Any], zone: tzinfo) -> list[str]:
    lines: list[str] = []
    if effects.get("restored"):
        lines.append(
            f"The rewind to turn {effects['restored']} was taken back: "
            "the game is as it was before it."
        )
    if effects.get("rewound"):
        lines.append(f"The game went back to the start of turn {effects['rewound']}.")
    results = effects.get("results") or {}
    rows = Result.objects.select_related("member").in_bulk(
        [pk for pair in results.values() for pk in pair]
    )
    for seat, (before, after) in sorted(results.items(), key=lambda item: int(item[0])):
        if before in rows and after in rows:
            lines.append(_result_words(int(seat), rows[before], rows[after]))
    for suspension in Suspension.objects.filter(pk__in=effects.get("suspended", [])).select_related(
        "user", "club"
    ):
        where = f"the club {suspension.club}" if suspension.club_id else "the whole site"
        until = dateformat.format(suspension.ends_at.astimezone(zone), SITE_FORMAT)
        if suspension.chat_only:
            tables = f"the club {suspension.club}'s tables" if suspension.club_id else "any table"
            lines.append(
                f"{suspension.user}'s chat was restricted at {tables} until {until}: "
                "the messages they write there are refused (they are told why); they still "
                "sit and play."
            )
        else:
            lines.append(f"{suspension.user} was suspended from {where} until {until}.")
    for suspension in Suspension.objects.filter(pk__in=effects.get("lifted", [])).select_related(
        "user"
    ):
        what = "chat restriction" if suspension.chat_only else "suspension"
        lines.append(f"{suspension.user}'s {what} was lifted.")
    lines += _seat_words(effects)
    if effects.get("decided"):
        lines.append("The case was decided.")
    if effects.get("reopened"):
        lines.append("The case was open again.")
    if effects.get("held"):
        lines.append("The game's clocks stopped: the case holds the game while it is open.")
    elif effects.get("holds"):
        lines.append(
            "The case holds the game while it is open (its clocks were stopped already, "
            "by another open case)."
        )
    if effects.get("released"):
        lines.append("The game's clocks run again: no open case holds the game.")
    return lines


def _seat_words(effects: Mapping[str, Any]) -> list[str]:
    """The suspended member's running seats: a bot took one, a game was forfeited, a
    seat was given back."""
    lines = []
    rows = BenchedSeat.objects.select_related("suspension__user").in_bulk(
        [*effects.get("benched", []), *effects.get("reseated", [])]
    )
    for pk in effects.get("benched", []):
        row = rows[pk]
        if row.how == BenchedSeat.How.BOT:
            lines.append(
                f"A bot took {row.suspension.user}'s seat at table {row.table_id} "
                "for the rest of its round."
            )
        else:
            lines.append(
                f"The game in play at table {row.table_id} was forfeited by {row.suspension.user}."
            )
    for pk in effects.get("reseated", []):
        row = rows[pk]
        lines.append(
            f"The seat at table {row.table_id} is {row.suspension.user}'s again "
            "(the bot's moves stand)."
        )
    for table_id in effects.get("unseated", []):
        lines.append(f"Their seat at table {table_id}, still waiting for players, is open again.")
    return lines


def _result_words(seat: int, before: Result, after: Result) -> str:
    who = str(after.member) if after.member is not None else f"Seat {seat + 1}"

    def told(row: Result) -> str:
        if row.source == Result.Source.VOID:
            return "void"
        return f"{row.score} points, place {row.place}{', winner' if row.is_winner else ''}"

    return f"{who}'s result: {told(before)} → {told(after)}."
