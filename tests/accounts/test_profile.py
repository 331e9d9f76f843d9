import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

PROFILE = reverse("profile")

pytestmark = pytest.mark.django_db


def test_a_visitor_is_asked_to_log_in_to_see_a_profile(client: Client) -> None:
    response = client.get(PROFILE)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={PROFILE}"


def test_a_visitor_cannot_post_to_a_profile(client: Client, alice: User) -> None:
    response = client.post(PROFILE, {"display_name": "Mallory", "email": "m@example.com"})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_a_member_sees_her_own_profile(alice_client: Client, bob: User) -> None:
    response = alice_client.get(PROFILE)

    assert response.status_code == 200
    assert 'value="Alice"' in response.text
    assert 'value="alice@example.com"' in response.text
    assert "bob@example.com" not in response.text


def test_a_member_edits_her_display_name_and_email(alice_client: Client, alice: User) -> None:
    response = alice_client.post(
        PROFILE, {"display_name": "Queen of Runs", "email": "queen@example.com"}
    )

    assert response.status_code == 302
    assert response.url == PROFILE
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Runs"
    assert alice.email == "queen@example.com"
    assert "Your profile is saved." in alice_client.get(PROFILE).text


def test_editing_a_profile_changes_only_ones_own_account(alice_client: Client, bob: User) -> None:
    alice_client.post(PROFILE, {"display_name": "Queen of Runs", "email": "queen@example.com"})

    bob.refresh_from_db()
    assert bob.display_name == "Bob"
    assert bob.email == "bob@example.com"


def test_a_member_cannot_take_another_members_email(
    alice_client: Client, alice: User, bob: User
) -> None:
    response = alice_client.post(PROFILE, {"display_name": "Alice", "email": "Bob@Example.com"})

    assert response.status_code == 400
    assert "An account with this email address already exists." in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_member_may_keep_her_own_email(alice_client: Client, alice: User) -> None:
    response = alice_client.post(PROFILE, {"display_name": "Al", "email": "ALICE@example.com"})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Al"


def test_a_blank_display_name_is_refused(alice_client: Client, alice: User) -> None:
    response = alice_client.post(PROFILE, {"display_name": "  ", "email": alice.email})

    assert response.status_code == 400
    assert "This field is required." in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_the_profile_rejects_other_http_methods(alice_client: Client, method: str) -> None:
    response = getattr(alice_client, method)(PROFILE)

    assert response.status_code == 405


def test_a_member_chooses_whether_turns_with_no_play_are_drawn_for_her(
    alice_client: Client, alice: User
) -> None:
    """The standing order the game page offers after a forced turn, changed here."""
    assert "Ask me after a turn with no play" in alice_client.get(PROFILE).text
    details = {"display_name": "Alice", "email": "alice@example.com"}
    alice_client.post(PROFILE, {**details, "draws_forced_turns": "true"})
    alice.refresh_from_db()
    assert alice.draws_forced_turns is True
    alice_client.post(PROFILE, details)  # left out: it stays
    alice.refresh_from_db()
    assert alice.draws_forced_turns is True
    alice_client.post(PROFILE, {**details, "draws_forced_turns": "false"})
    alice.refresh_from_db()
    assert alice.draws_forced_turns is False
