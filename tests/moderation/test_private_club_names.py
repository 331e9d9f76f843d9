"""A private club's name where a moderation page names the club itself: the log (each
entry's club, its suspensions' words, the club filter) and the evidence's "pair's
history in ..." (review wave 3, S6, the same rule as the case pages). Its members read
it (the club's moderator); a site moderator who is no member, and a moderator who left
the club, read "a private club"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Club, Fixture, Membership, Role
from moderation.models import SITE_MODERATORS, Case, Category, LogEntry
from moderation.services import claims
from tests.conftest import client_as
from tests.factories import ClubFactory, UserFactory
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url
from tests.moderation.test_private_club_pages import CLUB, case, private_club

pytestmark = pytest.mark.django_db

__all__ = ["case", "private_club"]

HIDDEN = "a private club"
SUSPENDED = "Dave was suspended from the club Tile Club until 14 December 2026, 12:00."


def suspension_logged(case: Case, by: User) -> LogEntry:
    """A ruling's entry as the log keeps it: its effects in the words of the day."""
    return LogEntry.objects.create(
        at=timezone.now(),
        actor=by,
        action=LogEntry.Action.RULED,
        case=case,
        club_id=case.club_id,
        summary=f"{by} applied a ruling: Suspension (Dave)",
        changes={"effects": [SUSPENDED]},
    )


def read(user: User, path: str) -> str:
    response = client_as(user).get(path)
    assert response.status_code == 200
    return response.content.decode()


def former_moderator(club_moderator: User) -> User:
    """Mo, who claimed the case, left the club; she moderates another, so she still
    reads the log, and her case's entries in it."""
    Membership.objects.filter(user=club_moderator).delete()
    other = ClubFactory(name="Other Club", slug="other-club")
    Membership.objects.create(club=other, user=club_moderator, role=Role.MODERATOR)
    return club_moderator


def former_member(site_moderator: User, club: Club) -> User:
    """A second site moderator, once a member of the club."""
    user = UserFactory(username="sam", display_name="Sam")
    user.groups.add(Group.objects.get(name=SITE_MODERATORS))
    membership = Membership.objects.create(club=club, user=user)
    membership.delete()
    return user


# --- the log ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["site moderator", "former member"])
def test_the_log_names_a_private_club_to_none_but_its_members(
    case: Case, club_moderator: User, site_moderator: User, viewer: str
) -> None:
    claims.claim(case.pk, club_moderator)
    suspension_logged(case, club_moderator)
    reader = site_moderator if viewer == "site moderator" else former_moderator(club_moderator)

    html = read(reader, reverse("moderation:log"))

    assert f"case {case.pk}" in html
    assert CLUB not in html
    assert f" · {HIDDEN}</span>" in html
    assert "Dave was suspended from a private club until 14 December 2026, 12:00." in html


def test_the_log_names_the_club_to_its_moderator(case: Case, club_moderator: User) -> None:
    claims.claim(case.pk, club_moderator)
    suspension_logged(case, club_moderator)

    html = read(club_moderator, reverse("moderation:log"))

    assert f" · {CLUB}</span>" in html
    assert SUSPENDED in html
    assert HIDDEN not in html


def test_the_log_filters_by_no_private_club_a_site_moderator_is_no_member_of(
    case: Case, club_moderator: User, site_moderator: User, private_club: Club
) -> None:
    claims.claim(case.pk, club_moderator)
    url = reverse("moderation:log")

    response = client_as(site_moderator).get(url, {"club": private_club.slug})

    assert response.status_code == 400  # not a choice, as a club that does not exist
    assert CLUB not in response.content.decode()
    assert CLUB in read(club_moderator, url)


# --- the evidence's pair history --------------------------------------------------------


@pytest.fixture
def collusion(private_club: Club, league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    """Bob's report that dave colluded, in their game of the private club's league."""
    dave = league_fixture.seats.get(number=1).entry.user
    return open_case(league_game, bob, Category.COLLUSION, fixture=league_fixture, accused=dave)


@pytest.mark.parametrize("viewer", ["site moderator", "former member"])
def test_the_pairs_history_names_no_private_club_to_a_site_moderator_outside_it(
    collusion: Case, site_moderator: User, private_club: Club, viewer: str
) -> None:
    reader = (
        site_moderator
        if viewer == "site moderator"
        else former_member(site_moderator, private_club)
    )
    claim(collusion, reader)

    html = read(reader, evidence_url(collusion))

    assert f"The pair's history in {HIDDEN}" in html
    assert CLUB not in html


def test_the_pairs_history_names_the_club_to_its_moderator(
    collusion: Case, club_moderator: User
) -> None:
    claim(collusion, club_moderator)

    html = read(club_moderator, evidence_url(collusion))

    assert f"The pair's history in {CLUB}" in html
