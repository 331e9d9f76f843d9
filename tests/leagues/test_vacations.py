"""Vacations counted against a league season's allowance, refused past it, and shown."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Vacation
from games.services.vacations import VacationError, plan_vacation
from leagues.models import Club, Entry, Matchday, Season
from leagues.selectors.vacations import SeasonVacation, season_vacations
from leagues.services.vacations import check_allowance
from tests.leagues.conftest import make_season


def test_days_used_count_vacation_time_within_the_running_season(
    league_club: Club, alice: User, bob: User
) -> None:
    season = make_season(league_club, [alice, bob], vacation_days=5)
    started = season.started_at
    assert started is not None
    # Began two days before the season: only the part since its start counts.
    Vacation.objects.create(
        user=alice, starts_at=started - timedelta(days=2), ends_at=started + timedelta(hours=30)
    )

    used = season_vacations(season, [alice.pk, bob.pk])

    assert (used[alice.pk].used, used[alice.pk].left, used[alice.pk].allowance) == (2, 3, 5)
    assert used[alice.pk].away_until == started + timedelta(hours=30)
    assert (used[bob.pk].used, used[bob.pk].away_until) == (0, None)


def test_vacations_after_the_last_deadline_do_not_count(
    league_club: Club, alice: User, bob: User
) -> None:
    season = make_season(league_club, [alice, bob])
    now = timezone.now()
    Matchday.objects.create(season=season, number=1, opens_at=now, deadline=now + timedelta(days=3))
    Vacation.objects.create(
        user=alice, starts_at=now + timedelta(days=2), ends_at=now + timedelta(days=9)
    )

    assert season_vacations(season, [alice.pk])[alice.pk].used == 1


def test_a_vacation_past_a_running_seasons_allowance_is_refused(
    league_club: Club, alice: User, bob: User
) -> None:
    make_season(league_club, [alice, bob], vacation_days=3)
    plan_vacation(alice, 2)

    with pytest.raises(VacationError) as refusal:
        plan_vacation(alice, 2, timezone.localdate() + timedelta(days=5))

    assert refusal.value.message == (
        "That vacation would take 2 vacation days of League 1, season 1, where you have "
        "1 vacation day left of the season's 3 vacation days."
    )
    assert Vacation.objects.filter(user=alice).count() == 1


def test_a_vacation_within_the_allowance_is_planned(
    league_club: Club, alice: User, bob: User
) -> None:
    season = make_season(league_club, [alice, bob], vacation_days=3)

    vacation = plan_vacation(alice, 3)

    assert Vacation.objects.get(user=alice) == vacation
    assert season_vacations(season, [alice.pk])[alice.pk].used == 3


def test_only_running_seasons_the_member_plays_count(
    league_club: Club, alice: User, bob: User
) -> None:
    withdrawn = make_season(league_club, [alice, bob], vacation_days=1)
    Entry.objects.filter(season=withdrawn, user=alice).update(status=Entry.Status.WITHDRAWN)
    finished = make_season(league_club, [alice, bob], vacation_days=1)
    Season.objects.filter(pk=finished.pk).update(status=Season.Status.FINISHED)
    make_season(league_club, [bob], vacation_days=1)
    now = timezone.now()

    assert check_allowance(alice, now, now + timedelta(days=5)) is None
    assert check_allowance(bob, now, now + timedelta(days=5)) is not None


def test_a_substitute_spends_the_allowance_of_the_entry_they_play(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    season = make_season(league_club, [alice, bob], vacation_days=1)
    Entry.objects.filter(season=season, user=bob).update(substitute=carol)
    now = timezone.now()

    assert check_allowance(bob, now, now + timedelta(days=3)) is None
    assert check_allowance(carol, now, now + timedelta(days=3)) is not None


def test_the_vacation_page_refuses_with_the_sentence(
    league_club: Club, alice: User, bob: User, alice_client: Client
) -> None:
    make_season(league_club, [alice, bob], vacation_days=2)
    starts = timezone.localdate() + timedelta(days=1)

    response = alice_client.post(
        reverse("games:plan_vacation"), {"days": 4, "starts_on": starts.isoformat()}
    )

    assert response.status_code == 400
    assert "you have 2 vacation days left of the season" in response.content.decode()
    assert not Vacation.objects.exists()


def test_a_member_in_no_season_plans_as_before(alice: User) -> None:
    vacation = plan_vacation(alice, 5, date.today() + timedelta(days=2))
    assert vacation.pk is not None


def test_the_mark_by_a_player_in_a_list_says_who_is_away_and_the_days_used() -> None:
    until = timezone.make_aware(datetime(2026, 3, 5, 18, 0))

    away = render_to_string(
        "leagues/player_vacation.html",
        {"vacation": SeasonVacation(2, 7, until), "compact": True},
    )
    here = render_to_string(
        "leagues/player_vacation.html", {"vacation": SeasonVacation(1, 7, None), "compact": True}
    )

    assert "on vacation until Thu 5 Mar" in away and "2/7 vacation days" in away
    assert "on vacation" not in here and "1/7 vacation days" in here
