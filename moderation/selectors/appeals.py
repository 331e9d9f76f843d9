"""Reads of appeals: the moderators' queue, one thread, and a case's appeals.

Who sees an appeal: its appellant, and the moderators who may read its case (site
moderators every case, a club's moderators the cases of its league games, a party to the
case none but their own: ``moderation.read_case``). Anyone else is answered as if it did
not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import F, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from leagues.models import Membership
from leagues.permissions import MODERATING
from moderation.models import Appeal, AppealMessage, Case, Ruling
from moderation.permissions import is_site_moderator, party_cases, party_ids

PER_PAGE = 25


def appellant_ids(case: Case) -> set[int]:
    """Who may appeal ``case``: its parties and every member a ruling of it names."""
    targets = Ruling.objects.filter(case=case).exclude(target=None)
    return party_ids(case) | set(targets.values_list("target_id", flat=True))


def last_applied_at(case: Case) -> datetime | None:
    """When a ruling of ``case`` last took effect (``None``: nothing decided yet)."""
    ruled = Ruling.objects.filter(case=case).exclude(applied_at=None)
    return ruled.order_by("-applied_at").values_list("applied_at", flat=True).first()


def moderated_cases(user: User) -> QuerySet[Case]:
    """The cases ``user`` moderates: every case for a site moderator, the club's cases
    for a club's moderators, none for anyone else."""
    if is_site_moderator(user):
        return Case.objects.all()
    clubs = Membership.objects.filter(user=user, role__in=MODERATING).values("club_id")
    return Case.objects.filter(club_id__in=clubs)


def readable_cases(user: User) -> QuerySet[Case]:
    """The cases whose appeals ``user`` reads as a moderator: those they moderate, less
    those they are a party to."""
    return moderated_cases(user).exclude(pk__in=party_cases(user).values("pk"))


def moderates_any(user: User) -> bool:
    """Whether ``user`` moderates anything at all (site or some club)."""
    return is_site_moderator(user) or (
        Membership.objects.filter(user=user, role__in=MODERATING).exists()
    )


@dataclass(frozen=True)
class QueueItem:
    appeal: Appeal
    waiting: timedelta | None
    last_text: str
    may_answer: bool


def appeals_queue(user: User, page: int | str | None = 1) -> Page[QueueItem]:
    """The open appeals of the cases ``user`` moderates and is no party to, the longest
    waiting first (appeals the moderators answered last come after every waiting one,
    oldest first)."""
    appeals = (
        Appeal.objects.filter(status=Appeal.Status.OPEN, case__in=readable_cases(user))
        .select_related("appellant", "case__game", "case__club")
        .order_by(F("waiting_since").asc(nulls_last=True), "opened_at", "pk")
    )
    found = Paginator(appeals, PER_PAGE).get_page(page)
    now = timezone.now()
    last = _last_messages([appeal.pk for appeal in found.object_list])
    items = [
        QueueItem(
            appeal=appeal,
            waiting=now - appeal.waiting_since if appeal.waiting_since else None,
            last_text=last.get(appeal.pk, ""),
            may_answer=user.has_perm("moderation.take_case", appeal.case),
        )
        for appeal in found.object_list
    ]
    # The page keeps its numbers; its rows become the queue's items.
    return Page(items, found.number, found.paginator)  # type: ignore[arg-type]


def _last_messages(appeal_ids: list[int]) -> dict[int, str]:
    messages = (
        AppealMessage.objects.filter(appeal_id__in=appeal_ids)
        .order_by("appeal_id", "-created_at", "-pk")
        .distinct("appeal_id")
        .values_list("appeal_id", "text")
    )
    return dict(messages)


def visible_appeal(user: User, appeal_id: int) -> Appeal:
    """The appeal, for its appellant or a moderator of its case who is no party to it;
    else 404."""
    appeal = (
        Appeal.objects.select_related("appellant", "case__game", "case__club")
        .filter(pk=appeal_id)
        .first()
    )
    if appeal is None:
        raise Http404("There is no such appeal.")
    if appeal.appellant_id != user.pk and not user.has_perm("moderation.read_case", appeal.case):
        raise Http404("There is no such appeal.")
    return appeal


def thread(appeal: Appeal) -> list[AppealMessage]:
    return list(appeal.messages.select_related("author").order_by("created_at", "pk"))


def party_case(user: User, case_id: int) -> Case:
    """The case, for one of those who may appeal it; else 404 (a member learns nothing
    of cases they are no party to)."""
    case = Case.objects.select_related("game", "club", "fixture").filter(pk=case_id).first()
    if case is None or user.pk not in appellant_ids(case):
        raise Http404("There is no such case.")
    return case


@dataclass(frozen=True)
class AppealState:
    """Where a party stands with appealing a case."""

    decided: bool
    open_appeal: Appeal | None
    closed_appeals: list[Appeal]
    may_appeal: bool


def appeal_state(user: User, case: Case) -> AppealState:
    decided_at = last_applied_at(case)
    mine = list(Appeal.objects.filter(case=case, appellant=user).order_by("opened_at", "pk"))
    open_one = next((a for a in mine if a.status == Appeal.Status.OPEN), None)
    closed = [a for a in mine if a.status == Appeal.Status.CLOSED]
    closed_since = decided_at is not None and any(
        a.closed_at is not None and a.closed_at >= decided_at for a in closed
    )
    return AppealState(
        decided=decided_at is not None,
        open_appeal=open_one,
        closed_appeals=closed,
        may_appeal=decided_at is not None and open_one is None and not closed_since,
    )


def case_appeals(user: User, case: Case) -> list[Appeal]:
    """A case's appeals as ``user`` may see them: all of them for its moderators who are
    no party to it, their own for a party, none for anyone else."""
    appeals = Appeal.objects.filter(case=case).select_related("appellant")
    if user.has_perm("moderation.read_case", case):
        return list(appeals.order_by("opened_at", "pk"))
    return list(appeals.filter(Q(appellant=user)).order_by("opened_at", "pk"))


def waiting_count(user: User) -> int:
    """How many appeals of the cases ``user`` moderates (and is no party to) wait for an
    answer."""
    return Appeal.objects.filter(
        status=Appeal.Status.OPEN, waiting_since__isnull=False, case__in=readable_cases(user)
    ).count()
