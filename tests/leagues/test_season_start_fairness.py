"""The beat job starts seasons fairly (security-wave2 finding 7): a season that cannot
start at its time is marked with the reason, left to its organisers (who are told) and
not tried again; each run tries the longest due first, a bounded number of them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leagues import tasks
from leagues.models import Club, League, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.services.season_start import start_season
from leagues.services.seasons import register
from leagues.tasks import start_due_seasons
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db

Members = Callable[[int], list[User]]
OLD_BATCH = 50
"""The seasons the job used to try every run, failing or not."""


def seasons_due(league: League, count: int, at: datetime) -> list[Season]:
    """``count`` seasons of new leagues of ``league``'s club, nobody registered, due at
    ``at`` (a second apart, in order)."""
    leagues = League.objects.bulk_create(
        League(club=league.club, name=f"Empty {n}", slug=f"empty-{n}", **league.house_rules())
        for n in range(count)
    )
    return Season.objects.bulk_create(
        Season(league=empty, number=1, starts_at=at + timedelta(seconds=n), **empty.house_rules())
        for n, empty in enumerate(leagues)
    )


def test_seasons_that_cannot_start_do_not_keep_one_that_can_from_starting(
    season: Season, alice: User, make_members: Members
) -> None:
    now = timezone.now()
    failing = seasons_due(season.league, OLD_BATCH + 1, now - timedelta(hours=1))
    for user in make_members(3):
        register(season, user)
    Season.objects.filter(pk=season.pk).update(starts_at=now + timedelta(minutes=5))

    for _ in range(6):  # the runs before the good season's time work off the failures
        assert start_due_seasons(now) == []
    assert Season.objects.filter(pk__in=[s.pk for s in failing], start_failed_at=None).count() == 0

    assert start_due_seasons(now + timedelta(minutes=6)) == [season.pk]
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING


@override_settings(LEAGUES_STARTS_PER_RUN=2)
def test_each_run_tries_the_longest_due_first_and_leaves_the_rest_to_the_next(
    season: Season,
) -> None:
    now = timezone.now()
    first, second, third = seasons_due(season.league, 3, now - timedelta(hours=1))

    start_due_seasons(now)
    marked = set(Season.objects.exclude(start_failed_at=None).values_list("pk", flat=True))
    assert marked == {first.pk, second.pk}

    start_due_seasons(now)
    assert Season.objects.get(pk=third.pk).start_failed_at is not None


def test_a_season_that_cannot_start_is_marked_once_and_its_organisers_told(
    season: Season, alice: User, organiser: User
) -> None:
    due = timezone.now() - timedelta(minutes=1)
    Season.objects.filter(pk=season.pk).update(starts_at=due)

    start_due_seasons(timezone.now())
    marked = Season.objects.get(pk=season.pk)
    assert marked.status == Season.Status.REGISTRATION
    assert marked.start_failure == "Nobody is registered yet."
    failed_at = marked.start_failed_at
    assert failed_at is not None

    assert start_due_seasons(timezone.now() + timedelta(minutes=1)) == []
    assert Season.objects.get(pk=season.pk).start_failed_at == failed_at  # not tried again
    for user in (alice, organiser):
        [notice] = Notification.objects.filter(user=user, kind=LeagueNotice.LEAGUE_SEASON)
        assert notice.text == (
            "Winter, season 1 could not start at its time: Nobody is registered yet. "
            "Start it from its start page once it can."
        )


def test_the_season_page_says_why_and_starting_by_hand_clears_the_mark(
    club: Club, season: Season, alice: User, member: User, make_members: Members
) -> None:
    Season.objects.filter(pk=season.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    start_due_seasons(timezone.now())
    page = reverse("leagues:season", args=[club.slug, season.league.slug, season.number])

    organisers_page = client_as(alice).get(page).text
    assert "The season could not start at its time" in organisers_page
    assert "Nobody is registered yet." in organisers_page
    assert "then start it from" in organisers_page
    members_page = client_as(member).get(page).text
    assert "Its organisers are told; they start it once it can." in members_page

    for user in make_members(3):
        register(season, user)
    start_season(season, alice)
    started = Season.objects.get(pk=season.pk)
    assert (started.status, started.start_failed_at, started.start_failure) == (
        Season.Status.RUNNING,
        None,
        "",
    )
    assert "could not start at its time" not in client_as(alice).get(page).text


def matchday_due(club: Club, opens_at: datetime) -> Matchday:
    """A scheduled matchday (no fixtures) of a running season of a new league of ``club``."""
    number = League.objects.count() + 1
    league = League.objects.create(
        club=club, name=f"League {number}", slug=f"league-{number}", table_settings={}
    )
    season = SeasonFactory(league=league, status=Season.Status.RUNNING)
    return Matchday.objects.create(
        season=season, number=1, opens_at=opens_at, deadline=opens_at + timedelta(days=7)
    )


def test_matchdays_that_cannot_open_rest_and_let_the_others_open(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tasks, "BATCH", 2)
    now = timezone.now()
    orphaned = Club.objects.create(name="No organiser", slug="no-organiser")
    failing = [matchday_due(orphaned, now - timedelta(hours=3 - n)) for n in range(3)]
    good = matchday_due(club, now - timedelta(minutes=1))

    assert tasks.open_due_matchdays(now) == []
    assert tasks.open_due_matchdays(now) == [good.pk]
    assert all(Matchday.objects.get(pk=m.pk).status == Matchday.Status.SCHEDULED for m in failing)

    later = now + timedelta(minutes=16)  # their rest is over: tried again
    assert tasks.open_due_matchdays(later) == []
    assert set(tasks._resting(tasks.OPENING, later)) == {failing[0].pk, failing[1].pk}
