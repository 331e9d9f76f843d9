"""The start preview is scheduled once per change of the season's registrations or
house rules, not on every GET (security-wave2 finding 11)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from leagues.models import League, Season
from leagues.services import season_start
from leagues.services.leagues import update_league
from leagues.services.seasons import register, unregister
from tests.conftest import client_as

pytestmark = pytest.mark.django_db

START = "/clubs/tile-club/winter/1/start/"
Members = Callable[[int], list[User]]


@pytest.fixture
def schedules(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many divisions were scheduled: the real scheduler, counted."""
    calls: list[int] = []
    real = season_start.schedule_season

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(season_start, "schedule_season", counted)
    yield calls


def test_a_second_look_at_the_preview_schedules_nothing(
    season: Season, alice: User, make_members: Members, schedules: list[int]
) -> None:
    for user in make_members(4):
        register(season, user)
    client = client_as(alice)

    first = client.get(START)
    assert first.status_code == 200 and len(schedules) == 1
    second = client.get(START)
    assert second.status_code == 200 and len(schedules) == 1
    assert first.context["preview"].players == second.context["preview"].players == 4


def test_a_registration_or_a_rule_changed_schedules_again(
    season: Season, alice: User, make_members: Members, schedules: list[int]
) -> None:
    first, *others = make_members(4)
    for user in (first, *others):
        register(season, user)
    client = client_as(alice)
    client.get(START)

    late = make_members(1)[0]
    register(season, late)
    assert client.get(START).context["preview"].players == 5
    assert len(schedules) == 2

    unregister(season, first)
    assert client.get(START).context["preview"].players == 4
    register(season, first)  # the same players as before: a change all the same
    assert client.get(START).context["preview"].players == 5
    assert len(schedules) == 4

    league = League.objects.get(pk=season.league_id)
    values = {"name": league.name, "description": "", **league.house_rules(), "seats": 2}
    update_league(league, alice, values)
    assert client.get(START).context["preview"].divisions[0].fixtures_per_matchday == 2
    assert len(schedules) == 5


def test_the_cached_preview_keeps_its_dates_current(
    season: Season, make_members: Members, schedules: list[int]
) -> None:
    for user in make_members(3):
        register(season, user)
    now = timezone.now()

    today = season_start.cached_preview(season, now)
    tomorrow = season_start.cached_preview(season, now + timedelta(days=1))

    assert len(schedules) == 1
    assert tomorrow.first_deadline - today.first_deadline == timedelta(days=1)
