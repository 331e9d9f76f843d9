"""The clubs' admin pages: a club with its members, invitations and requests on view."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Table
from leagues.models import Club, ClubInvitation, JoinRequest
from leagues.services import clubs
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(db: None) -> Client:
    return client_as(UserFactory(username="root", is_staff=True, is_superuser=True))


def test_the_club_list_counts_members_and_the_club_shows_them_with_roles(
    staff_client: Client, club: Club, member: User
) -> None:
    listing = staff_client.get(reverse("admin:leagues_club_changelist"))
    assert listing.status_code == 200
    assert "Tile Club" in listing.content.decode()

    page = staff_client.get(reverse("admin:leagues_club_change", args=[club.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Owner" in html and "Member" in html and club.invite_code in html


def test_invitations_and_requests_are_shown_not_changed(
    staff_client: Client, club: Club, alice: User, bob: User
) -> None:
    invitation = clubs.invite(club, alice, "bob")
    join_request = clubs.request_to_join(club, UserFactory(username="carl"))

    for model, row in (("clubinvitation", invitation), ("joinrequest", join_request)):
        change = reverse(f"admin:leagues_{model}_change", args=[row.pk])
        assert staff_client.get(change).status_code == 200
        staff_client.post(change, {"status": "accepted"})
    assert ClubInvitation.objects.get().status == "pending"
    assert JoinRequest.objects.get().status == "pending"


def test_a_club_made_private_in_the_admin_makes_its_fixture_tables_private(
    staff_client: Client, alice: User, bob: User, dave: User, erin: User
) -> None:
    """Security review wave 3: the admin skipped ``mark_fixture_tables``, so a club made
    private there kept its fixture tables open to everyone."""
    running = running_season(alice, [bob, dave, erin, alice])
    club = running.club
    form = {
        "name": club.name,
        "description": club.description,
        "is_private": "on",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }

    saved = staff_client.post(reverse("admin:leagues_club_change", args=[club.pk]), form)

    assert saved.status_code == 302
    club.refresh_from_db()
    assert club.is_private
    tables = Table.objects.filter(fixture__matchday=running.matchday)
    assert tables.count() == 2 and not tables.filter(private=False).exists()
    assert client_as(UserFactory()).get(f"/games/tables/{tables[0].pk}/").status_code == 404
