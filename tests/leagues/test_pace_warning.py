"""The league form warns, without refusing, when a fixture's turns at the rules' turn
time outlast a matchday."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from leagues.models import Club, League, Season
from tests.conftest import client_as
from tests.leagues.test_views_seasons import league_form

pytestmark = pytest.mark.django_db

NEW = "/clubs/tile-club/leagues/new/"


def test_rules_too_slow_for_a_matchday_are_saved_with_a_warning(club: Club, alice: User) -> None:
    client = client_as(alice)
    # 3 players, 3 games (one per seat), 1 day a turn: about 108 turns, up to 108 days.
    response = client.post(NEW, league_form(matchday_days="1"), follow=True)

    assert League.objects.filter(slug="spring").exists()
    page = response.content.decode()
    warning = (
        "A fixture takes about 108 turns (3 players, 3 games, about 12 turns each a game): "
        "at 1 day a turn, up to 108 days, longer than a matchday of 1 day."
    )
    assert page.count(warning) == 2  # the message, and the house rules in words
    edit = client.get("/clubs/tile-club/spring/edit/").content.decode()
    assert warning in edit


def test_rules_that_fit_a_matchday_are_saved_without_a_warning(club: Club, alice: User) -> None:
    client = client_as(alice)
    fast = league_form(clock="live", turn_seconds="60", matchday_days="1")
    response = client.post(NEW, fast, follow=True)

    assert League.objects.filter(slug="spring").exists()
    assert "A fixture takes about" not in response.content.decode()
    assert (
        "A fixture takes about" not in client.get("/clubs/tile-club/spring/edit/").content.decode()
    )


def test_a_form_refused_for_another_reason_still_warns_of_the_pace(club: Club, alice: User) -> None:
    response = client_as(alice).post(NEW, league_form(matchday_days="1", placement_points="3/1"))
    assert response.status_code == 400
    assert "A fixture takes about 108 turns" in response.content.decode()


@pytest.mark.parametrize("page", ["/clubs/tile-club/winter/", "/clubs/tile-club/winter/1/"])
def test_the_pace_advice_on_the_league_and_season_pages_is_for_organisers_only(
    page: str, season: Season, alice: User, member: User, stranger: User
) -> None:
    # Walk W25: "shorten the turn time, play fewer games..." was shown to every player.
    advice = "A fixture takes about 108 turns"
    assert advice in client_as(alice).get(page).content.decode()
    for someone in (member, stranger):
        shown = client_as(someone).get(page)
        assert shown.status_code == 200
        assert advice not in shown.content.decode()
    assert advice not in Client().get(page).content.decode()
