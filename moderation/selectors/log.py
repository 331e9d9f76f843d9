"""The moderation log as a page reads it: who sees which entries, filters, pages.

Who sees what:

* site moderators: every entry;
* a club's owner: every entry of their club's cases (``LogEntry.club``);
* any other moderator: the entries of *their* cases, those they claimed or acted on as a
  moderator (claimed, ruled, answered an appeal, opened the evidence...);
* whatever their role, nobody reads the entries of a case they are a party to
  (:func:`moderation.permissions.party_cases`): they carry who reported, what, the appeals'
  words and the proposals; the parties' outcome page is theirs.

Anyone else may not open the log (:func:`may_read_log`). Entries are only read here;
the table itself refuses every change (database triggers).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from leagues.models import Club, Membership, Role
from leagues.permissions import MODERATING
from leagues.selectors.sight import club_name_shown
from moderation.models import Case, LogEntry, Ruling
from moderation.permissions import is_site_moderator, party_cases
from moderation.selectors.appeals import moderates_any

MODERATOR_ACTIONS = (
    LogEntry.Action.CLAIMED,
    LogEntry.Action.RELEASED,
    LogEntry.Action.PROPOSED,
    LogEntry.Action.CONFIRMED,
    LogEntry.Action.DECLINED,
    LogEntry.Action.RULED,
    LogEntry.Action.SUPERSEDED,
    LogEntry.Action.ANSWERED,
    LogEntry.Action.CLOSED_APPEAL,
    LogEntry.Action.MESSAGE_HIDDEN,
    LogEntry.Action.EVIDENCE_OPENED,
    LogEntry.Action.NOTE_ADDED,
)


def may_read_log(user: User) -> bool:
    """Site moderators, clubs' moderators (and organisers and owners)."""
    return moderates_any(user)


def owned_clubs(user: User) -> QuerySet[Club]:
    return Club.objects.filter(
        pk__in=Membership.objects.filter(user=user, role=Role.OWNER).values("club_id")
    ).order_by("name")


def visible_entries(user: User) -> QuerySet[LogEntry]:
    """The entries ``user`` may read (those about no case stay for whoever reads them)."""
    entries = LogEntry.objects.exclude(case_id__in=party_cases(user).values("pk"))
    if is_site_moderator(user):
        return entries
    acted_on = LogEntry.objects.filter(
        actor=user, action__in=MODERATOR_ACTIONS, case__isnull=False
    ).values("case_id")
    claimed = Case.objects.filter(claimed_by=user).values("pk")
    mine = Q(case_id__in=acted_on) | Q(case_id__in=claimed)
    owned = Q(club_id__in=owned_clubs(user).values("pk"))
    return entries.filter(mine | owned)


@dataclass(frozen=True)
class LogFilters:
    """What the page narrows the log to; every field empty shows it all. ``member``:
    everything about a member or done by them (:func:`about_member`)."""

    action: str = ""
    case: int | None = None
    club: Club | None = None
    actor: str = ""
    member: User | None = None
    since: date | None = None
    until: date | None = None


def about_member(member: User) -> Q:
    """The entries about ``member`` or done by them: they acted, or the entry's case is
    one they are a party to (filed, accused, played in) or one of whose rulings names
    them (a warning, a suspension, a chat restriction)."""
    named = Ruling.objects.filter(target=member).values("case_id")
    return Q(actor=member) | Q(case_id__in=party_cases(member).values("pk")) | Q(case_id__in=named)


MACHINE_KEYS = frozenset(
    {
        "ruling",
        "kind",
        "undone",
        "results",
        "suspended",
        "lifted",
        "restore_move",
        "rewind_move",
        "rewound",
        "restored",
        "decided",
        "reopened",
        "held",
        "holds",
        "released",
        "undoing",
        "effects",
        "report",
        "message",
        "hidden",
        "weight",
        "escalation",
    }
)
"""Keys of :attr:`LogEntry.changes` kept for the record (ids, flags) and said in words
by :func:`change_lines` instead."""


def change_lines(entry: LogEntry) -> list[str]:
    """What an entry changed, in sentences: a ruling's effects as it wrote them in words,
    a report's weight, a message hidden or shown, an escalation; any other key (an
    older entry's) as it was written."""
    changes = entry.changes or {}
    lines = list(changes.get("effects") or [])
    if "weight" in changes:
        lines.append(f"The report weighs {changes['weight']:g} (its filer's credibility).")
    if "hidden" in changes:
        lines.append(
            "The message is hidden from the table."
            if changes["hidden"]
            else "The message shows at the table again."
        )
    if changes.get("escalation"):
        level = Case.Escalation(changes["escalation"]).label
        lines.append(f"The case is now with {level[0].lower()}{level[1:]}.")
    lines += [f"{key}: {value}" for key, value in changes.items() if key not in MACHINE_KEYS]
    return lines


def filtered(entries: QuerySet[LogEntry], filters: LogFilters) -> QuerySet[LogEntry]:
    if filters.action:
        entries = entries.filter(action=filters.action)
    if filters.case is not None:
        entries = entries.filter(case_id=filters.case)
    if filters.club is not None:
        entries = entries.filter(club=filters.club)
    if filters.actor:
        entries = entries.filter(actor__username__iexact=filters.actor)
    if filters.member is not None:
        entries = entries.filter(about_member(filters.member))
    if filters.since is not None:
        entries = entries.filter(at__gte=_start_of(filters.since))
    if filters.until is not None:
        entries = entries.filter(at__lt=_start_of(filters.until + timedelta(days=1)))
    return entries


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def log_page(user: User, filters: LogFilters, page: int | str | None = 1) -> Page[LogEntry]:
    """One page of the entries ``user`` may read under ``filters``, newest first (an
    unknown page number gives the last page)."""
    entries = (
        filtered(visible_entries(user), filters)
        .select_related("actor", "case", "club")
        .order_by("-at", "-pk")
    )
    paginator = Paginator(entries, settings.MODERATION_LOG_PER_PAGE)
    return paginator.get_page(page)


def filter_clubs(user: User) -> QuerySet[Club]:
    """The clubs the page offers as a filter, by name: every club with a logged entry
    whose name a site moderator may read (:func:`club_name_shown`: not a private club
    they are no member of), else the clubs ``user`` moderates."""
    if is_site_moderator(user):
        logged = Club.objects.filter(pk__in=LogEntry.objects.exclude(club=None).values("club_id"))
        named = [club.pk for club in logged if club_name_shown(club, user) is not None]
        return Club.objects.filter(pk__in=named).order_by("name")
    mine = Membership.objects.filter(user=user, role__in=MODERATING).values("club_id")
    return Club.objects.filter(pk__in=mine).order_by("name")
