"""The division sees a standings correction as such: the standings page marks the players
whose result a ruling corrected, and lists the corrected games under the division's table
with the scores before and after and the reason. Leagues reads the result rows only."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, Result
from games.services.results import SeatCorrection
from leagues.models import Fixture
from leagues.selectors.corrections import season_corrections
from moderation.models import Case, Category, Ruling
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import apply_ruling

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
    dave_seat = next(seat for seat in correction.seats if seat.player == "Dave")
    assert dave_seat.after == 25 and dave_seat.before != 25
    bob_and_dave = {seat.entry_id for seat in league_fixture.seats.all()}
    assert corrections.entries == bob_and_dave

    html = Client().get(standings_url(running)).content.decode()
    assert "Corrected by a ruling" in html
    assert f'data-fixture="{league_fixture.pk}"' in html
    assert "Matchday 1, game 1" in html and "<ins>25</ins>" in html
    assert html.count('class="status-tag status-corrected"') == 2


def test_a_rulings_note_reaches_no_page_a_non_party_reads(
    case: Case, running: RunningSeason, club_moderator: User, league_fixture: Fixture
) -> None:
    """Walk turn 4, W3: the note, which the ruling form says only the parties read, was
    printed on the public standings (and the season's history, and the organisers'
    result page); those say a ruling corrected it, without its reasons."""
    apply_ruling(case, club_moderator, corrections={1: SeatCorrection(score=25, is_winner=True)})
    args = [running.club.slug, "winter", 1]
    visitor, organiser = Client(), client_as(running.organiser)
    pages = {
        "standings": visitor.get(standings_url(running)),
        "live standings": visitor.get(standings_url(running), headers={"HX-Request": "true"}),
        "history": visitor.get(reverse("leagues:history", args=args)),
        "standings csv": visitor.get(reverse("leagues:standings_csv", args=args)),
        "results csv": visitor.get(reverse("leagues:results_csv", args=args)),
        "organiser's history": organiser.get(reverse("leagues:history", args=args)),
        "organiser's result page": organiser.get(
            reverse("leagues:adjust_score", args=[*args, league_fixture.pk])
        ),
    }

    for name, page in pages.items():
        assert page.status_code == 200, name
        assert "refused a legal play" not in page.getvalue().decode(), name
    assert "Corrected by a ruling" in pages["standings"].content.decode()
    assert "<ins>25</ins>" in pages["standings"].content.decode()


def test_only_a_seat_whose_score_or_win_changed_is_marked_corrected(
    case: Case, running: RunningSeason, club_moderator: User, league_fixture: Fixture
) -> None:
    """Walk turn 4, W12: a seat the ruling rewrote without changing its score or win (its
    rack's value here, its place in the game in the walk) keeps its points, and is not
    marked "corrected"; the game is still listed with every seat it rewrote."""
    dave_seat = league_fixture.seats.get(number=1)
    bob_rack = Result.objects.current().get(game=case.game, seat=0).rack_value
    dave_score = Result.objects.current().get(game=case.game, seat=1).score
    apply_ruling(
        case,
        club_moderator,
        corrections={
            0: SeatCorrection(rack_value=bob_rack + 5),
            1: SeatCorrection(score=dave_score + 1),
        },
    )

    corrections = season_corrections(running.season)

    (correction,) = corrections.by_level[1]
    assert {seat.player for seat in correction.seats} == {"Bob", "Dave"}
    assert corrections.entries == {dave_seat.entry_id}
    html = Client().get(standings_url(running)).content.decode()
    assert html.count('class="status-tag status-corrected"') == 1


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
