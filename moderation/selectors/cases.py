"""The case page (the hub of a case) as one viewer may see it: a moderator sees every
report and the case's log; a party (a filer, the accused, a player of the game) sees
only their own reports; anyone else is told there is no such case."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from accounts.models import User
from moderation.errors import NotFound
from moderation.models import Case, CaseNote, LogEntry, Report
from moderation.permissions import is_party
from moderation.selectors.queue import QueueEntry, queue_entry


@dataclass
class CasePage:
    case: Case
    is_moderator: bool
    reports: list[Report]
    entry: QueueEntry | None
    log: list[LogEntry]
    notes: list[CaseNote] = field(default_factory=list)

    def context(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "viewer_is_moderator": self.is_moderator,
            "reports": self.reports,
            "entry": self.entry,
            "log": self.log,
            "notes": self.notes,
        }


def case_page(case_id: int, user: User) -> CasePage:
    case = (
        Case.objects.select_related("game__table", "club", "fixture", "accused", "claimed_by")
        .filter(pk=case_id)
        .first()
    )
    if case is None:
        raise NotFound("There is no such case.")
    reports = case.reports.select_related("filer", "message").order_by("created_at", "pk")
    # A moderator who is a party (sat at the game, filed, or is accused) reads the case
    # as a party: not who else reported, nor the moderators' log and proposals.
    if user.has_perm("moderation.read_case", case):
        log = list(case.log.select_related("actor").order_by("at", "pk"))
        return CasePage(case, True, list(reports), queue_entry(case, user), log, notes(case, user))
    if not is_party(user, case):
        raise NotFound("There is no such case.")
    return CasePage(case, False, list(reports.filter(filer=user)), None, [])


def notes(case: Case, user: User) -> list[CaseNote]:
    """The case's private notes, oldest first, for a viewer who may read them (else
    none): its moderators who are not parties."""
    if not user.has_perm("moderation.read_notes", case):
        return []
    return list(case.notes.select_related("author").order_by("created_at", "pk"))


def my_reports(user: User) -> QuerySet[Report]:
    """The reports ``user`` filed, newest first, with their cases."""
    return (
        Report.objects.filter(filer=user)
        .select_related("case__game", "case__club")
        .order_by("-created_at", "-pk")
    )


REPORTS_PER_PAGE = 25


def my_reports_page(user: User, page: int | str | None = None) -> Page[Report]:
    """Page ``page`` of :func:`my_reports` (counted with ``COUNT``; a bad number: the
    first, past the end: the last)."""
    return Paginator(my_reports(user), REPORTS_PER_PAGE).get_page(page)
