"""Rate limits of the account pages: sign-up per address, password reset per address and
the reset mails per email address (counted in the real Redis cache)."""

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import redis
import time_machine
from django.conf import settings
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from accounts.tasks import send_password_reset
from config.celery_app import app as celery_app
from tests.accounts.test_signup import GOOD_FORM
from tests.factories import UserFactory

SIGNUP = reverse("signup")
RESET = reverse("password_reset")
HOME = "192.0.2.10"
ELSEWHERE = "198.51.100.7"

pytestmark = pytest.mark.django_db


def allowed(name: str) -> int:
    """How many requests RATE_LIMITS[name] lets through in its period."""
    return int(settings.RATE_LIMITS[name].split("/")[0])


def test_signups_from_one_address_stop_at_the_limit_with_a_429(client: Client) -> None:
    for attempt in range(allowed("signup_per_address")):
        taken = {**GOOD_FORM, "password2": "does-not-match"}
        assert client.post(SIGNUP, taken, REMOTE_ADDR=HOME).status_code == 400, attempt

    response = client.post(SIGNUP, GOOD_FORM, REMOTE_ADDR=HOME)

    assert response.status_code == 429
    assert "Too many sign-ups from this address in the last hour: nothing was done." in (
        response.text
    )
    assert not User.objects.filter(username="dora").exists()
    # The page itself still shows; another address may still sign up.
    assert client.get(SIGNUP, REMOTE_ADDR=HOME).status_code == 200
    assert Client().post(SIGNUP, GOOD_FORM, REMOTE_ADDR=ELSEWHERE).status_code == 302


def test_a_club_signs_up_its_members_from_one_address(client: Client) -> None:
    # The walk's club was stopped at its 11th member, all on the club's Wi-Fi.
    for number in range(12):
        member = {**GOOD_FORM, "username": f"member{number}", "email": f"m{number}@example.com"}
        response = Client().post(SIGNUP, member, REMOTE_ADDR=HOME)
        assert response.status_code == 302, number

    assert User.objects.filter(username__startswith="member").count() == 12


@time_machine.travel(datetime(2026, 12, 7, 16, 20, 30, tzinfo=UTC), tick=False)
def test_a_refused_sign_up_keeps_the_form_and_says_when_to_try_again(client: Client) -> None:
    for _ in range(allowed("signup_per_address")):
        client.post(SIGNUP, {**GOOD_FORM, "password2": "does-not-match"}, REMOTE_ADDR=HOME)
    form = {**GOOD_FORM, "time_zone": "Europe/Berlin"}

    response = client.post(SIGNUP, form, REMOTE_ADDR=HOME)

    assert response.status_code == 429
    page = response.text
    for value in ("dora", "Dora the Melder", "dora@example.com"):
        assert f'value="{value}"' in page, value
    assert '<option value="Europe/Berlin" selected>' in page
    assert GOOD_FORM["password1"] not in page
    found = re.search(r"try again in (\d+) minutes? \(at (\d\d:\d\d) UTC\)", page)
    assert found is not None, page
    minutes = int(found[1])
    assert 1 <= minutes <= 60
    with time_machine.travel(timedelta(minutes=minutes - 1), tick=False):
        assert client.post(SIGNUP, form, REMOTE_ADDR=HOME).status_code == 429
    with time_machine.travel(timedelta(minutes=minutes), tick=False):
        assert client.post(SIGNUP, form, REMOTE_ADDR=HOME).status_code == 302
    assert User.objects.get(username="dora").time_zone == "Europe/Berlin"


def ask_reset(email: str, address: str = HOME) -> None:
    response = Client().post(RESET, {"email": email}, REMOTE_ADDR=address)
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")


def test_an_address_gets_a_few_reset_mails_then_none_and_the_page_says_the_same(
    alice: User,
) -> None:
    mails = allowed("reset_mails_per_email")
    for _ in range(mails):
        ask_reset(alice.email)
    assert len(mail.outbox) == mails

    ask_reset(alice.email)
    ask_reset(alice.email.upper(), address=ELSEWHERE)

    assert len(mail.outbox) == mails


def test_one_address_cannot_mail_many_members_past_its_limit() -> None:
    members = [UserFactory() for _ in range(allowed("reset_mails_per_address") + 2)]

    for member in members:
        ask_reset(member.email)

    assert len(mail.outbox) == allowed("reset_mails_per_address")
    ask_reset(members[-1].email, address=ELSEWHERE)
    assert mail.outbox[-1].to == [members[-1].email]


def test_reset_requests_past_the_address_limit_get_a_429(client: Client) -> None:
    for _ in range(allowed("password_reset_per_address")):
        client.post(RESET, {"email": "nobody@example.com"}, REMOTE_ADDR=HOME)

    response = client.post(RESET, {"email": "nobody@example.com"}, REMOTE_ADDR=HOME)

    assert response.status_code == 429


@pytest.fixture
def queue() -> Iterator[str]:
    """A queue of this test's own on the real broker, with no worker reading it."""
    name = f"test-accounts-{uuid.uuid4().hex[:12]}"
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = name
    yield name
    celery_app.conf.task_default_queue = "celery"
    server = redis.Redis.from_url(settings.REDIS_URL)
    server.delete(name, *server.keys(f"_kombu.binding*.{name}"))


def test_the_reset_mail_is_left_to_a_worker_not_sent_in_the_request(
    alice: User, queue: str
) -> None:
    ask_reset(alice.email)

    assert mail.outbox == []
    server = redis.Redis.from_url(settings.REDIS_URL)
    [message] = server.lrange(queue, 0, -1)
    headers = json.loads(message)["headers"]
    assert headers["task"] == "accounts.tasks.send_password_reset"
    assert headers["argsrepr"] == f"({alice.pk},)"


def test_the_reset_task_and_the_mail_server_have_time_limits() -> None:
    assert send_password_reset.soft_time_limit == 30
    assert send_password_reset.time_limit == 60
    assert settings.EMAIL_TIMEOUT == 10


def test_the_reset_task_mails_a_link_to_the_site_url(alice: User) -> None:
    send_password_reset(alice.pk)

    [message] = mail.outbox
    assert message.to == [alice.email]
    assert f"{settings.SITE_URL}/accounts/password/reset/" in message.body


def test_the_reset_task_mails_nobody_for_a_member_who_left(alice: User) -> None:
    alice.is_active = False
    alice.save()

    send_password_reset(alice.pk)
    send_password_reset(alice.pk + 1000)

    assert mail.outbox == []


def test_while_the_cache_is_unreachable_sign_ups_are_served(client: Client) -> None:
    # A Redis restart must not refuse every visitor: the limits are skipped meanwhile.
    nowhere = {
        "BACKEND": settings.CACHES["default"]["BACKEND"],
        "LOCATION": "redis://127.0.0.1:9/0",
    }
    with override_settings(CACHES={"default": nowhere}):
        response = client.post(SIGNUP, GOOD_FORM, REMOTE_ADDR=HOME)

    assert response.status_code == 302
    assert User.objects.filter(username="dora").exists()
