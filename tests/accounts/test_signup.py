import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from accounts.models import User

SIGNUP = reverse("signup")
GOOD_FORM = {
    "username": "dora",
    "display_name": "Dora the Melder",
    "email": "dora@example.com",
    "password1": "a-long-secret-77",
    "password2": "a-long-secret-77",
}

pytestmark = pytest.mark.django_db


def test_the_signup_page_shows_the_form_to_a_visitor(client: Client) -> None:
    response = client.get(SIGNUP)

    assert response.status_code == 200
    for field in ("username", "display_name", "email", "password1", "password2"):
        assert f'name="{field}"' in response.text


def test_a_visitor_who_signs_up_is_logged_in_and_sent_home(client: Client) -> None:
    response = client.post(SIGNUP, GOOD_FORM)

    assert response.status_code == 302
    assert response.url == reverse("home")
    dora = User.objects.get(username="dora")
    assert dora.display_name == "Dora the Melder"
    assert dora.email == "dora@example.com"
    assert dora.check_password("a-long-secret-77")
    assert client.session[SESSION_KEY] == str(dora.pk)
    assert "Good to see you, Dora the Melder." in client.get(reverse("home")).text


def test_it_refuses_a_username_taken_in_another_letter_case(client: Client, alice: User) -> None:
    response = client.post(SIGNUP, {**GOOD_FORM, "username": "ALICE"})

    assert response.status_code == 400
    assert "A user with that username already exists." in response.text
    assert not User.objects.filter(username="ALICE").exists()


def test_it_refuses_an_email_another_account_has_in_any_letter_case(
    client: Client, alice: User
) -> None:
    response = client.post(SIGNUP, {**GOOD_FORM, "email": alice.email.upper()})

    assert response.status_code == 400
    assert "An account with this email address already exists." in response.text
    assert not User.objects.filter(username="dora").exists()


def test_it_refuses_passwords_that_differ(client: Client) -> None:
    response = client.post(SIGNUP, {**GOOD_FORM, "password2": "another-secret-77"})

    assert response.status_code == 400
    assert "The two password fields didn" in response.text
    assert not User.objects.exists()


def test_it_refuses_a_common_password(client: Client) -> None:
    response = client.post(SIGNUP, {**GOOD_FORM, "password1": "password", "password2": "password"})

    assert response.status_code == 400
    assert "This password is too common." in response.text
    assert not User.objects.exists()


@pytest.mark.parametrize("field", ["display_name", "email"])
def test_it_requires_a_display_name_and_an_email(client: Client, field: str) -> None:
    response = client.post(SIGNUP, {**GOOD_FORM, field: ""})

    assert response.status_code == 400
    assert "This field is required." in response.text
    assert not User.objects.exists()


def test_a_member_who_is_logged_in_is_sent_home(alice_client: Client) -> None:
    response = alice_client.get(SIGNUP)

    assert response.status_code == 302
    assert response.url == reverse("home")


def test_a_member_who_is_logged_in_cannot_open_a_second_account(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.post(SIGNUP, GOOD_FORM)

    assert response.status_code == 302
    assert not User.objects.filter(username="dora").exists()
    assert alice_client.session[SESSION_KEY] == str(alice.pk)


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_it_rejects_other_http_methods(client: Client, method: str) -> None:
    response = getattr(client, method)(SIGNUP)

    assert response.status_code == 405
