"""Far and malformed dates answer 400 with a sentence and change nothing, on every page
of clubs and members that takes a date or a moment: an organiser's deadlines, a new
season's dates and a vacation's first day (the day after 9999-12-31 overflowed into a
500). The moderation log's filters: ``tests/moderation/test_log_page.py``."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Vacation
from leagues.models import Fixture, League, Matchday, Season
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db

FAR_DAYS = ["9999-12-31", "0001-01-01", "1899-12-31", "3000-01-01", "10000-01-01", "2026-02-30"]
FAR_MOMENTS = ["9999-12-31T23:59", "0001-01-01T00:00", "3000-01-01T00:00", "10000-01-01T00:00"]
SEASON = ["tile-club", "winter", 1]
SENTENCES = ("Enter a valid date", "from 1 January 2000 to 31 December 2999")


def refused_with_a_sentence(response: Any) -> None:
    assert response.status_code == 400
    html = response.content.decode()
    assert any(sentence in html for sentence in SENTENCES)


@pytest.mark.parametrize("moment", FAR_MOMENTS)
def test_an_organiser_cannot_move_a_deadline_out_of_range(
    running: RunningSeason, moment: str
) -> None:
    client = client_as(running.organiser)
    matchday, fixture = running.matchday, running.fixtures[0]
    extend = reverse("leagues:extend_deadline", args=[*SEASON, matchday.number])
    refused_with_a_sentence(client.post(extend, {"deadline": moment, "reason": "Snow."}))
    move = reverse("leagues:reschedule", args=[*SEASON, fixture.pk])
    refused_with_a_sentence(client.post(move, {"deadline": moment, "reason": "Travel."}))
    assert Matchday.objects.get(pk=matchday.pk).deadline == matchday.deadline
    assert Fixture.objects.get(pk=fixture.pk).deadline is None


@pytest.mark.parametrize("moment", FAR_MOMENTS)
@pytest.mark.parametrize("field", ["registration_closes_at", "starts_at"])
def test_a_new_season_refuses_a_date_out_of_range(
    league: League, alice: User, field: str, moment: str
) -> None:
    url = reverse("leagues:open_season", args=[league.club.slug, league.slug])
    refused_with_a_sentence(client_as(alice).post(url, {field: moment}))
    assert not Season.objects.exists()


@pytest.mark.parametrize("day", FAR_DAYS)
def test_a_vacation_refuses_a_first_day_out_of_range(alice: User, day: str) -> None:
    response = client_as(alice).post(reverse("games:plan_vacation"), {"days": 3, "starts_on": day})
    refused_with_a_sentence(response)
    assert not Vacation.objects.exists()
