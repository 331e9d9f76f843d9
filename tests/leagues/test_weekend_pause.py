"""A league's weekend pause: chosen with its house rules, copied to each season and to
the fixture tables it sets up, stated in words; matchday deadlines stay on the calendar."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from games.models import Seat
from games.models.table_settings import TableSettings
from leagues.house_rules import DEFAULTS, house_rules_in_words
from leagues.models import Club, League
from leagues.services.season_start import start_season
from leagues.services.seasons import open_season, register
from tests.conftest import client_as
from tests.games.conftest import current_game
from tests.leagues.test_views_seasons import league_form

pytestmark = pytest.mark.django_db

Members = Callable[[int], list[User]]
PAUSED = TableSettings(clock="correspondence", weekend_pause=True)


def test_an_organiser_chooses_the_pause_with_the_house_rules(club: Club, alice: User) -> None:
    client = client_as(alice)
    page = client.get("/clubs/tile-club/leagues/new/").content.decode()
    assert 'name="weekend_pause"' in page

    response = client.post("/clubs/tile-club/leagues/new/", league_form(weekend_pause="on"))

    assert response.status_code == 302
    league = League.objects.get(slug="spring")
    assert TableSettings.from_dict(league.table_settings).weekend_pause
    words = client.get("/clubs/tile-club/spring/").content.decode()
    assert "paused on weekends" in words


def test_the_house_rules_say_the_pause_stops_turn_clocks_not_matchday_deadlines() -> None:
    league = League(**{**DEFAULTS, "table_settings": PAUSED.to_dict(), "seats": 2})
    words = dict(house_rules_in_words(league).lines)

    assert words["Clock"] == (
        "Correspondence: 1 day a turn; paused on weekends: a turn's clock stands still from "
        "Saturday 00:00 to Monday 00:00 in the time zone of the player whose turn it is"
    )
    assert words["Matchdays"] == (
        "7 days each, weekends included: the weekend pause stops turn clocks, not matchday "
        "deadlines"
    )
    plain = League(**{**DEFAULTS, "seats": 2})
    assert dict(house_rules_in_words(plain).lines)["Matchdays"] == "7 days each"


def test_each_season_and_its_fixture_tables_pause_as_the_league_did(
    league: League,
    alice: User,
    make_members: Members,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league.table_settings = PAUSED.to_dict()
    league.save(update_fields=["table_settings"])
    season = open_season(league, alice)
    players = make_members(3)
    for number, player in enumerate(players):
        player.time_zone = ["Asia/Tokyo", "Europe/London", "America/New_York"][number]
        player.save(update_fields=["time_zone"])
        register(season, player)

    with django_capture_on_commit_callbacks(execute=True):
        start_season(season, alice)

    assert TableSettings.from_dict(season.table_settings).weekend_pause
    (fixture,) = season.matchdays.get(number=1).fixtures.all()
    table = fixture.table
    assert table is not None and table.weekend_pause
    game = current_game(table)
    mover = Seat.objects.get(table=table, number=game.current_seat).user
    assert mover is not None and game.turn_zone == mover.time_zone
    # The matchday's deadline is the calendar's, whatever the clocks: the season's days.
    matchday = season.matchdays.get(number=1)
    assert matchday.deadline - matchday.opens_at == timedelta(days=league.matchday_days)
