"""Log-in lockout (django-axes): repeated wrong passwords for one username from one
address pause that pair's log-ins, through the real log-in form."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.factories import PASSWORD

LOGIN = reverse("login")
HOME = "192.0.2.10"
ELSEWHERE = "198.51.100.7"

pytestmark = pytest.mark.django_db


def log_in(client: Client, password: str, username: str = "alice", address: str = HOME):  # type: ignore[no-untyped-def]
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail_until_locked(client: Client, username: str = "alice") -> None:
    for attempt in range(1, settings.AXES_FAILURE_LIMIT + 1):
        response = log_in(client, f"wrong-{attempt}", username)
        expected = 429 if attempt == settings.AXES_FAILURE_LIMIT else 400
        assert response.status_code == expected, attempt


def test_a_few_wrong_passwords_still_let_the_right_one_in(client: Client, alice: User) -> None:
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, f"wrong-{attempt}").status_code == 400

    response = log_in(client, PASSWORD)

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(alice.pk)


def test_too_many_wrong_passwords_pause_the_log_in_and_say_when_to_retry(
    client: Client, alice: User
) -> None:
    fail_until_locked(client)

    response = log_in(client, PASSWORD)

    assert response.status_code == 429
    assert SESSION_KEY not in client.session
    assert "Log-in paused" in response.text
    assert "Try again in 15 minutes, at " in response.text
    retry_at = timezone.localtime(timezone.now() + timedelta(minutes=15))
    assert retry_at.strftime("%H:%M") in response.text


def test_the_pause_holds_only_that_username_from_that_address(
    client: Client, alice: User, bob: User
) -> None:
    fail_until_locked(client)

    assert log_in(Client(), PASSWORD, address=ELSEWHERE).status_code == 302
    assert log_in(Client(), PASSWORD, username="bob").status_code == 302


def test_after_the_pause_the_right_password_works_again(client: Client, alice: User) -> None:
    fail_until_locked(client)

    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        response = log_in(client, PASSWORD)

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(alice.pk)


def test_a_log_in_that_succeeds_forgets_the_earlier_failures(client: Client, alice: User) -> None:
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, f"wrong-{attempt}")
    assert log_in(client, PASSWORD).status_code == 302
    client.post(reverse("logout"))

    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, f"again-{attempt}").status_code == 400
    assert log_in(client, PASSWORD).status_code == 302
