"""Every list page asks as many queries with 10 times the rows on the site as without
them (:func:`tests.pages.flat.assert_flat`): other members' games, tables and notices,
the member's own games beyond what a page shows, open cases, matchdays and results."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from benchmarks import site_rows
from leagues.models import Membership
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason, running
from tests.pages.flat import assert_flat
from tests.pages.growth import more_matchdays, season_url, site_grows

pytestmark = pytest.mark.django_db

__all__ = ["running"]


@pytest.mark.parametrize(
    ("name", "htmx"),
    [
        ("home", False),
        ("games:lobby", False),
        ("games:mine", True),
        ("games:your_move", False),
        ("games:your_move", True),
        ("notifications:list", False),
    ],
)
def test_a_members_pages_ask_as_much_whatever_the_sites_size(
    alice: User, bob: User, carol: User, name: str, htmx: bool
) -> None:
    queries = assert_flat(
        client_as(alice), reverse(name), site_grows(alice, bob, carol), n=3, htmx=htmx
    )
    assert queries < 40


@pytest.mark.parametrize(
    "name",
    ["leagues:season", "leagues:standings", "leagues:standings_csv", "leagues:results_csv"],
)
def test_a_seasons_pages_and_files_ask_as_much_whatever_its_length(
    running: RunningSeason, name: str
) -> None:
    member = running.players[0]
    assert_flat(client_as(member), season_url(running, name), lambda n: more_matchdays(running, n))


def test_the_moderators_queue_asks_as_much_whatever_the_open_cases(
    running: RunningSeason, alice: User, bob: User, dave: User, erin: User
) -> None:
    """Alice owns the club (she moderates it) and plays in its division, as the cases'
    players do: each case's conflicts include the shared division, the longest check."""
    games: list[int] = []

    def grow(n: int) -> None:
        games.extend(site_rows.games_in_play(n, [bob, dave]))
        site_rows.cases(
            n, games[-n:], erin, club=running.club, fixture=running.fixtures[0], accused=dave
        )

    url = reverse("moderation:queue")
    assert_flat(client_as(alice), url, grow)
    page = client_as(alice).get(url).content.decode()
    assert page.count("You play in Division 1 of Winter league, season 1") == 30


def test_a_clubs_members_and_a_members_reports_ask_as_much_whatever_their_number(
    running: RunningSeason, alice: User, bob: User, carol: User
) -> None:
    def grow(n: int) -> None:
        joined = site_rows.members(n, prefix="joined")
        Membership.objects.bulk_create(Membership(club=running.club, user=u) for u in joined)
        site_rows.cases(n, site_rows.games_in_play(n, [bob, carol]), alice)

    client = client_as(alice)
    assert_flat(client, reverse("leagues:members", args=[running.club.slug]), grow, n=4)
    assert_flat(client, reverse("moderation:my_cases"), grow, n=4)
    assert_flat(client, reverse("leagues:clubs"), grow, n=4)
