"""The season's beat job: reminders and closing due matchdays, safe to run twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from leagues.models import Fixture, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.services.season_end import announce_close
from leagues.tasks import run_seasons
from notifications.models import Notification
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def test_the_job_is_on_the_beat_schedule() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["leagues-run-seasons"]
    assert entry["task"] == "leagues.tasks.run_seasons"


def test_it_reminds_when_three_quarters_of_the_matchday_passed_and_only_once(
    running: RunningSeason,
) -> None:
    deadline = running.matchday.deadline  # a matchday of 3 days: reminded 18 hours before
    with time_machine.travel(deadline - timedelta(hours=19)):
        run_seasons()
    assert not Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY).exists()

    with time_machine.travel(deadline - timedelta(hours=17)):
        run_seasons()
        run_seasons()
    assert Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY).count() == 4


def test_a_one_day_matchday_is_not_reminded_at_its_opening(running: RunningSeason) -> None:
    matchday = running.matchday
    opens = timezone.now()
    Matchday.objects.filter(pk=matchday.pk).update(
        opens_at=opens, deadline=opens + timedelta(days=1)
    )
    reminded = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    with time_machine.travel(opens + timedelta(minutes=1)):
        run_seasons()
    with time_machine.travel(opens + timedelta(hours=17)):
        run_seasons()
    assert not reminded.exists()

    with time_machine.travel(opens + timedelta(hours=18, minutes=1)):
        run_seasons()
    assert reminded.count() == 4
    assert Matchday.objects.get(pk=matchday.pk).reminded_at is not None


def test_a_long_matchday_is_reminded_at_most_a_day_before(running: RunningSeason) -> None:
    matchday = running.matchday
    opens = timezone.now()
    deadline = opens + timedelta(days=7)
    Matchday.objects.filter(pk=matchday.pk).update(opens_at=opens, deadline=deadline)
    reminded = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    with time_machine.travel(deadline - timedelta(hours=25)):
        run_seasons()
    assert not reminded.exists()
    with time_machine.travel(deadline - timedelta(hours=23)):
        run_seasons()
    assert reminded.count() == 4


def test_a_matchday_too_short_to_remind_is_not_reminded(running: RunningSeason) -> None:
    matchday = running.matchday
    opens = timezone.now()
    deadline = opens + timedelta(hours=3)
    Matchday.objects.filter(pk=matchday.pk).update(opens_at=opens, deadline=deadline)
    for moment in (opens + timedelta(minutes=1), deadline - timedelta(minutes=30)):
        with time_machine.travel(moment):
            run_seasons()
    assert not Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY).exists()
    assert Matchday.objects.get(pk=matchday.pk).reminded_at is None


def test_past_the_deadline_it_settles_and_closes_and_a_second_run_changes_nothing(
    running: RunningSeason,
) -> None:
    with time_machine.travel(running.matchday.deadline + timedelta(minutes=1)):
        run_seasons()
        notes = list(Fixture.objects.values_list("status", "note"))
        run_seasons()

    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.CLOSED
    assert list(Fixture.objects.values_list("status", "note")) == notes
    assert {status for status, _ in notes} == {Fixture.Status.SETTLED}
    event = Fixture.pgh_event_model.objects.filter(status="settled").first()  # type: ignore[attr-defined]
    assert event.pgh_context.metadata["reason"] == "The matchday's deadline passed."


def test_a_fixture_moved_later_keeps_the_matchday_open_until_its_own_deadline(
    running: RunningSeason,
) -> None:
    later = running.matchday.deadline + timedelta(days=3)
    moved = running.fixtures[0]
    Fixture.objects.filter(pk=moved.pk).update(deadline=later)

    with time_machine.travel(running.matchday.deadline + timedelta(minutes=1)):
        run_seasons()
    assert Fixture.objects.get(pk=moved.pk).status == Fixture.Status.PLAYING
    assert Fixture.objects.get(pk=running.fixtures[1].pk).status == Fixture.Status.SETTLED
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN

    with time_machine.travel(later + timedelta(minutes=1)):
        run_seasons()
    assert Fixture.objects.get(pk=moved.pk).status == Fixture.Status.SETTLED
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.CLOSED


def test_a_fixture_moved_earlier_is_settled_at_its_own_deadline(running: RunningSeason) -> None:
    earlier = timezone.now() + timedelta(hours=1)
    moved = running.fixtures[0]
    Fixture.objects.filter(pk=moved.pk).update(deadline=earlier)

    with time_machine.travel(earlier + timedelta(minutes=1)):
        run_seasons()

    assert Fixture.objects.get(pk=moved.pk).status == Fixture.Status.SETTLED
    assert Fixture.objects.get(pk=running.fixtures[1].pk).status == Fixture.Status.PLAYING
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN


def test_closing_the_last_matchday_does_not_close_the_season_without_an_announced_close(
    running: RunningSeason,
) -> None:
    season = running.season
    with time_machine.travel(running.matchday.deadline + timedelta(days=30)):
        run_seasons()
        run_seasons()

    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.CLOSED
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING and season.finished_at is None
    assert not Season.objects.filter(league=season.league, number=2).exists()


def test_an_announced_close_closes_the_season_at_its_moment_and_proposes_the_next(
    running: RunningSeason,
) -> None:
    season = running.season
    announced = announce_close(season, running.organiser, "The last matchday is over.")
    assert announced.closes_at == running.matchday.deadline + timedelta(hours=48)
    told = Notification.objects.filter(key=f"season-close-announced:{season.pk}")
    assert told.count() == len(running.entries)
    assert "disput" in told.first().text  # type: ignore[union-attr]

    with time_machine.travel(announced.closes_at - timedelta(minutes=1)):
        run_seasons()
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING

    with time_machine.travel(announced.closes_at + timedelta(seconds=5)):
        run_seasons()
        run_seasons()
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    following = Season.objects.get(league=season.league, number=2)
    assert following.status == Season.Status.REGISTRATION and following.previous == season
    assert following.entries.count() == len(running.entries)


def test_a_season_with_a_matchday_still_to_come_stays_open(running: RunningSeason) -> None:
    later = running.matchday.deadline + timedelta(days=7)
    Matchday.objects.create(
        season=running.season, number=2, opens_at=later - timedelta(days=1), deadline=later
    )
    with time_machine.travel(running.matchday.deadline + timedelta(minutes=1)):
        run_seasons()

    assert Season.objects.get(pk=running.season.pk).status == Season.Status.RUNNING
