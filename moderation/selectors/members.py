"""A member's record for moderators, and the archive of decided cases.

The record is everything moderation knows of one member that the viewer moderates:
the cases they filed, were accused in or played in, with each case's rulings; the
reports they filed; the warnings and suspensions ruled against them (current and past,
with the ruling that made each and the one that lifted it); and the turns they let run
out of time. What it reads is :func:`moderation.permissions.record_cases` (a site moderator
every case, a club's moderators their club's, never a case the viewer is a party to)
and, for timeouts, :func:`moderation.permissions.record_scope`. Every list is bounded: the
newest :data:`RECORD_LIMIT`, with the count of all; the archive has pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import Exists, Model, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Move, Seat
from moderation.models import Case, Report, Ruling, Suspension
from moderation.permissions import party_cases, record_cases, record_scope

T = TypeVar("T")
M = TypeVar("M", bound=Model)

RECORD_LIMIT = 20
"""How many of each kind of thing a record shows (the newest), beside the count of all."""

ARCHIVE_PER_PAGE = 25


@dataclass
class CaseLine:
    """One case of the member's, with what they were in it and its rulings."""

    case: Case
    roles: list[str]
    rulings: list[Ruling]


@dataclass
class SuspensionLine:
    """A suspension of the member's: the ruling that made it and the one that lifted it."""

    suspension: Suspension
    lifted_by: Ruling | None
    now: datetime

    @property
    def current(self) -> bool:
        s = self.suspension
        return s.lifted_at is None and s.starts_at <= self.now < s.ends_at

    @property
    def state(self) -> str:
        s = self.suspension
        if s.lifted_at is not None:
            return "lifted"
        if self.current:
            return "current"
        return "ended" if s.ends_at <= self.now else "to come"


@dataclass
class Bounded(Generic[T]):
    """The newest items of a list, and how many there are in all."""

    items: list[T]
    total: int

    @property
    def more(self) -> int:
        return self.total - len(self.items)


@dataclass
class MemberRecord:
    member: User
    whole_site: bool
    cases: Bounded[CaseLine]
    reports: Bounded[Report]
    warnings: Bounded[Ruling]
    suspensions: list[SuspensionLine]
    timeouts: Bounded[Move]

    @property
    def suspension_count(self) -> int:
        return sum(not line.suspension.chat_only for line in self.suspensions)

    @property
    def chat_count(self) -> int:
        return sum(line.suspension.chat_only for line in self.suspensions)


def _bounded(rows: QuerySet[M]) -> Bounded[M]:
    return Bounded(list(rows[:RECORD_LIMIT]), rows.count())


def _rulings() -> Prefetch[str]:
    return Prefetch(
        "rulings",
        queryset=Ruling.objects.select_related("target").order_by("created_at", "pk"),
    )


def member_record(viewer: User, member: User) -> MemberRecord:
    """``member``'s record as ``viewer`` may read it (asked of
    ``moderation.read_records`` by the view first)."""
    readable = record_cases(viewer)
    theirs = readable.filter(pk__in=party_cases(member).values("pk"))
    filed = set(
        Report.objects.filter(filer=member, case__in=theirs).values_list("case_id", flat=True)
    )
    cases = _bounded(
        theirs.select_related("game__table", "accused", "club")
        .prefetch_related(_rulings())
        .order_by("-opened_at", "-pk")
    )
    lines = Bounded(
        [
            CaseLine(case, _roles(case, member, filed), list(case.rulings.all()))
            for case in cases.items
        ],
        cases.total,
    )
    reports = _bounded(
        Report.objects.filter(filer=member, case__in=readable)
        .select_related("case__game")
        .order_by("-created_at", "-pk")
    )
    warnings = _bounded(
        Ruling.objects.filter(target=member, kind=Ruling.Kind.WARN, case__in=readable)
        .exclude(status__in=(Ruling.Status.PROPOSED, Ruling.Status.DECLINED))
        .select_related("case", "by")
        .order_by("-created_at", "-pk")
    )
    suspensions = (
        Suspension.objects.filter(user=member, ruling__case__in=readable)
        .select_related("club", "ruling__by", "ruling__superseded_by__by")
        .order_by("-starts_at", "-pk")[:RECORD_LIMIT]
    )
    now = timezone.now()
    return MemberRecord(
        member=member,
        whole_site=record_scope(viewer) is None,
        cases=lines,
        reports=reports,
        warnings=warnings,
        suspensions=[SuspensionLine(s, _lifted_by(s), now) for s in suspensions],
        timeouts=_bounded(timeouts(viewer, member)),
    )


def _roles(case: Case, member: User, filed: set[int]) -> list[str]:
    roles = []
    if case.pk in filed:
        roles.append("filed a report")
    if case.accused_id == member.pk:
        roles.append("accused")
    if not roles:
        roles.append("played in the game")
    return roles


def _lifted_by(suspension: Suspension) -> Ruling | None:
    if suspension.lifted_at is None:
        return None
    try:
        return suspension.ruling.superseded_by
    except Ruling.DoesNotExist:
        return None


def timeouts(viewer: User, member: User) -> QuerySet[Move]:
    """The turns ``member``'s clock ran out, newest first, in the games ``viewer``
    reads: every game for a site moderator, their clubs' league games for a club's."""
    seats = Seat.objects.filter(Q(user=member) | Q(replaced_user=member))
    moves = Move.objects.filter(by=Move.By.TIMEOUT, game__table_id__in=seats.values("table_id"))
    theirs = seats.filter(table_id=OuterRef("game__table_id"), number=OuterRef("seat"))
    moves = moves.filter(Exists(theirs))
    scope = record_scope(viewer)
    if scope is not None:
        moves = moves.filter(game__table__fixture__matchday__season__league__club_id__in=scope)
    return moves.select_related("game__table").order_by("-created_at", "-pk")


def decided_cases(viewer: User, member: User | None, page: int | str | None) -> Page[Case]:
    """One page of the decided cases ``viewer`` reads, the last decided first; with
    ``member``, only the cases they are a party to."""
    cases = record_cases(viewer).filter(status=Case.Status.DECIDED)
    if member is not None:
        cases = cases.filter(pk__in=party_cases(member).values("pk"))
    cases = (
        cases.select_related("game__table", "accused", "club")
        .prefetch_related(_rulings())
        .order_by("-decided_at", "-pk")
    )
    return Paginator(cases, ARCHIVE_PER_PAGE).get_page(page)
