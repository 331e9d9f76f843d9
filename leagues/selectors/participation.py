"""Who takes part in a division, from every fact that says so.

A member takes part in a division of a season in any of these ways:

* an entry of theirs is placed in it (``Entry.user``), whoever plays it now;
* they play an entry of it as its substitute, now (``Entry.substitute``) or earlier
  (the entry's history: each substitution is an event of the entry);
* they sat at one of its fixture tables: a seat of theirs, or one a bot took over from
  them (``Seat.replaced_user``);
* a result of a game at one of its fixture tables is credited to them.

Conflicts of interest (moderation's, for a case; the organisers' tools, for a fixture)
are read from here, so that a substitute or a player whose seat was handed over counts
as much as the entry's own member. Each question is one query.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User
from games.models import Result, Seat, SeatOccupancy
from leagues.models import Division, Entry, Fixture


def _entries_of(user_ids: Collection[int]) -> QuerySet[Entry]:
    """The entries the members own or play (or played) as a substitute."""
    return Entry.objects.filter(
        Q(user_id__in=user_ids)
        | Q(substitute_id__in=user_ids)
        # pghistory's events of the entry (its ``events``): an earlier substitute.
        | Q(events__substitute_id__in=user_ids)
    )


def _at_tables_of(user_ids: Collection[int]) -> QuerySet[Fixture]:
    """The fixtures whose tables the members sat at (a seat of a game included, that a
    substitute took over since) or have a result of."""
    return Fixture.objects.filter(
        Q(table__seats__user_id__in=user_ids)
        | Q(table__seats__replaced_user_id__in=user_ids)
        | Q(table__games__occupancy__member_id__in=user_ids)
        | Q(table__games__results__member_id__in=user_ids)
    )


def fixtures_of(user: User, fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """Those of ``fixtures`` that ``user`` takes part in, in any way (the ways
    :func:`fixture_participants` reads, asked from the member's side): one query."""
    theirs = Q(seats__entry__in=_entries_of([user.pk])) | Q(pk__in=_at_tables_of([user.pk]))
    return fixtures.filter(pk__in=Fixture.objects.filter(theirs).values("pk"))


def _taking_part(user_ids: Collection[int]) -> Q:
    """On :class:`Division`: the divisions where any of ``user_ids`` takes part."""
    return Q(pk__in=_entries_of(user_ids).values("division_id")) | Q(
        pk__in=_at_tables_of(user_ids).values("division_id")
    )


Seasons = int | QuerySet[Any]
"""A season's id, or a query of season ids (its ``values("...season_id")``)."""


def divisions_of(user: User, season: Seasons) -> QuerySet[Division]:
    """The divisions of the season ``user`` takes part in, in any way."""
    seasons = season if isinstance(season, QuerySet) else [season]
    return Division.objects.filter(_taking_part([user.pk]), season_id__in=seasons).order_by(
        "level", "pk"
    )


def shared_division(user: User, others: Collection[int], season: Seasons) -> Division | None:
    """A division of the season where ``user`` and one of ``others`` both take part (the
    top one), or ``None``: one query."""
    if not others:
        return None
    shared = divisions_of(user, season).filter(_taking_part(list(others)))
    return shared.select_related("season__league").first()


def participants_in(
    division_ids: Collection[int], user_ids: Collection[int]
) -> set[tuple[int, int]]:
    """``(division id, member id)`` for each of ``user_ids`` taking part in each of
    ``division_ids``, in any of the ways :func:`shared_division` counts: one query, for
    a list that asks it of many members at once (the moderators' queue)."""
    if not division_ids or not user_ids:
        return set()
    entries = Entry.objects.filter(division_id__in=division_ids).order_by()
    fixtures = Fixture.objects.filter(division_id__in=division_ids).order_by()
    ways = [
        (entries, "user_id"),
        (entries, "substitute_id"),
        # pghistory's events of the entry (its ``events``): an earlier substitute.
        (entries, "events__substitute_id"),
        (fixtures, "table__seats__user_id"),
        (fixtures, "table__seats__replaced_user_id"),
        (fixtures, "table__games__occupancy__member_id"),
        (fixtures, "table__games__results__member_id"),
    ]
    # Each branch filters and reads the same join: the member read is the one matched.
    first, *rest = [
        rows.filter(**{f"{member}__in": user_ids}).values_list("division_id", member)
        for rows, member in ways
    ]
    return set(first.union(*rest))


def fixture_participants(fixture: Fixture) -> set[int]:
    """Every member who takes part in ``fixture``: the members of its seats' entries and
    their substitutes (now or earlier), and whoever sat at its table (now, or replaced
    by a bot, or in a seat of one of its games a substitute took over) or has a result
    of one of its games: one query."""
    entries = Entry.objects.filter(fixture_seats__fixture_id=fixture.pk)
    # pghistory adds the tracked model's event model as ``pgh_event_model``.
    events = Entry.pgh_event_model.objects  # type: ignore[attr-defined]
    # A fixture not yet opened has no table: its seats and results are none.
    table = Fixture.objects.filter(pk=fixture.pk).values("table_id")
    seats = Seat.objects.filter(table_id__in=table)
    first, *rest = [
        entries.values_list("user_id", flat=True),
        entries.values_list("substitute_id", flat=True),
        events.filter(pgh_obj_id__in=entries.values("pk")).values_list("substitute_id", flat=True),
        seats.values_list("user_id", flat=True),
        seats.values_list("replaced_user_id", flat=True),
        # Who held a seat of one of its games and no more (a substitute took over).
        SeatOccupancy.objects.filter(game__table_id__in=table).values_list("member_id", flat=True),
        Result.objects.filter(game__table_id__in=table).values_list("member_id", flat=True),
    ]
    return set(first.union(*rest)) - {None}
