"""The clubs' admin pages: a club with its members, invitations and requests on view."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Club, ClubInvitation, JoinRequest
from leagues.services import clubs
from tests.conftest import client_as
from tests.factories import UserFactory

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
