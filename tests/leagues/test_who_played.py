"""A season names who played each fixture and game: Frank for the fixture he played
before Hank replaced him, "Hank for Frank" from the substitution on; each member's own
page lists the fixtures they play or played, never one another played for the entry."""

from __future__ import annotations

from typing import Any

import icalendar
import pytest

from accounts.models import User
from games.models import Table
from games.models.table_settings import TableSettings
from games.services import draw, resign
from leagues.models import Entry, Fixture, Membership, Season
from leagues.selectors.calendar import member_calendar
from leagues.selectors.organiser import organiser_page
from leagues.selectors.player import player_seasons
from leagues.selectors.seasons import matchdays
from leagues.selectors.standings import season_results
from leagues.services.organiser import replace_player
from tests.factories import ClubFactory, UserFactory
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db: None) -> dict[str, User]:
    return {
        name: UserFactory(username=name, display_name=name.title())
        for name in ("alice", "erin", "frank", "gina", "hank")
    }


@pytest.fixture
def season(people: dict[str, User], django_capture_on_commit_callbacks: Any) -> Season:
    """Matchday 1's one-game fixture (Gina, Erin, Frank) is played: Frank and Gina
    resign. Then Alice seats Hank for Frank; matchday 2's fixture is still to open."""
    club = ClubFactory(name="Tile Club", slug="tile-club", owner=people["alice"])
    for name in ("erin", "frank", "gina", "hank"):
        Membership.objects.create(club=club, user=people[name])
    players = [people["gina"], people["erin"], people["frank"]]
    settings = TableSettings(clock="correspondence", games_in_round=1)
    season = make_season(club, players, seats=3, settings=settings)
    played = open_fixture(season, 1, players)
    assert played.table is not None
    game = played.table.games.get()
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, people["frank"])
        resign(game.pk, people["gina"])
    played.refresh_from_db()
    assert played.table.status == Table.Status.FINISHED
    assert played.status == Fixture.Status.FINISHED
    scheduled_fixture(season, 2, [people["erin"], people["frank"], people["gina"]])
    entry = Entry.objects.get(season=season, user=people["frank"])
    with django_capture_on_commit_callbacks(execute=True):
        replace_player(entry, people["hank"], people["alice"], "Frank moves house")
    return season


def test_the_season_page_names_who_played_each_fixture(
    season: Season, people: dict[str, User]
) -> None:
    days = matchdays(season, people["hank"])
    first, second = (day.divisions[0].fixtures[0] for day in days)
    assert first.players == ("Gina", "Erin", "Frank")
    assert not first.is_mine  # Hank never sat at it
    assert second.players == ("Erin", "Hank for Frank", "Gina")
    assert second.is_mine
    assert matchdays(season, people["frank"])[0].divisions[0].fixtures[0].is_mine


def test_the_results_export_names_who_played_each_game(season: Season) -> None:
    players = {line.seat: line.player for line in season_results(season)}
    assert players == {0: "Gina", 1: "Erin", 2: "Frank"}


def test_each_member_s_page_lists_the_fixtures_they_play_or_played(
    season: Season, people: dict[str, User]
) -> None:
    def listed(name: str) -> list[tuple[int, tuple[str, ...]]]:
        (mine,) = player_seasons(people[name])
        return [(fixture.matchday, fixture.opponents) for fixture in mine.fixtures]

    assert listed("hank") == [(2, ("Erin", "Gina"))]
    assert listed("frank") == [(1, ("Gina", "Erin"))]
    assert listed("gina") == [(1, ("Erin", "Frank")), (2, ("Erin", "Hank for Frank"))]
    feed = member_calendar(people["hank"]).decode()
    assert "matchday 1" not in feed
    assert "matchday 2" in feed


def test_the_organisers_page_names_who_played_each_fixture(season: Season) -> None:
    (day,) = organiser_page(season).open_matchdays
    assert day.matchday.number == 1
    assert [line.players for line in day.fixtures] == ["Gina, Erin, Frank"]


@pytest.fixture
def resigned_then_replaced(
    people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> Season:
    """Matchday 1's one-game fixture (Gina, Erin, Frank): Frank plays a move and resigns,
    Alice seats Hank for Frank while Gina and Erin play on, and Gina resigns. Hank never
    moved in that game."""
    club = ClubFactory(name="Tile Club", slug="tile-club", owner=people["alice"])
    for name in ("erin", "frank", "gina", "hank"):
        Membership.objects.create(club=club, user=people[name])
    players = [people["gina"], people["erin"], people["frank"]]
    settings = TableSettings(clock="correspondence", games_in_round=1)
    season = make_season(club, players, seats=3, settings=settings)
    fixture = open_fixture(season, 1, players)
    assert fixture.table is not None
    game = fixture.table.games.get()
    while game.current_seat != 2:
        game = draw(game.pk, players[game.current_seat or 0], game.version)
    game = draw(game.pk, people["frank"], game.version)
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, people["frank"])
        replace_player(
            Entry.objects.get(season=season, user=people["frank"]),
            people["hank"],
            people["alice"],
            "Frank moves house",
        )
        resign(game.pk, people["gina"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED
    return season


def test_a_substitute_who_never_moved_in_a_game_is_not_named_for_it(
    resigned_then_replaced: Season, people: dict[str, User]
) -> None:
    season = resigned_then_replaced
    players = {line.seat: line.player for line in season_results(season)}
    assert players == {0: "Gina", 1: "Erin", 2: "Frank"}
    (day,) = matchdays(season, people["hank"])
    (fixture,) = day.divisions[0].fixtures
    assert fixture.players == ("Gina", "Erin", "Frank")
    assert not fixture.is_mine


def test_the_fixture_stays_with_who_played_it_in_my_leagues_and_the_calendar(
    resigned_then_replaced: Season, people: dict[str, User]
) -> None:
    def listed(name: str) -> list[tuple[int, tuple[str, ...]]]:
        (mine,) = player_seasons(people[name])
        return [(fixture.matchday, fixture.opponents) for fixture in mine.fixtures]

    assert listed("frank") == [(1, ("Gina", "Erin"))]
    assert listed("hank") == []
    assert listed("erin") == [(1, ("Gina", "Frank"))]
    assert _summaries("frank", people) == [f"{resigned_then_replaced}: matchday 1 vs Gina, Erin"]
    assert _summaries("hank", people) == []


def _summaries(name: str, people: dict[str, User]) -> list[str]:
    feed = icalendar.Calendar.from_ical(member_calendar(people[name]))
    return [str(event["summary"]) for event in feed.walk("VEVENT")]
