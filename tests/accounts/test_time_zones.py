"""D7: a member's time zone, UTC by default, or the browser's offered at sign-up; set on
the profile page (its effects on leagues' pages and notices: tests/leagues)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PROFILE = reverse("profile")


def test_a_member_starts_in_utc_and_sets_her_time_zone(alice_client: Client, alice: User) -> None:
    assert alice.time_zone == "UTC"
    assert "Time zone" in alice_client.get(PROFILE).text

    response = alice_client.post(
        PROFILE,
        {"display_name": "Alice", "email": "alice@example.com", "time_zone": "Asia/Tokyo"},
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Tokyo"


def test_an_unknown_time_zone_is_refused_and_changes_nothing(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.post(
        PROFILE, {"display_name": "Alice", "email": "alice@example.com", "time_zone": "Mars/Base"}
    )

    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_sign_up_keeps_the_time_zone_offered(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "nina",
            "display_name": "Nina",
            "email": "nina@example.com",
            "password1": "a long and fine passphrase",
            "password2": "a long and fine passphrase",
            "time_zone": "Europe/Paris",
        },
    )

    assert response.status_code == 302
    assert User.objects.get(username="nina").time_zone == "Europe/Paris"
