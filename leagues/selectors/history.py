"""A season's history: every recorded change to its rows and its fixtures' results.

Two sources, read together newest first: the pghistory events of the season's own
rows (the season, its divisions, entries, matchdays, fixtures and organisers' score
changes: one event per insert and update, with the context of the request or job that
made it: who and why), and the result rows that superseded others in its fixtures'
games (a ruling: who, when, why).

A page is chosen first from a union of the sources' keys and times (one indexed query,
``LIMIT``ed), and only that page's rows are then read in full, with the event before
each (what it changed), so a long season costs no more per page than a short one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import models
from django.db.models import Exists, F, OuterRef, Subquery, Value
from django.utils import timezone
from django.utils.formats import date_format

from accounts.models import User
from games.models import Result
from leagues.models import Division, Entry, Fixture, Matchday, ScoreAdjustment, Season

PER_PAGE = 25
TRACKED: dict[str, type[models.Model]] = {
    "season": Season,
    "division": Division,
    "entry": Entry,
    "matchday": Matchday,
    "fixture": Fixture,
    "adjustment": ScoreAdjustment,
}
RESULT = "result"
# What a change of these fields is not worth showing (bookkeeping, or the id itself).
UNSHOWN = {"id", "created_at", "registered_at", "decided_at"}
# What only the club's organisers read: why a second organiser declined a score change
# (the decline form says the organiser who proposed it reads it).
ORGANISERS_ONLY_FIELDS = {"decision_note"}
APPLIED_ADJUSTMENTS = [ScoreAdjustment.Status.CONFIRMED, ScoreAdjustment.Status.APPLIED]
LONGEST_VALUE = 80


@dataclass(frozen=True)
class Change:
    field: str
    before: str
    after: str


@dataclass(frozen=True)
class HistoryItem:
    """One recorded change: when, by whom, to what, what changed, and why."""

    at: datetime
    who: str
    what: str
    action: str
    changes: list[Change]
    why: str
    private_why: str = ""
    """A reason given for the organisers only (a player's own, withdrawing); empty for
    anyone else."""


def season_history(
    season: Season, page: int | str | None = 1, *, private: bool = False
) -> Page[HistoryItem]:
    """The page ``page`` of the season's history, newest first (an unknown page number
    gives the last page). ``private``: the viewer organises the club, reads the score
    changes still proposed or declined and why a second organiser declined one, and the
    reasons given for the organisers only."""
    paginator = Paginator(_keys(season, private), PER_PAGE)
    keys = paginator.get_page(page)
    items = _items(season, list(keys.object_list), private)
    keys.object_list = items
    page_of_items: Page[HistoryItem] = keys
    return page_of_items


def _event_rows(season: Season, private: bool) -> dict[str, models.QuerySet[Any]]:
    # pghistory adds each tracked model's event model as ``pgh_event_model``.
    events = {name: model.pgh_event_model.objects for name, model in TRACKED.items()}  # type: ignore[attr-defined]
    return {
        "season": events["season"].filter(pgh_obj_id=season.pk),
        "division": events["division"].filter(season_id=season.pk),
        "entry": events["entry"].filter(season_id=season.pk),
        "matchday": events["matchday"].filter(season_id=season.pk),
        "fixture": events["fixture"].filter(
            matchday_id__in=Matchday.objects.filter(season=season).values("pk")
        ),
        "adjustment": _adjustments(events["adjustment"].filter(season_id=season.pk), private),
    }


def _adjustments(rows: models.QuerySet[Any], private: bool) -> models.QuerySet[Any]:
    """The score changes' events a viewer reads: a change still proposed, or declined, is
    the organisers' business (the adjustment page is theirs only) until it is applied."""
    if private:
        return rows
    return rows.filter(pgh_obj__status__in=APPLIED_ADJUSTMENTS)


def _rulings(season: Season) -> models.QuerySet[Result]:
    return Result.objects.filter(
        supersedes__isnull=False, game__table__fixture__matchday__season=season
    )


def _keys(season: Season, private: bool) -> models.QuerySet[Any]:
    """(kind, key, at) of every recorded change, newest first."""
    parts = [
        rows.annotate(kind=Value(name), key=F("pgh_id"), at=F("pgh_created_at")).values_list(
            "kind", "key", "at"
        )
        for name, rows in _event_rows(season, private).items()
    ]
    rulings = _rulings(season).annotate(kind=Value(RESULT), key=F("pk"), at=F("created_at"))
    first, *rest = parts
    union: models.QuerySet[Any] = first.union(
        *rest, rulings.values_list("kind", "key", "at"), all=True
    )
    return union.order_by("-at", "-key")


def _items(
    season: Season, keys: Sequence[tuple[str, int, datetime]], private: bool
) -> list[HistoryItem]:
    wanted: dict[str, list[int]] = {}
    for kind, key, _ in keys:
        wanted.setdefault(kind, []).append(key)
    found: dict[tuple[str, int], HistoryItem] = {}
    rows = _event_rows(season, private)
    for kind, ids in wanted.items():
        if kind == RESULT:
            found.update(((RESULT, r.pk), _ruling_item(r)) for r in _ruling_rows(ids))
        else:
            found.update(_event_items(kind, rows[kind], ids, private))
    return [found[(kind, key)] for kind, key, _ in keys if (kind, key) in found]


# --- row events ------------------------------------------------------------------------


def _event_items(
    kind: str, rows: models.QuerySet[Any], ids: list[int], private: bool
) -> Iterable[tuple[tuple[str, int], HistoryItem]]:
    model = rows.model
    previous_id = (
        model.objects.filter(pgh_obj_id=OuterRef("pgh_obj_id"), pgh_id__lt=OuterRef("pgh_id"))
        .order_by("-pgh_id")
        .values("pgh_id")[:1]
    )
    events = list(
        rows.filter(pgh_id__in=ids)
        .select_related("pgh_context")
        .annotate(event_before=Subquery(previous_id))
    )
    previous = model.objects.in_bulk([e.event_before for e in events if e.event_before])
    names = _names(_user_ids(events, previous.values()))
    tracked = TRACKED[kind]
    for event in events:
        context = event.pgh_context.metadata if event.pgh_context else {}
        before = previous.get(event.event_before)
        yield (
            (kind, event.pgh_id),
            HistoryItem(
                at=event.pgh_created_at,
                who=names.get(context.get("user"), "The site"),
                what=_subject(kind, event, names),
                action="created" if event.pgh_label == "insert" else "changed",
                changes=[] if before is None else _changes(tracked, before, event, names, private),
                why=str(context.get("reason", "")),
                private_why=str(context.get("private_reason", "")) if private else "",
            ),
        )


def _subject(kind: str, event: Any, names: Mapping[Any, str]) -> str:
    if kind == "season":
        return f"Season {event.number}"
    if kind == "division":
        return str(event.name)
    if kind == "entry":
        return f"Entry of {names.get(event.user_id, 'a member')}"
    if kind == "matchday":
        return f"Matchday {event.number}"
    if kind == "adjustment":
        return f"Score change {event.id} (seat {event.seat + 1})"
    return f"Fixture at table {event.table_id}" if event.table_id else f"Fixture {event.id}"


def _changes(
    model: type[models.Model], before: Any, after: Any, names: Mapping[Any, str], private: bool
) -> list[Change]:
    changes = []
    for field in model._meta.concrete_fields:
        if field.attname in UNSHOWN or (field.attname in ORGANISERS_ONLY_FIELDS and not private):
            continue
        old, new = getattr(before, field.attname), getattr(after, field.attname)
        if old != new:
            changes.append(
                Change(
                    str(field.verbose_name).capitalize(),
                    _shown(field, old, names),
                    _shown(field, new, names),
                )
            )
    return changes


def _shown(field: models.Field[Any, Any], value: Any, names: Mapping[Any, str]) -> str:
    if value is None or value == "":
        return "nothing"
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, datetime):
        # A deadline changed binds: the zone named, as every page names it.
        return date_format(timezone.localtime(value), "D j M Y, H:i T")
    if field.is_relation and field.related_model is User:
        return names.get(value, f"member {value}")
    text = str(value)
    return text if len(text) <= LONGEST_VALUE else text[: LONGEST_VALUE - 1] + "…"


def _user_ids(events: Iterable[Any], previous: Iterable[Any]) -> set[int]:
    ids: set[int] = set()
    for event in [*events, *previous]:
        context = event.pgh_context.metadata if getattr(event, "pgh_context", None) else {}
        ids.update(
            value
            for value in (
                context.get("user"),
                getattr(event, "user_id", None),
                getattr(event, "substitute_id", None),
                getattr(event, "proposed_by_id", None),
                getattr(event, "decided_by_id", None),
            )
            if isinstance(value, int)
        )
    return ids


def _names(user_ids: Iterable[int]) -> dict[Any, str]:
    return {user.pk: str(user) for user in User.objects.filter(pk__in=set(user_ids))}


# --- rulings ---------------------------------------------------------------------------


def _ruling_rows(ids: list[int]) -> models.QuerySet[Result]:
    # An organisers' score change writes its rows at the moment it is applied; any other
    # correction is the moderators' (a ruling, or its undoing).
    by_organisers = ScoreAdjustment.objects.filter(
        game=OuterRef("game"),
        decided_at=OuterRef("created_at"),
        status__in=[ScoreAdjustment.Status.CONFIRMED, ScoreAdjustment.Status.APPLIED],
    )
    return (
        Result.objects.filter(pk__in=ids)
        .select_related("game", "member", "decided_by", "supersedes")
        .annotate(by_organisers=Exists(by_organisers))
    )


def _ruling_item(row: Result) -> HistoryItem:
    old = row.supersedes
    assert old is not None
    seat = str(row.member) if row.member is not None else f"seat {row.seat + 1}"
    pairs = [
        ("Score", old.score, row.score),
        ("Rack value", old.rack_value, row.rack_value),
        ("Place", old.place, row.place),
        ("Winner", _yes(old.is_winner), _yes(row.is_winner)),
    ]
    what = f"Result of {seat} in game {row.game.number} at table {row.game.table_id}"
    changes = [Change(name, str(a), str(b)) for name, a, b in pairs if a != b]
    if getattr(row, "by_organisers", False):
        return HistoryItem(
            at=row.created_at,
            who=str(row.decided_by) if row.decided_by is not None else "The site",
            what=what,
            action="corrected (score change)",
            changes=changes,
            why=row.reason,
        )
    # A moderators' ruling: its note is written for the game's parties (the ruling form
    # says so), and its moderators answer as "the moderators", as on the outcome page.
    return HistoryItem(
        at=row.created_at,
        who="The moderators",
        what=what,
        action="restored as played"
        if row.source == Result.Source.RESTORED
        else f"corrected by a moderators' ruling{_void(row)}",
        changes=changes,
        why="",
    )


def _void(row: Result) -> str:
    return " (void: counts for nobody)" if row.source == Result.Source.VOID else ""


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
