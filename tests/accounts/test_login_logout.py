import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

LOGIN = reverse("login")
LOGOUT = reverse("logout")

pytestmark = pytest.mark.django_db


def test_the_login_page_shows_the_form_to_a_visitor(client: Client) -> None:
    response = client.get(LOGIN)

    assert response.status_code == 200
    assert 'name="username"' in response.text
    assert 'name="password"' in response.text


def test_a_member_logs_in_with_the_right_password(client: Client, alice: User) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert client.session[SESSION_KEY] == str(alice.pk)


def test_a_wrong_password_does_not_log_in(client: Client, alice: User) -> None:
    response = client.post(LOGIN, {"username": "alice", "password": "not-her-password"})

    assert response.status_code == 400
    assert "Please enter a correct username and password." in response.text
    assert SESSION_KEY not in client.session


def test_another_members_password_does_not_open_alices_account(
    client: Client, alice: User, bob: User
) -> None:
    bob.set_password("bobs-own-secret-9")
    bob.save()

    client.post(LOGIN, {"username": "alice", "password": "bobs-own-secret-9"})

    assert SESSION_KEY not in client.session


def test_login_returns_to_the_page_asked_for(client: Client, alice: User) -> None:
    response = client.post(
        f"{LOGIN}?next=/accounts/profile/",
        {"username": "alice", "password": PASSWORD, "next": "/accounts/profile/"},
    )

    assert response.url == "/accounts/profile/"


def test_login_does_not_send_to_another_site(client: Client, alice: User) -> None:
    response = client.post(
        LOGIN, {"username": "alice", "password": PASSWORD, "next": "https://evil.example/"}
    )

    assert response.url == reverse("home")


def test_a_member_who_is_logged_in_is_sent_home_from_the_login_page(
    alice_client: Client,
) -> None:
    response = alice_client.get(LOGIN)

    assert response.status_code == 302
    assert response.url == reverse("home")


def test_logging_out_ends_the_session(alice_client: Client) -> None:
    response = alice_client.post(LOGOUT)

    assert response.status_code == 302
    assert response.url == reverse("home")
    assert SESSION_KEY not in alice_client.session


def test_logging_out_one_member_leaves_another_logged_in(alice: User, bob: User) -> None:
    alices_browser, bobs_browser = Client(), Client()
    alices_browser.force_login(alice)
    bobs_browser.force_login(bob)

    alices_browser.post(LOGOUT)

    assert bobs_browser.session[SESSION_KEY] == str(bob.pk)


def test_a_visitor_logging_out_is_sent_home(client: Client) -> None:
    response = client.post(LOGOUT)

    assert response.status_code == 302
    assert response.url == reverse("home")


def test_logout_is_refused_over_get_so_a_link_cannot_log_a_member_out(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.get(LOGOUT)

    assert response.status_code == 405
    assert alice_client.session[SESSION_KEY] == str(alice.pk)


@pytest.mark.parametrize("method", ["put", "delete"])
def test_login_rejects_other_http_methods(client: Client, method: str) -> None:
    response = getattr(client, method)(LOGIN)

    assert response.status_code == 405
