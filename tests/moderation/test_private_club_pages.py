"""A private club's league, season, matchday and name on the moderation pages (security
review wave 3, S6): read only by whoever sees the table in full (the club's members).
A site moderator who is no member, and a party who left the club, read "a private club's
fixture" on the queue, the case, the member record's timeouts and the outcome."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Game, Table
from leagues.models import Club, Fixture
from leagues.services import clubs
from moderation.models import Case, Category, Ruling
from tests.conftest import client_as
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import apply_ruling
from tests.moderation.test_member_record import time_out_twice

pytestmark = pytest.mark.django_db

HIDDEN = "a private club&#x27;s fixture"
LEAGUE = "Winter league"
CLUB = "Tile Club"


@pytest.fixture
def private_club(running: RunningSeason) -> Club:
    """``running``'s club made private, its fixtures named as opening a matchday names them."""
    club = running.club
    Table.objects.filter(fixture__matchday=running.matchday).update(
        belongs_to=f"{LEAGUE}, season 1, matchday 1", belongs_to_link="/clubs/tile-club/"
    )
    return clubs.update_club(
        club, running.organiser, name=club.name, description="", is_private=True
    )


@pytest.fixture
def case(private_club: Club, league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    """Bob's report of dave in their game of the private club's league."""
    dave = league_fixture.seats.get(number=1).entry.user
    return open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=dave)


def read(user: User, *paths: str) -> str:
    pages = [client_as(user).get(path) for path in paths]
    assert [page.status_code for page in pages] == [200] * len(paths)
    return "".join(page.content.decode() for page in pages)


def test_a_site_moderator_who_is_no_member_reads_neither_league_nor_club(
    case: Case, league_fixture: Fixture, site_moderator: User
) -> None:
    assert league_fixture.table is not None
    time_out_twice(current_game(league_fixture.table))
    dave = case.accused
    assert dave is not None

    html = read(
        site_moderator,
        reverse("moderation:queue"),
        reverse("moderation:case", args=[case.pk]),
        reverse("moderation:member", args=[dave.username]),
    )

    assert LEAGUE not in html and CLUB not in html
    assert html.count(HIDDEN) >= 3  # the queue, the case, a timeout


def test_the_clubs_moderator_reads_the_league(case: Case, club_moderator: User) -> None:
    html = read(
        club_moderator, reverse("moderation:queue"), reverse("moderation:case", args=[case.pk])
    )

    assert html.count(LEAGUE) == 2 and HIDDEN not in html


def test_a_party_who_left_the_club_reads_neither_on_the_case_nor_the_outcome(
    case: Case, private_club: Club, bob: User, club_moderator: User
) -> None:
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note="Nothing wrong.")
    private_club.memberships.filter(user=bob).delete()

    html = read(
        bob,
        reverse("moderation:case", args=[case.pk]),
        reverse("moderation:appeal_new", args=[case.pk]),
    )

    assert LEAGUE not in html and CLUB not in html
    assert html.count(HIDDEN) == 2


def test_a_party_still_in_the_club_reads_its_name_on_the_outcome(
    case: Case, bob: User, club_moderator: User
) -> None:
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note="Nothing wrong.")

    assert CLUB in read(bob, reverse("moderation:appeal_new", args=[case.pk]))
