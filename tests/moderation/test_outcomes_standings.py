"""The division sees a standings correction as such: the standings page marks the players
whose result a ruling corrected, and lists the corrected games under the division's table
with the scores before and after and the reason. Leagues reads the result rows only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.services.results import SeatCorrection
from leagues.models import Fixture
from leagues.selectors.corrections import season_corrections
from moderation.models import Case, Category, Ruling
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import NOTE, apply_ruling

pytestmark = pytest.mark.django_db


def standings_url(running: RunningSeason) -> str:
    return reverse("leagues:standings", args=[running.club.slug, "winter", 1])


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    return open_case(league_game, bob, Category.BUG, fixture=league_fixture)


def test_before_any_ruling_nothing_is_marked(case: Case, running: RunningSeason) -> None:
    html = Client().get(standings_url(running)).content.decode()
    assert "Corrected by a ruling" not in html and "status-corrected" not in html
    assert season_corrections(running.season).by_level == {}


def test_a_corrected_game_is_listed_under_its_division_and_its_players_marked(
    case: Case, running: RunningSeason, club_moderator: User, league_fixture: Fixture
) -> None:
    apply_ruling(case, club_moderator, corrections={1: SeatCorrection(score=25, is_winner=True)})
    corrections = season_corrections(running.season)
    (correction,) = corrections.by_level[1]
    assert correction.fixture == league_fixture.pk and correction.game == 1
    assert correction.reason == NOTE
    dave_seat = next(seat for seat in correction.seats if seat.player == "Dave")
    assert dave_seat.after == 25 and dave_seat.before != 25
    bob_and_dave = {seat.entry_id for seat in league_fixture.seats.all()}
    assert corrections.entries == bob_and_dave

    html = Client().get(standings_url(running)).content.decode()
    assert "Corrected by a ruling" in html
    assert f'data-fixture="{league_fixture.pk}"' in html
    assert "Matchday 1, game 1" in html and "<ins>25</ins>" in html
    assert "The server refused a legal play" in html
    assert html.count('class="status-tag status-corrected"') == 2


def test_the_live_refresh_of_the_tables_carries_the_corrections(
    case: Case, running: RunningSeason, club_moderator: User
) -> None:
    apply_ruling(case, club_moderator, corrections={0: SeatCorrection(score=-5)})
    html = Client().get(standings_url(running), headers={"HX-Request": "true"}).content.decode()
    assert "Corrected by a ruling" in html and "status-corrected" in html


def test_a_ruling_that_changes_no_result_corrects_nothing(
    case: Case, running: RunningSeason, club_moderator: User
) -> None:
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS)
    assert season_corrections(running.season).entries == set()
