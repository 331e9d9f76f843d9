"""A notice's moments are kept as facts and written out in the zone of whoever reads
them, when they read them: a member in Tokyo and a member in Lisbon read one moment each
in their own time, on either side of Lisbon's change of clocks; a member who moved reads
their notices in their new zone; their mail, digest and push are written in their zone
when sent. A notice older than its facts reads its text as it was written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from leagues.notices import LeagueNotice
from notifications import tasks
from notifications.lines import line
from notifications.models import Delivery, Notification
from notifications.services import notices, push
from notifications.services.notices import set_preference
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.notifications.push_service import PushService
from tests.notifications.test_push import device_of, push_site, service

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

__all__ = ["push_site", "service"]  # fixtures

# Lisbon moves its clocks from WET (UTC) to WEST (UTC+1) at 01:00 UTC on 28 March 2027;
# Tokyo keeps JST (UTC+9) all year.
BEFORE = datetime(2027, 3, 27, 18, 0, tzinfo=UTC)
AFTER = datetime(2027, 3, 29, 18, 0, tzinfo=UTC)
LIST = reverse("notifications:list")


@pytest.fixture
def tokyo(db: None) -> User:
    return _member("kenji", "Asia/Tokyo")


@pytest.fixture
def lisbon(db: None) -> User:
    return _member("ines", "Europe/Lisbon")


def _member(username: str, zone: str) -> User:
    user: User = UserFactory(username=username, time_zone=zone)
    return user


def close_notice(user: User, moment: datetime) -> Notification:
    created = notices.create(
        user.pk,
        LeagueNotice.LEAGUE_SEASON,
        line("Winter league, season 1 closes on ", moment, ": disputes until then."),
        "/clubs/",
    )
    assert created is not None
    return created


def listed(user: User) -> str:
    return client_as(user).get(LIST).content.decode()


def test_one_moment_reads_in_each_readers_zone_on_either_side_of_a_change_of_clocks(
    tokyo: User, lisbon: User
) -> None:
    for member in (tokyo, lisbon):
        close_notice(member, BEFORE)
        close_notice(member, AFTER)

    in_tokyo, in_lisbon = listed(tokyo), listed(lisbon)

    assert "season 1 closes on Sun 28 Mar, 03:00 JST: disputes" in in_tokyo
    assert "season 1 closes on Tue 30 Mar, 03:00 JST: disputes" in in_tokyo
    assert "season 1 closes on Sat 27 Mar, 18:00 WET: disputes" in in_lisbon
    assert "season 1 closes on Mon 29 Mar, 19:00 WEST: disputes" in in_lisbon
    assert "JST" not in in_lisbon
    assert "WET" not in in_tokyo and "WEST" not in in_tokyo
    # The text, for what reads the row itself, was written in each member's zone.
    texts = set(Notification.objects.values_list("text", flat=True))
    assert "Winter league, season 1 closes on Mon 29 Mar, 19:00 WEST: disputes until then." in texts
    fact = Notification.objects.filter(user=tokyo).order_by("pk").first()
    assert fact is not None and fact.facts[1] == {"moment": "2027-03-27T18:00:00+00:00"}


def test_a_member_who_moves_reads_their_notices_in_their_new_zone(lisbon: User) -> None:
    notice = close_notice(lisbon, AFTER)
    User.objects.filter(pk=lisbon.pk).update(time_zone="Asia/Tokyo")

    page = listed(User.objects.get(pk=lisbon.pk))

    assert "closes on Tue 30 Mar, 03:00 JST" in page
    assert "WEST" not in page
    notice.refresh_from_db()
    assert "19:00 WEST" in notice.text  # as written when it was created


def test_a_notice_older_than_its_facts_reads_its_text(tokyo: User) -> None:
    Notification.objects.create(
        user=tokyo, kind=LeagueNotice.LEAGUE_SEASON, text="Closes Sat 27 Mar, 18:00 UTC.", link="/"
    )
    plain = notices.create(tokyo.pk, LeagueNotice.LEAGUE_SEASON, "No moment here.", "/")

    page = listed(tokyo)

    assert "Closes Sat 27 Mar, 18:00 UTC." in page and "No moment here." in page
    assert plain is not None and plain.facts == []


def test_its_mail_is_written_in_the_members_zone_when_it_is_sent(
    tokyo: User, mailoutbox: list[Any]
) -> None:
    set_preference(tokyo, LeagueNotice.LEAGUE_SEASON, Delivery.IMMEDIATE)
    notice = close_notice(tokyo, AFTER)
    assert notice.email == Notification.Email.PENDING
    # Created while the member was in Tokyo, sent once they have moved to Lisbon: the
    # mail says the moment as they will live it.
    User.objects.filter(pk=tokyo.pk).update(time_zone="Europe/Lisbon")

    tasks.send_notification_email.delay(notice.pk)

    (email,) = mailoutbox
    assert "closes on Mon 29 Mar, 19:00 WEST" in email.subject
    assert "closes on Mon 29 Mar, 19:00 WEST" in email.body
    assert "JST" not in email.body


def test_the_digest_writes_each_line_in_the_members_zone(
    lisbon: User, mailoutbox: list[Any]
) -> None:
    set_preference(lisbon, LeagueNotice.LEAGUE_SEASON, Delivery.DIGEST)
    close_notice(lisbon, BEFORE)
    close_notice(lisbon, AFTER)

    tasks.send_digest.delay(lisbon.pk)

    (email,) = mailoutbox
    assert "- Winter league, season 1 closes on Sat 27 Mar, 18:00 WET:" in email.body
    assert "- Winter league, season 1 closes on Mon 29 Mar, 19:00 WEST:" in email.body


@pytest.mark.usefixtures("push_site")
def test_its_push_is_written_in_the_members_zone_when_it_is_sent(
    tokyo: User, service: PushService
) -> None:
    phone = device_of(tokyo, service, "kenji")
    set_preference(tokyo, LeagueNotice.LEAGUE_SEASON, Delivery.PUSH)
    notice = close_notice(tokyo, BEFORE)
    assert notice.push == Notification.Push.PENDING

    assert push.send_notification_push(notice.pk) == "sent"

    (received,) = service.received
    assert phone.read(received)["body"] == (
        "Winter league, season 1 closes on Sun 28 Mar, 03:00 JST: disputes until then."
    )
    # Read again once the member has moved: the payload follows them.
    User.objects.filter(pk=tokyo.pk).update(time_zone="Europe/Lisbon")
    moved = Notification.objects.select_related("user").get(pk=notice.pk)
    assert "closes on Sat 27 Mar, 18:00 WET:" in push.payload(moved)["body"]
