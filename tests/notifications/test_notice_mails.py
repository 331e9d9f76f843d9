"""Every kind of notice can be mailed, at once and in the digest, and a mail that cannot
be sent is tried again later, then left marked failed with its reason, which the member
reads in their list: never silently pending."""

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from config.celery_app import app as celery_app
from leagues.notices import LeagueNotice
from notifications import kinds, tasks
from notifications.models import Notification
from tests.conftest import client_as
from tests.notifications.mail_servers import FlakyServer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

FLAKY = "tests.notifications.mail_servers.FlakyServer"
KINDS = [kind.code for kind in kinds.registered()]


@pytest.fixture
def flaky_server(settings: Any, eager_celery: None) -> Iterator[type[FlakyServer]]:
    """The mail server; the tasks' retries run at once, in the test (an eager task's
    retry is run again only when its errors are not raised to the caller)."""
    settings.EMAIL_BACKEND = FLAKY
    celery_app.conf.task_eager_propagates = False
    yield FlakyServer
    celery_app.conf.task_eager_propagates = True
    FlakyServer.failing(0)


def notice(user: User, kind: str, email: str = Notification.Email.PENDING) -> Notification:
    return Notification.objects.create(
        user=user,
        kind=kind,
        text=f"Something about {kind} happened.",
        link=f"/about/{kind}/",
        email=email,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_notice_is_mailed_at_once(
    kind: str, alice: User, mailoutbox: list[Any]
) -> None:
    note = notice(alice, kind)

    tasks.send_notification_email.delay(note.pk)

    note.refresh_from_db()
    assert (note.email, note.email_error) == ("sent", "")
    (email,) = mailoutbox
    assert email.to == [alice.email]
    assert note.text in email.subject
    assert note.text in email.body
    assert f"http://127.0.0.1:8000/about/{kind}/" in email.body


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_notice_has_its_line_in_the_digest(
    kind: str, alice: User, mailoutbox: list[Any]
) -> None:
    note = notice(alice, kind, email=Notification.Email.DIGEST)

    tasks.send_digest.delay(alice.pk)

    note.refresh_from_db()
    assert note.email == "sent"
    (email,) = mailoutbox
    assert f"- {note.text}" in email.body
    assert f"http://127.0.0.1:8000/about/{kind}/" in email.body


def test_a_mail_the_server_drops_is_sent_when_it_is_tried_again(
    alice: User, flaky_server: type[FlakyServer], mailoutbox: list[Any]
) -> None:
    flaky_server.failing(2)
    note = notice(alice, LeagueNotice.LEAGUE_MATCHDAY)

    tasks.send_notification_email.delay(note.pk)

    note.refresh_from_db()
    assert (note.email, note.email_error) == ("sent", "")
    assert flaky_server.attempts == 3
    assert len(mailoutbox) == 1


def test_a_mail_the_server_never_takes_is_marked_failed_and_the_member_reads_why(
    alice: User, bob: User, flaky_server: type[FlakyServer], mailoutbox: list[Any]
) -> None:
    flaky_server.failing(100)
    note = notice(alice, LeagueNotice.LEAGUE_MATCHDAY)
    others = notice(bob, LeagueNotice.LEAGUE_MATCHDAY, email=Notification.Email.OFF)

    tasks.send_notification_email.delay(note.pk)

    note.refresh_from_db()
    reason = "the mail server did not take it after 6 tries (SMTPServerDisconnected)"
    assert (note.email, note.email_error) == ("failed", reason)
    assert flaky_server.attempts == 1 + tasks.MAIL_RETRIES
    assert mailoutbox == []
    page = member_page(alice)
    assert f"We could not e-mail this notice: {reason}." in page
    assert "We could not e-mail" not in member_page(bob)
    others.refresh_from_db()
    assert others.email == "off"


def test_a_notice_whose_mail_cannot_be_written_fails_at_once(
    alice: User, flaky_server: type[FlakyServer]
) -> None:
    # A kind with no templates (one of an app that forgot them).
    note = notice(alice, "homeless_kind")

    tasks.send_notification_email.delay(note.pk)

    note.refresh_from_db()
    assert note.email == "failed"
    assert note.email_error == "the mail could not be written (TemplateDoesNotExist)"
    assert flaky_server.attempts == 0
    assert "We could not e-mail this notice: the mail could not be written" in member_page(alice)


def test_a_digest_the_server_never_takes_leaves_its_notices_failed(
    alice: User, bob: User, flaky_server: type[FlakyServer]
) -> None:
    flaky_server.failing(100)
    waiting = [notice(alice, kind, email="digest") for kind in ("club_news", "league_season")]
    bobs = notice(bob, "club_news", email="digest")

    tasks.send_digest.delay(alice.pk)

    for note in waiting:
        note.refresh_from_db()
        assert note.email == "failed"
        assert note.email_error.startswith("the mail server did not take it after 6 tries")
    bobs.refresh_from_db()
    assert bobs.email == "digest"


def member_page(user: User) -> str:
    client = client_as(user)
    response = client.get(reverse("notifications:list"))
    assert response.status_code == 200
    return response.text


def test_a_digest_says_a_fixtures_deadline_as_its_due_date_not_a_turns_end(
    alice: User, mailoutbox: list[Any]
) -> None:
    matchday = notice(alice, LeagueNotice.LEAGUE_MATCHDAY, email="digest")
    matchday.deadline = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
    matchday.save(update_fields=["deadline"])

    tasks.send_digest.delay(alice.pk)

    (email,) = mailoutbox
    assert f"- {matchday.text} Due by Fri 6 Mar, 18:00 UTC." in email.body
    assert "Your turn ends" not in email.body
