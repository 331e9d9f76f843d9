"""Who may do what in a club: the predicates and the permissions made of them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.models.table_settings import TableSettings
from leagues.models import Club, League
from leagues.permissions import club_of, is_club_member, is_club_moderator, is_club_organiser
from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db

PERMS = [
    "leagues.view_club",
    "leagues.manage_club",
    "leagues.manage_members",
    "leagues.change_roles",
]


def perms_of(user: object, obj: object) -> list[str]:
    return [perm for perm in PERMS if user.has_perm(perm, obj)]  # type: ignore[attr-defined]


def test_each_role_has_its_permissions_in_a_public_club(
    club: Club, alice: User, organiser: User, moderator: User, member: User, rival: User
) -> None:
    assert perms_of(alice, club) == PERMS
    assert perms_of(organiser, club) == PERMS[:3]
    assert perms_of(moderator, club) == ["leagues.view_club"]
    assert perms_of(member, club) == ["leagues.view_club"]
    assert perms_of(rival, club) == ["leagues.view_club"]
    assert perms_of(AnonymousUser(), club) == ["leagues.view_club"]


def test_a_private_club_is_seen_by_its_members_only(
    private_club: Club, alice: User, rival: User
) -> None:
    assert alice.has_perm("leagues.view_club", private_club)
    assert perms_of(rival, private_club) == []
    assert perms_of(AnonymousUser(), private_club) == []


def test_roles_nest(club: Club, organiser: User, moderator: User, member: User) -> None:
    assert [is_club_organiser(u, club) for u in (organiser, moderator, member)] == [
        True,
        False,
        False,
    ]
    assert [is_club_moderator(u, club) for u in (organiser, moderator, member)] == [
        True,
        True,
        False,
    ]
    assert all(is_club_member(u, club) for u in (organiser, moderator, member))


def test_a_league_and_its_season_answer_for_their_club(
    club: Club, organiser: User, rival: User
) -> None:
    league = League.objects.create(
        club=club, name="Winter", slug="winter", table_settings=TableSettings().to_dict()
    )
    season = SeasonFactory(league=league)

    assert club_of(season) == club_of(league) == club
    assert club_of(object()) is None
    assert organiser.has_perm("leagues.manage_club", season)
    assert not rival.has_perm("leagues.manage_club", league)
    assert is_club_organiser(organiser, season) and not is_club_organiser(rival, season)
