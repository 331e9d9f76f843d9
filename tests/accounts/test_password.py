import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

CHANGE = reverse("password_change")
RESET = reverse("password_reset")
NEW_PASSWORD = "fresh-tiles-2024"

pytestmark = pytest.mark.django_db


def change_form(old: str = PASSWORD, new: str = NEW_PASSWORD) -> dict[str, str]:
    return {"old_password": old, "new_password1": new, "new_password2": new}


def reset_link(message: mail.EmailMessage) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_a_visitor_is_asked_to_log_in_before_changing_a_password(client: Client) -> None:
    response = client.get(CHANGE)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={CHANGE}"


def test_a_member_changes_her_password_and_stays_logged_in(
    alice_client: Client, alice: User
) -> None:
    response = alice_client.post(CHANGE, change_form())

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice_client.session[SESSION_KEY] == str(alice.pk)
    assert alice_client.get(reverse("password_change_done")).status_code == 200


def test_a_wrong_old_password_changes_nothing(alice_client: Client, alice: User) -> None:
    response = alice_client.post(CHANGE, change_form(old="not-the-old-one"))

    assert response.status_code == 400
    assert "Your old password was entered incorrectly." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_changing_a_password_leaves_other_members_alone(alice_client: Client, bob: User) -> None:
    alice_client.post(CHANGE, change_form())

    bob.refresh_from_db()
    assert bob.check_password(PASSWORD)


@pytest.mark.parametrize("method", ["put", "delete"])
def test_password_change_rejects_other_http_methods(alice_client: Client, method: str) -> None:
    response = getattr(alice_client, method)(CHANGE)

    assert response.status_code == 405


def test_a_visitor_resets_a_forgotten_password_by_mail(client: Client, alice: User) -> None:
    response = client.post(RESET, {"email": "ALICE@example.com"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Rummikub Club password"
    # The link in the mail leads to a form for the new password (Django first swaps the
    # token in the URL for one kept in the session).
    form_page = client.get(reset_link(message), follow=True)
    assert "Choose a new password" in form_page.text
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_a_reset_link_works_only_once(client: Client, alice: User) -> None:
    client.post(RESET, {"email": alice.email})
    link = reset_link(mail.outbox[0])
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    again = Client().get(link, follow=True)

    assert "This link has expired" in again.text


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_nothing(
    client: Client, alice: User
) -> None:
    response = client.post(RESET, {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_reset_asked_by_one_member_goes_to_that_member_only(
    client: Client, alice: User, bob: User
) -> None:
    client.post(RESET, {"email": bob.email})

    [message] = mail.outbox
    assert message.to == [bob.email]
    assert "(bob)" in message.body


@pytest.mark.parametrize("method", ["put", "delete"])
def test_password_reset_rejects_other_http_methods(client: Client, method: str) -> None:
    response = getattr(client, method)(RESET)

    assert response.status_code == 405
