"""What a member's role in a club lets them see and do, asked of a club directly.

Built on :mod:`leagues.permissions` (one query of the member's
:class:`~leagues.models.Membership` row), for the league and season pages and services.
"""

from __future__ import annotations

from typing import Any

from leagues.models import Club, Role
from leagues.permissions import ORGANISING, role_in, why_not_staff


def is_member(club: Club, user: Any) -> bool:
    return role_in(user, club) is not None


def is_organiser(club: Club, user: Any) -> bool:
    """``user`` may run ``club``'s leagues: its owner or an organiser, whose powers no
    suspension takes away for now."""
    return why_not_staff(user, club) is None


def organisers(club: Club) -> list[Any]:
    """The club's owner, then its organisers, by username."""
    memberships = club.memberships.filter(role__in=ORGANISING).select_related("user")
    ranked = sorted(memberships, key=lambda m: (m.role != Role.OWNER, m.user.username))
    return [membership.user for membership in ranked]
