"""Walk turn 4, W26: what happened within the minute reads "just now" on every page
(the members page and the case page said "0 minutes ago"), through one filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from accounts.models import User
from common.times import ago
from games.models import Game
from leagues.models import Fixture
from leagues.services import clubs
from moderation.models import Category
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def test_within_the_minute_is_just_now_and_later_how_long_ago() -> None:
    assert ago(NOON, NOON + timedelta(seconds=59)) == "just now"
    assert ago(NOON, NOON + timedelta(minutes=1)) == "1\xa0minute ago"
    assert ago(NOON, NOON + timedelta(hours=3)) == "3\xa0hours ago"


def test_the_members_page_and_the_case_page_say_just_now(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
) -> None:
    club, owner = running.club, running.organiser
    with time_machine.travel(NOON, tick=False):
        clubs.invite(club, owner, UserFactory(username="newcomer").username)
        case = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
    with time_machine.travel(NOON + timedelta(seconds=20), tick=False):
        members = client_as(owner).get(reverse("leagues:members", args=[club.slug]))
        case_page = client_as(club_moderator).get(reverse("moderation:case", args=[case.pk]))

    for page in (members, case_page):
        assert page.status_code == 200
        html = page.content.decode()
        assert "just now" in html and "0\xa0minutes" not in html and "0 minutes" not in html
