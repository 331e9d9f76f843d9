"""A member's role in a club, and what it lets them see and do (reads only).

Small checks on :class:`~leagues.models.Membership` rows that pages and services share;
the club's permission predicates (:mod:`leagues.rules`) may build on them.
"""

from __future__ import annotations

from typing import Any

from leagues.models import Club, Membership, Role

ORGANISING = (Role.OWNER, Role.ORGANISER)
"""The roles that run a club's leagues."""


def role_in(club: Club, user: Any) -> Role | None:
    """``user``'s role in ``club``; ``None`` for a non-member or a visitor."""
    if user is None or not user.is_authenticated:
        return None
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    return None if role is None else Role(role)


def is_member(club: Club, user: Any) -> bool:
    return role_in(club, user) is not None


def is_organiser(club: Club, user: Any) -> bool:
    """``user`` may run ``club``'s leagues: its owner or an organiser."""
    return role_in(club, user) in ORGANISING


def may_see(club: Club, user: Any) -> bool:
    """A public club is seen by anyone; a private one by its members only."""
    return not club.is_private or is_member(club, user)


def organisers(club: Club) -> list[Any]:
    """The club's owner, then its organisers, by username."""
    memberships = club.memberships.filter(role__in=ORGANISING).select_related("user")
    ranked = sorted(memberships, key=lambda m: (m.role != Role.OWNER, m.user.username))
    return [membership.user for membership in ranked]
