"""Fixture tables set up before ``Seat.plays_for`` (games' migration 0020) name a
substitute seated directly for a member alone ("Hank", not "Hank for Frank"), and a bot
seated for a player who withdrew under the bot rule "Bot (normal)", not "Bot (normal)
for Frank": their games' records (``SeatOccupancy``) say nobody was played for.

The record is history: the app's role may only append to it, and even the owner, who runs
this, does not rewrite it. Each such row gets a successor from the same move with whom it
was played for, which the record reads in place of the row it follows (a later row from
the same move supersedes, :func:`games.selectors.players._sit`); the row itself stays,
and its successor's ``created_at`` says when the record was completed. Whom the seat was
played for is the leagues' fact: the entry seated there (``FixtureSeat``), whose
substitutes are every one its history names (``EntryEvent``), or which withdrew. The
table's seat, which is no history, says it too (``Seat.plays_for``), for the games of a
round still to be dealt."""

from dataclasses import dataclass
from functools import reduce
from operator import or_
from typing import Any

from django.db import migrations
from django.db.models import Q


def forwards(apps: Any, schema_editor: Any) -> None:
    FixtureSeat = apps.get_model("leagues", "FixtureSeat")
    EntryEvent = apps.get_model("leagues", "EntryEvent")
    Seat = apps.get_model("games", "Seat")
    SeatOccupancy = apps.get_model("games", "SeatOccupancy")
    substitutes: dict[int, set[int]] = {}
    for entry_id, user_id in EntryEvent.objects.filter(substitute__isnull=False).values_list(
        "pgh_obj_id", "substitute_id"
    ):
        substitutes.setdefault(entry_id, set()).add(user_id)
    seats = FixtureSeat.objects.filter(fixture__table__isnull=False).select_related(
        "entry", "fixture"
    )
    for fixture_seat in seats.iterator():
        entry = fixture_seat.entry
        table_id = fixture_seat.fixture.table_id
        ever = substitutes.get(entry.pk, set()) | {entry.substitute_id} - {None}
        occupants = _played_for(entry, ever)
        if occupants is None:
            continue
        rows = SeatOccupancy.objects.filter(
            game__table_id=table_id, seat=fixture_seat.number, plays_for__isnull=True
        ).filter(occupants.record)
        completed = [
            SeatOccupancy(
                game_id=row.game_id,
                seat=row.seat,
                from_move=row.from_move,
                member_id=row.member_id,
                bot_level=row.bot_level,
                plays_for_id=entry.user_id,
            )
            for row in rows.order_by("game_id", "from_move", "pk")
            if not _completed_already(SeatOccupancy, row, entry.user_id)
        ]
        SeatOccupancy.objects.bulk_create(completed)
        Seat.objects.filter(
            occupants.seat, table_id=table_id, number=fixture_seat.number, plays_for=None
        ).update(plays_for_id=entry.user_id)


@dataclass(frozen=True)
class _Occupants:
    """Who played an entry's seat for its member: as the record names them, and as the
    table's seat does."""

    record: Q
    seat: Q


def _played_for(entry: Any, substitutes: set[int]) -> _Occupants | None:
    """The occupants of the entry's seat who played it for the entry's member: its
    substitutes, and a bot where the entry withdrew (a bot that took a seat over from a
    member names them already). ``None``: nobody did."""
    members = substitutes - {entry.user_id}
    found = []
    if members:
        found.append(_Occupants(Q(member_id__in=members), Q(kind="player", user_id__in=members)))
    if entry.status == "withdrawn":
        found.append(_Occupants(Q(member__isnull=True), Q(kind="bot", replaced_user=None)))
    if not found:
        return None
    return _Occupants(
        reduce(or_, (one.record for one in found)), reduce(or_, (one.seat for one in found))
    )


def _completed_already(SeatOccupancy: Any, row: Any, user_id: int) -> bool:
    """A successor naming ``user_id`` is there already (the migration ran before)."""
    return bool(
        SeatOccupancy.objects.filter(
            game_id=row.game_id,
            seat=row.seat,
            from_move=row.from_move,
            member_id=row.member_id,
            bot_level=row.bot_level,
            plays_for_id=user_id,
        ).exists()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0010_withdrawn_seats_forfeit_each_game"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
