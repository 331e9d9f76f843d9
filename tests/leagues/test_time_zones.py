"""D7: pages and notices show a member's times in their own time zone, naming it, and
the times they enter are read in it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import User
from leagues.models import Matchday
from leagues.services.organiser import extend_deadline
from notifications.models import Notification
from tests.conftest import client_as
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.django_db

# A deadline in winter: Tokyo is 9 hours ahead of UTC, New York 5 behind.
DEADLINE = datetime(2036, 1, 15, 3, 47, tzinfo=UTC)


def test_a_deadline_is_shown_in_each_members_zone(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    running_season(alice, [bob, dave, erin, alice], deadline=DEADLINE)
    User.objects.filter(pk=dave.pk).update(time_zone="Asia/Tokyo")
    pages = {}
    for member in (bob, dave):
        client = client_as(member)
        pages[member.username] = client.get("/clubs/me/leagues/").content.decode()

    assert "due Tue 15 Jan, 03:47 UTC" in pages["bob"]
    assert "due Tue 15 Jan, 12:47 JST" in pages["dave"]
    assert "03:47" not in pages["dave"]


def test_a_deadline_entered_is_read_in_the_members_zone(alice: User, bob: User, dave: User) -> None:
    running = running_season(alice, [bob, dave], deadline=DEADLINE)
    User.objects.filter(pk=alice.pk).update(time_zone="America/New_York")
    client = client_as(alice)
    page = client.get("/clubs/tile-club/winter/1/organiser/").content.decode()
    assert "Deadline <strong>Mon 14 Jan, 22:47 EST</strong>" in page
    assert "New deadline (America/New_York)" in page

    client.post(
        "/clubs/tile-club/winter/1/organiser/matchdays/1/deadline/",
        {"deadline": "2036-01-15T22:00", "reason": "Snow."},
    )

    matchday = Matchday.objects.get(pk=running.matchday.pk)
    assert matchday.deadline == datetime(2036, 1, 16, 3, 0, tzinfo=UTC)


def test_notices_say_the_deadline_in_each_players_zone(alice: User, bob: User, dave: User) -> None:
    running = running_season(alice, [bob, dave], deadline=DEADLINE)
    User.objects.filter(pk=dave.pk).update(time_zone="Asia/Tokyo")

    extend_deadline(running.matchday, DEADLINE + timedelta(days=1), alice, "Snow.")

    told = {n.user.username: n.text for n in Notification.objects.filter(key__contains="extended")}
    assert "matchday 1 ends Wed 16 Jan, 03:47 UTC." in told["bob"]
    assert "matchday 1 ends Wed 16 Jan, 12:47 JST." in told["dave"]
