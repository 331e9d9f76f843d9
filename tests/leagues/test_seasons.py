"""Leagues and seasons before the start: creating and changing a league, opening a
season, registration and its approval."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from leagues.errors import LeaguesError
from leagues.house_rules import DEFAULTS
from leagues.models import Club, Entry, League, Season
from leagues.notices import LeagueNotice
from leagues.services.leagues import create_league, update_league
from leagues.services.seasons import decide, open_season, register, set_registration, unregister
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def values(**changes: Any) -> dict[str, Any]:
    return {"name": "Spring", "description": "", **DEFAULTS, **changes}


def test_an_organiser_creates_a_league_with_its_house_rules(club: Club, alice: User) -> None:
    league = create_league(club, alice, "spring", values(seats=2, division_size=6))
    assert (league.club, league.slug, league.seats, league.division_size) == (club, "spring", 2, 6)


def test_a_member_may_not_create_a_league(club: Club, member: User) -> None:
    with pytest.raises(LeaguesError) as refused:
        create_league(club, member, "spring", values())
    assert refused.value.status == 403
    assert not League.objects.exists()


def test_a_league_refuses_rules_that_do_not_fit_and_a_taken_address(
    club: Club, alice: User, league: League
) -> None:
    with pytest.raises(LeaguesError) as refused:
        create_league(club, alice, "spring", values(scoring="placement", placement_points=[1, 2]))
    assert refused.value.status == 400
    with pytest.raises(LeaguesError, match="address"):
        create_league(club, alice, "winter", values())
    assert list(League.objects.values_list("slug", flat=True)) == ["winter"]


def test_changing_a_league_changes_a_season_not_started_but_not_one_under_way(
    league: League, alice: User
) -> None:
    waiting = open_season(league, alice)
    update_league(league, alice, values(name="Winter", seats=4, matchday_days=3))
    waiting.refresh_from_db()
    assert (waiting.seats, waiting.matchday_days) == (4, 3)

    Season.objects.filter(pk=waiting.pk).update(status=Season.Status.RUNNING)
    update_league(league, alice, values(name="Winter", seats=2, matchday_days=5))
    waiting.refresh_from_db()
    league.refresh_from_db()
    assert (league.seats, league.matchday_days) == (2, 5)
    assert (waiting.seats, waiting.matchday_days) == (4, 3)


def test_a_season_copies_the_house_rules_and_follows_the_last_one(
    league: League, alice: User
) -> None:
    first = open_season(league, alice)
    with pytest.raises(LeaguesError, match="must finish"):
        open_season(league, alice)
    Season.objects.filter(pk=first.pk).update(status=Season.Status.FINISHED)
    second = open_season(league, alice)
    assert (first.number, second.number, second.previous) == (1, 2, first)
    assert second.house_rules() == league.house_rules()


def test_the_members_hear_that_registration_is_open(
    league: League, alice: User, member: User, rival: User
) -> None:
    season = open_season(league, alice)
    told = Notification.objects.filter(kind=LeagueNotice.LEAGUE_SEASON)
    assert list(told.values_list("user", "text", "link")) == [
        (member.pk, "Winter, season 1 is open for registration.", "/clubs/tile-club/winter/1/")
    ]
    assert season.number == 1


def test_a_member_may_not_open_a_season(league: League, member: User) -> None:
    with pytest.raises(LeaguesError):
        open_season(league, member)
    assert not Season.objects.exists()


def test_members_register_and_withdraw_before_the_start(season: Season, member: User) -> None:
    entry = register(season, member)
    assert entry.status == Entry.Status.REGISTERED
    with pytest.raises(LeaguesError, match="already"):
        register(season, member)
    assert unregister(season, member).status == Entry.Status.WITHDRAWN
    assert register(season, member).status == Entry.Status.REGISTERED
    assert Entry.objects.count() == 1


def test_only_members_register(season: Season, rival: User) -> None:
    with pytest.raises(LeaguesError) as refused:
        register(season, rival)
    assert refused.value.status == 403
    assert not Entry.objects.exists()


def test_closed_registration_takes_nobody(season: Season, alice: User, member: User) -> None:
    set_registration(season, alice, is_open=False)
    with pytest.raises(LeaguesError, match="closed"):
        register(season, member)
    set_registration(season, alice, is_open=True)
    assert register(season, member).status == Entry.Status.REGISTERED


def test_registration_closes_by_itself_at_its_time(season: Season, member: User) -> None:
    Season.objects.filter(pk=season.pk).update(
        registration_closes_at=timezone.now() - timedelta(minutes=1)
    )
    with pytest.raises(LeaguesError, match="closed"):
        register(season, member)


def test_with_approval_an_organiser_decides_and_the_player_is_told(
    season: Season, alice: User, member: User, make_members: Callable[[int], list[User]]
) -> None:
    Season.objects.filter(pk=season.pk).update(registration_approval=True)
    (dora,) = make_members(1)
    assert register(season, member).status == Entry.Status.PENDING
    register(season, dora)
    with pytest.raises(LeaguesError):
        decide(season, member, dora.pk, approve=True)
    assert decide(season, alice, member.pk, approve=True).status == Entry.Status.REGISTERED
    assert decide(season, alice, dora.pk, approve=False).status == Entry.Status.DECLINED
    with pytest.raises(LeaguesError, match="declined"):
        register(season, dora)
    with pytest.raises(LeaguesError, match="awaits"):
        decide(season, alice, dora.pk, approve=True)
    told = Notification.objects.filter(kind=LeagueNotice.LEAGUE_SEASON)
    assert sorted(told.values_list("user__username", "text")) == sorted(
        [
            (member.username, "Your registration for Winter, season 1 was approved."),
            (dora.username, "Your registration for Winter, season 1 was declined."),
        ]
    )
