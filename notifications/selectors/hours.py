"""When a member is told, on the clocks of their own zone: their daily digest at the
hour they chose, and nothing at all (no push, no email) in their quiet hours.

Both are times of the member's day (``accounts.User.digest_hour``, ``quiet_from``,
``quiet_until``), read with their zone at the moment asked (:mod:`common.wall_clock`),
so they hold across its changes of the clocks: a digest due at an hour the spring day
skips comes at the jump, and one due in the hour the autumn day repeats comes at its
first pass; each is the digest of one date of theirs, sent once
(:class:`notifications.models.Digest`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from accounts.models import User
from common.wall_clock import instant_at, latest_at, next_reading, wall, within
from notifications.models import Notification


@dataclass(frozen=True)
class DigestDay:
    """The member's date whose digest came due last, and the instant it did."""

    day: date
    due_at: datetime


def digest_time(user: User) -> time:
    return time(user.digest_hour)


def latest_digest_day(user: User, now: datetime) -> DigestDay:
    """The member's last date whose digest hour has come by ``now``."""
    day, due_at = latest_at(now, digest_time(user), user.zone)
    return DigestDay(day, due_at)


def next_digest(user: User, now: datetime) -> datetime:
    """When the member's next digest hour comes after ``now`` (the page says it)."""
    latest = latest_digest_day(user, now)
    return instant_at(latest.day + timedelta(days=1), digest_time(user), user.zone)


def has_quiet_hours(user: User) -> bool:
    return user.quiet_from is not None and user.quiet_until is not None


def is_quiet(user: User, now: datetime) -> bool:
    """Whether ``now`` falls in the member's quiet hours (their clocks read between
    ``quiet_from`` and ``quiet_until``, maybe across midnight)."""
    if user.quiet_from is None or user.quiet_until is None:
        return False
    return within(wall(now, user.zone).time(), user.quiet_from, user.quiet_until)


def quiet_ends(user: User, now: datetime) -> datetime | None:
    """When the member's quiet hours that hold ``now`` end; ``None`` if they do not."""
    if user.quiet_until is None or not is_quiet(user, now):
        return None
    return next_reading(now, user.quiet_until, user.zone)


def may_tell_now(user: User, now: datetime) -> bool:
    """Whether anything may reach ``user`` outside the site's pages at ``now``, by push or
    by email: the one answer the push, the email and the digest ask."""
    return not is_quiet(user, now)


def members_to_release(now: datetime) -> tuple[list[int], list[int]]:
    """The members whose quiet hours are over (or were given up) with notices held: those
    with an email held, and those with a push held."""
    # Each served by the partial index of held notices.
    held = Notification.objects.order_by().values_list("user_id", flat=True)
    emails = set(held.filter(email=Notification.Email.HELD).distinct())
    pushes = set(held.filter(push=Notification.Push.HELD).distinct())
    members = User.objects.filter(pk__in=emails | pushes).only(
        "pk", "time_zone", "quiet_from", "quiet_until"
    )
    free = {member.pk for member in members if may_tell_now(member, now)}
    return sorted(emails & free), sorted(pushes & free)
