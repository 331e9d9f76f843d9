"""The beat job's timed steps of a season: registration closing, the season starting,
matchdays opening; each safe to run twice."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games.models import Table
from leagues.models import Matchday, Season
from leagues.services.season_start import start_season
from leagues.services.seasons import register
from leagues.tasks import close_due_registrations, open_due_matchdays, run_seasons

pytestmark = pytest.mark.django_db

Members = Callable[[int], list[User]]


def test_registration_closes_at_its_time(season: Season) -> None:
    closes = timezone.now() + timedelta(hours=1)
    Season.objects.filter(pk=season.pk).update(registration_closes_at=closes)
    assert close_due_registrations(timezone.now()) == 0
    assert close_due_registrations(closes) == 1
    assert close_due_registrations(closes) == 0
    assert Season.objects.get(pk=season.pk).status == Season.Status.READY


def test_a_season_starts_at_its_time_once(season: Season, make_members: Members) -> None:
    starts = timezone.now() + timedelta(hours=1)
    Season.objects.filter(pk=season.pk).update(starts_at=starts)
    for user in make_members(3):
        register(season, user)
    run_seasons()
    assert Season.objects.get(pk=season.pk).status == Season.Status.REGISTRATION

    with time_machine.travel(starts + timedelta(minutes=1)):
        run_seasons()
        run_seasons()

    started = Season.objects.get(pk=season.pk)
    assert started.status == Season.Status.RUNNING
    assert started.matchdays.get(number=1).status == Matchday.Status.OPEN
    assert Table.objects.count() == 1


def test_a_season_that_cannot_start_waits_for_an_organiser(season: Season) -> None:
    starts = timezone.now() - timedelta(minutes=1)
    Season.objects.filter(pk=season.pk).update(starts_at=starts)
    run_seasons()
    assert Season.objects.get(pk=season.pk).status == Season.Status.REGISTRATION
    assert not Matchday.objects.exists()


def test_a_matchday_opens_at_its_time_once(
    season: Season, alice: User, make_members: Members
) -> None:
    for user in make_members(4):
        register(season, user)
    start_season(season, alice)
    second = Matchday.objects.get(season=season, number=2)
    assert open_due_matchdays(second.opens_at - timedelta(minutes=1)) == []
    assert open_due_matchdays(second.opens_at) == [second.pk]
    assert open_due_matchdays(second.opens_at) == []
    assert Matchday.objects.get(pk=second.pk).status == Matchday.Status.OPEN
    assert Table.objects.count() == 2
