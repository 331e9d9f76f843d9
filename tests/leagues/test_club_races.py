"""Organisers and members acting on the same club at once: each change applies whole,
once, and the second is refused with its reason.

Each thread has its own database connection, so the club's row lock really is contended.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from leagues.errors import LeaguesError
from leagues.models import Club, JoinRequest, Membership, Pending, Role
from leagues.notices import LeagueNotice
from leagues.services import clubs
from notifications.models import Notification
from tests import races

pytestmark = pytest.mark.django_db(transaction=True)


def race(*attempts: Callable[[], object]) -> list[str]:
    """Run the attempts at the same moment; ``"ok"`` or each refusal's class name."""
    return races.race(*attempts, refusal=LeaguesError, name=lambda error: type(error).__name__)


def test_two_organisers_approving_one_request_admit_the_member_once(
    club: Club, alice: User, organiser: User, bob: User
) -> None:
    join_request = clubs.request_to_join(club, bob)

    results = race(
        lambda: clubs.approve_request(club, alice, join_request.pk),
        lambda: clubs.decline_request(club, organiser, join_request.pk),
    )

    assert results == ["Conflict", "ok"]
    join_request.refresh_from_db()
    admitted = Membership.objects.filter(club=club, user=bob).exists()
    assert admitted == (join_request.status == Pending.ACCEPTED)
    assert Notification.objects.filter(user=bob, kind=LeagueNotice.CLUB_NEWS).count() == 1


def test_handing_the_club_to_two_members_at_once_leaves_one_owner(
    club: Club, alice: User, organiser: User, member: User
) -> None:
    results = race(
        lambda: clubs.transfer_ownership(club, alice, organiser.pk),
        lambda: clubs.transfer_ownership(club, alice, member.pk),
    )

    assert results == ["NotAllowed", "ok"]
    assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1


def test_a_member_asking_twice_at_once_makes_one_request(club: Club, bob: User) -> None:
    results = race(*[lambda: clubs.request_to_join(club, bob)] * 3)

    assert results == ["Conflict", "Conflict", "ok"]
    assert JoinRequest.objects.filter(club=club, user=bob).count() == 1
