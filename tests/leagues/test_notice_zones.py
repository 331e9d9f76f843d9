"""Issue 26: a league's notices keep their moments as facts, and each player reads them
in their own zone: the season's close announced by an organiser in New York is read in
Tokyo and in Lisbon in their own times, and a matchday's deadline the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from leagues.notices import LeagueNotice
from leagues.services.organiser import reschedule_fixture
from notifications.models import Notification
from tests.conftest import client_as
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.django_db

# Tue 15 Jan 2036: Tokyo is UTC+9, Lisbon UTC (WET), New York UTC-5.
DEADLINE = datetime(2036, 1, 15, 3, 47, tzinfo=UTC)
SEASON = "/clubs/tile-club/winter/1/"


def in_zones(alice: User, bob: User, dave: User) -> None:
    zones = {alice: "America/New_York", bob: "Asia/Tokyo", dave: "Europe/Lisbon"}
    for member, zone in zones.items():
        User.objects.filter(pk=member.pk).update(time_zone=zone)


def notices_page(member: User) -> str:
    return client_as(member).get(reverse("notifications:list")).content.decode()


def test_the_seasons_close_is_read_in_each_players_zone_not_the_organisers(
    alice: User, bob: User, dave: User
) -> None:
    running_season(alice, [bob, dave], deadline=DEADLINE)
    in_zones(alice, bob, dave)

    organiser = client_as(User.objects.get(pk=alice.pk))
    preview = organiser.get(f"{SEASON}organiser/close/").content.decode()
    assert "Announce the close for <strong><time datetime=" in preview
    assert "Wed 16 Jan, 22:47 EST</time></strong>" in preview  # hers, named

    answer = organiser.post(f"{SEASON}organiser/close/announce/", {"reason": "Over."})

    assert answer.status_code == 302
    # The close: the grace period (48 hours) after the last deadline, Thu 17 Jan 03:47 UTC.
    told = Notification.objects.filter(key__startswith="season-close-announced")
    assert sorted(n.user.username for n in told) == ["bob", "dave"]
    in_tokyo, in_lisbon = notices_page(bob), notices_page(dave)
    assert "closes on Thu 17 Jan, 12:47 JST: then its standings are final" in in_tokyo
    assert "closes on Thu 17 Jan, 03:47 WET: then its standings are final" in in_lisbon
    for page in (in_tokyo, in_lisbon):
        assert "EST" not in page  # the organiser's zone reaches no player
    texts = {n.user.username: n.text for n in told}
    assert "Thu 17 Jan, 12:47 JST" in texts["bob"] and "Thu 17 Jan, 03:47 WET" in texts["dave"]


def test_a_fixture_rescheduled_is_read_in_the_zone_each_player_reads_it_in(
    alice: User, bob: User, dave: User
) -> None:
    running = running_season(alice, [bob, dave], deadline=DEADLINE)
    in_zones(alice, bob, dave)

    reschedule_fixture(running.fixtures[0], DEADLINE + timedelta(hours=6), alice, "Snow.")

    (notice,) = Notification.objects.filter(user=bob, kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert notice.facts  # its deadline kept as a moment
    User.objects.filter(pk=bob.pk).update(time_zone="Europe/Lisbon")  # bob moved
    assert "matchday 1 ends Tue 15 Jan, 09:47 WET for your fixture at table" in notices_page(bob)
    assert "matchday 1 ends Tue 15 Jan, 18:47 JST for your fixture" in notice.text
