"""Organisers and players racing: a season starts once, a matchday opens once, nobody
registers into a season that has started.

Each thread has its own database connection, so the row locks really are contended.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.models import Table
from leagues.errors import LeaguesError
from leagues.models import Entry, Fixture, Matchday, Season
from leagues.services.matchdays import open_matchday
from leagues.services.season_start import start_season
from leagues.services.seasons import register
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_season_started_twice_at_once_starts_once(
    season: Season, alice: User, make_members: Callable[[int], list[User]]
) -> None:
    for user in make_members(6):
        register(season, user)

    results = race(*[lambda: start_season(season, alice)] * 3, refusal=LeaguesError, name=str)

    assert results == ["The season has started already."] * 2 + ["ok"]
    assert season.divisions.count() == 1
    assert Fixture.objects.filter(matchday__number=1).count() == 2
    assert Table.objects.count() == 2


def test_a_matchday_opened_twice_at_once_opens_once(
    season: Season, alice: User, make_members: Callable[[int], list[User]]
) -> None:
    for user in make_members(6):
        register(season, user)
    start_season(season, alice)
    second = Matchday.objects.get(season=season, number=2)

    assert race(*[lambda: open_matchday(second)] * 3, refusal=LeaguesError, name=str) == ["ok"] * 3

    assert Table.objects.count() == 4
    assert not Fixture.objects.filter(table__isnull=True, matchday__number__lte=2).exists()


def test_a_registration_racing_the_start_is_in_or_refused(
    season: Season, alice: User, make_members: Callable[[int], list[User]]
) -> None:
    *players, late = make_members(4)
    for user in players:
        register(season, user)

    results = race(
        lambda: start_season(season, alice),
        lambda: register(season, late),
        refusal=LeaguesError,
        name=str,
    )

    entry = Entry.objects.filter(user=late).first()
    if results == ["Registration for this season is closed.", "ok"]:
        assert entry is None
    else:
        # Registered first: the late player is placed like everyone else.
        assert results == ["ok", "ok"]
        assert entry is not None and entry.division is not None
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING
