"""The season's schedule in sight (walk W20): who meets whom on which matchday, with each
matchday's dates, in the organiser's start preview and, from the start, on the season
page for players and the organiser, future matchdays included."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
import time_machine

from accounts.models import User
from leagues.models import Fixture, Matchday, Season
from leagues.services import season_start
from tests.conftest import client_as

pytestmark = pytest.mark.django_db

SEASON = "/clubs/tile-club/winter/1/"


def matchday_block(page: str, number: int) -> str:
    """The part of ``page`` from matchday ``number``'s heading to the next one's."""
    start = page.index(f"Matchday {number}<")
    following = page.find(f"Matchday {number + 1}<", start)
    return page[start : following if following >= 0 else len(page)]


def names(fixture: Fixture) -> list[str]:
    return [seat.entry.user.display_name for seat in fixture.seats.order_by("number")]


@pytest.fixture
def registered(season: Season, make_members: Callable[[int], list[User]]) -> list[User]:
    players = make_members(6)
    for user in players:
        client_as(user).post(f"{SEASON}register/")
    return players


@time_machine.travel("2026-03-02 09:00 +0000", tick=False)
def test_the_start_preview_lists_each_matchdays_fixtures_and_dates(
    season: Season, alice: User, registered: list[User]
) -> None:
    preview = season_start.preview_start(season)
    schedule = preview.divisions[0].schedule
    assert schedule is not None
    name_of = {entry.pk: entry.user.display_name for entry in preview.divisions[0].entries}

    page = client_as(alice).get(f"{SEASON}start/").content.decode()

    for matchday in schedule.matchdays:
        block = matchday_block(page, matchday.number)
        opens = preview.starts_at + timedelta(days=(matchday.number - 1) * season.matchday_days)
        deadline = opens + timedelta(days=season.matchday_days)
        assert f"opens {opens:%a} {opens.day} {opens:%b}" in block
        assert f"deadline {deadline:%a} {deadline.day} {deadline:%b}, 09:00" in block
        for fixture in matchday.fixtures:
            assert " · ".join(name_of[p] for p in fixture.players) in block
        for bye in matchday.byes:
            assert name_of[bye] in block.split("Bye:")[1]
    assert "opens Mon 2 Mar" in matchday_block(page, 1)


def test_the_season_page_lists_the_fixtures_of_matchdays_to_come(
    season: Season, alice: User, registered: list[User]
) -> None:
    client_as(alice).post(f"{SEASON}start/", {"reason": "all in"})
    later = Matchday.objects.get(season=season, number=2)
    assert later.status == Matchday.Status.SCHEDULED

    for viewer in (registered[0], alice):
        page = client_as(viewer).get(SEASON).content.decode()
        block = matchday_block(page, 2)
        # Open, not folded away: the matchdays to come are the schedule to read.
        assert re.search(r'<details class="matchday matchday-scheduled"[^>]* open>', page)
        for fixture in later.fixtures.all():
            assert " · ".join(names(fixture)) in block
        assert "opens" in block and "deadline" in block
