"""The moderators' queue: which open cases a moderator sees, in which order, and why.

A case's priority is a sum of points, each with its reason shown on the queue (the
category's severity, its filers weighted by their credibility, how long it has waited,
a game still being played, a league matchday about to close, an escalation), so a
moderator can see why one case comes before another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.timesince import timesince

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from moderation.models import Case, Category
from moderation.permissions import (
    conflicts,
    conflicts_of,
    is_site_moderator,
    moderated_club_ids,
    party_cases,
)

POINTS_PER_SEVERITY = 10
POINTS_PER_FILER = 10
POINTS_PER_HOUR = 1
MOST_AGE_POINTS = 48
RUNNING_POINTS = 20
DEADLINE_POINTS = 25
DEADLINE_SOON = timedelta(hours=48)
ESCALATED_POINTS = 30


@dataclass(frozen=True)
class Reason:
    """One part of a case's priority, as the queue shows it."""

    text: str
    points: int
    about_filers: bool = False


@dataclass
class QueueEntry:
    """An open case as the queue shows it to one moderator."""

    case: Case
    filers: int
    weight: float
    reasons: list[Reason]
    # Who holds its claim: never named to a party (``held`` only says a moderator has it).
    holder: User | None
    conflicts: list[str] = field(default_factory=list)
    held: bool = False

    @property
    def priority(self) -> int:
        return sum(reason.points for reason in self.reasons)

    @property
    def age(self) -> str:
        return timesince(self.case.opened_at)

    def claimed_by(self, user: User) -> bool:
        return self.holder is not None and self.holder.pk == user.pk

    def may_take(self, user: User) -> bool:
        return not self.conflicts and (self.holder is None or self.holder.pk == user.pk)


def is_moderator(user: User) -> bool:
    """Whether ``user`` moderates anything: the site, or a club."""
    return is_site_moderator(user) or bool(moderated_club_ids(user))


def moderated_cases(user: User) -> QuerySet[Case]:
    """The cases ``user`` may see as a moderator (every case for a site moderator)."""
    if is_site_moderator(user):
        return Case.objects.all()
    return Case.objects.filter(club_id__in=moderated_club_ids(user))


def open_count(user: User) -> int:
    """How many open cases ``user`` moderates (the header's count)."""
    return moderated_cases(user).filter(status=Case.Status.OPEN).count()


def claim_holder(case: Case, now: datetime | None = None) -> User | None:
    """Who holds the claim on ``case`` now: nobody once it went unseen past
    ``MODERATION_CLAIM_MINUTES`` (the sweep clears it; until then it is as good as gone)."""
    if case.claimed_by_id is None:
        return None
    if claim_lapsed(case, now):
        return None
    return case.claimed_by


def claim_lapsed(case: Case, now: datetime | None = None) -> bool:
    if case.claimed_by_id is None:
        return False
    seen = case.claim_seen_at or case.claimed_at
    assert seen is not None  # a claim has its time (a check constraint)
    lapse = timedelta(minutes=settings.MODERATION_CLAIM_MINUTES)
    return seen + lapse <= (now or timezone.now())


def queue(user: User, now: datetime | None = None) -> list[QueueEntry]:
    """The open cases ``user`` moderates, highest priority first (oldest first on a tie)."""
    now = now or timezone.now()
    open_cases = moderated_cases(user).filter(status=Case.Status.OPEN)
    # The game's state and the round's schedule (kilobytes each) are never shown here.
    cases = open_cases.select_related(
        "game__table", "claimed_by", "accused", "fixture__matchday", "club", "message"
    ).defer("game__state", "game__table__round")
    cases = cases.annotate(filer_count=Count("reports"), filer_weight=Sum("reports__weight"))
    # A party sees their case listed (and why they may not take it), not how many
    # reported it: one query for the viewer's cases among them.
    theirs = set(party_cases(user).filter(pk__in=open_cases).values_list("pk", flat=True))
    listed = list(cases)
    # Every listed case's conflicts in a few queries, not three for each case.
    reasons = conflicts_of(user, listed)
    entries = [
        _entry(case, user, now, reasons[case.pk], party=case.pk in theirs) for case in listed
    ]
    entries.sort(key=lambda entry: (-entry.priority, entry.case.opened_at, entry.case.pk))
    return entries


def queue_entry(case: Case, user: User, now: datetime | None = None) -> QueueEntry:
    """One case as the queue would show it to ``user``."""
    annotated = (
        Case.objects.filter(pk=case.pk)
        .select_related("game__table", "claimed_by", "fixture__matchday")
        .annotate(filer_count=Count("reports"), filer_weight=Sum("reports__weight"))
        .get()
    )
    return _entry(annotated, user, now or timezone.now(), conflicts(user, annotated))


def _entry(
    case: Case, user: User, now: datetime, conflicting: list[str], party: bool = False
) -> QueueEntry:
    filers: int = getattr(case, "filer_count", 0)
    weight = round(float(getattr(case, "filer_weight", 0.0) or 0.0), 2)
    reasons = priority_reasons(case, filers, weight, now)
    holder = claim_holder(case, now)
    # A party reads no moderator's name, here as on the outcome ("the moderators").
    if party:
        filers, weight = 0, 0.0
        reasons = [reason for reason in reasons if not reason.about_filers]
    return QueueEntry(
        case=case,
        filers=filers,
        weight=weight,
        reasons=reasons,
        holder=None if party else holder,
        conflicts=conflicting,
        held=holder is not None,
    )


def priority_reasons(case: Case, filers: int, weight: float, now: datetime) -> list[Reason]:
    """What makes up the priority of ``case``, most weighty first."""
    severity = len(Category.values) - Category.values.index(case.category)
    reasons = [
        Reason(f"{case.get_category_display()} (severity {severity} of 6)", severity * 10),
        Reason(_filers_text(filers, weight), round(weight * POINTS_PER_FILER), about_filers=True),
    ]
    hours = int((now - case.opened_at).total_seconds() // 3600)
    if hours:
        age = min(hours * POINTS_PER_HOUR, MOST_AGE_POINTS)
        reasons.append(Reason(f"Waiting {timesince(case.opened_at, now)}", age))
    if case.game.status == Game.Status.PLAYING:
        reasons.append(Reason("The game is still being played", RUNNING_POINTS))
    deadline = _deadline(case)
    if deadline is not None and deadline - now <= DEADLINE_SOON:
        text = (
            f"Its matchday closes in {timesince(now, deadline)}"
            if deadline > now
            else "Its matchday's deadline has passed"
        )
        reasons.append(Reason(text, DEADLINE_POINTS))
    if case.escalation:
        reasons.append(Reason(f"Escalated to {case.get_escalation_display()}", ESCALATED_POINTS))
    reasons.sort(key=lambda reason: -reason.points)
    return reasons


def _filers_text(filers: int, weight: float) -> str:
    people = f"{filers} filer{'s' if filers != 1 else ''}"
    if weight == filers:
        return people
    return f"{people}, weighing {weight:g} (reports of theirs were dismissed before)"


def _deadline(case: Case) -> datetime | None:
    """The deadline of the case's league fixture while it is still being played."""
    fixture = case.fixture
    if fixture is None or fixture.status not in (Fixture.Status.SCHEDULED, Fixture.Status.PLAYING):
        return None
    return fixture.deadline or fixture.matchday.deadline
