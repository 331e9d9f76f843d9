"""Clubs with a member of each role, for the leagues' tests.

``club`` is alice's public club: olga organises it, mo moderates it, mia is a member.
``stranger`` is in no club; ``rival`` is a member (the owner) of another club.
"""

from __future__ import annotations

import pytest

from accounts.models import User
from leagues.models import Club, Membership, Role
from leagues.services import clubs
from tests.factories import UserFactory


def add_member(club: Club, user: User, role: str = Role.MEMBER) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


@pytest.fixture
def club(alice: User) -> Club:
    return clubs.create_club(alice, "Tile Club", description="We meet on Tuesdays.")


@pytest.fixture
def private_club(alice: User) -> Club:
    return clubs.create_club(alice, "Back Room", is_private=True)


@pytest.fixture
def organiser(club: Club) -> User:
    user = UserFactory(username="olga", display_name="Olga")
    add_member(club, user, Role.ORGANISER)
    return user


@pytest.fixture
def moderator(club: Club) -> User:
    user = UserFactory(username="mo", display_name="Mo")
    add_member(club, user, Role.MODERATOR)
    return user


@pytest.fixture
def member(club: Club) -> User:
    user = UserFactory(username="mia", display_name="Mia")
    add_member(club, user)
    return user


@pytest.fixture
def stranger(db: None) -> User:
    return UserFactory(username="sam", display_name="Sam")


@pytest.fixture
def rival(db: None) -> User:
    """The owner of another club: an organiser, but not of ``club``."""
    user = UserFactory(username="rita", display_name="Rita")
    clubs.create_club(user, "Other Club")
    return user
