"""What one club and one member may have or do: leagues and open seasons per club,
requests to join per member and per club, invitations per club and their e-mails
(security-wave2 findings 7, 9 and 10)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leagues.errors import Conflict, TooMany
from leagues.forms.leagues import LeagueForm
from leagues.models import Club, ClubInvitation, JoinRequest, League, Pending, Season
from leagues.notices import LeagueNotice
from leagues.services import clubs
from leagues.services.leagues import create_league
from leagues.services.seasons import open_season
from notifications.models import Notification
from notifications.services import mail
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.test_views_seasons import league_form

pytestmark = pytest.mark.django_db


def club_url(name: str, club: Club, **kwargs: object) -> str:
    return reverse(f"leagues:{name}", kwargs={"slug": club.slug, **kwargs})


def league_values(league: League, name: str) -> dict[str, Any]:
    return {"name": name, "description": "", **league.house_rules()}


# --- requests to join (finding 9) ------------------------------------------------------


def test_forty_requests_and_withdrawals_make_one_request_and_one_notice(
    club: Club, alice: User, bob: User
) -> None:
    client = client_as(bob)
    answers = []
    for number in range(40):
        answers.append(client.post(club_url("request_to_join", club), {"message": f"m{number}"}))
        client.post(club_url("withdraw_request", club))

    assert answers[0].status_code == 302
    assert {answer.status_code for answer in answers[1:]} == {429}
    assert "You asked to join this club less than a day ago" in answers[1].text
    assert JoinRequest.objects.filter(club=club, user=bob).count() == 1
    assert Notification.objects.filter(user=alice, kind=LeagueNotice.CLUB_NEWS).count() == 1


def test_a_member_asks_again_the_next_day_whatever_became_of_the_last_request(
    club: Club, alice: User, bob: User
) -> None:
    clubs.request_to_join(club, bob)
    clubs.withdraw_request(club, bob)
    with pytest.raises(TooMany):
        clubs.request_to_join(club, bob)

    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        clubs.request_to_join(club, bob)
    assert JoinRequest.objects.filter(club=club, user=bob, status=Pending.PENDING).count() == 1


@override_settings(LEAGUES_JOIN_REQUESTS_PER_HOUR=3)
def test_a_member_asks_to_join_a_few_clubs_an_hour(bob: User) -> None:
    public = [clubs.create_club(UserFactory(), f"Club {number}") for number in range(5)]
    for found in public[:3]:
        clubs.request_to_join(found, bob)

    with pytest.raises(TooMany, match="You have asked to join 3 clubs in the last hour"):
        clubs.request_to_join(public[3], bob)
    assert JoinRequest.objects.filter(user=bob).count() == 3

    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        clubs.request_to_join(public[3], bob)


@override_settings(LEAGUES_PENDING_REQUESTS_PER_CLUB=2)
def test_a_club_has_a_bounded_queue_of_requests_waiting(club: Club, alice: User) -> None:
    first, second, third = UserFactory(), UserFactory(), UserFactory()
    clubs.request_to_join(club, first)
    clubs.request_to_join(club, second)

    with pytest.raises(Conflict, match="more requests to join waiting"):
        clubs.request_to_join(club, third)
    response = client_as(third).post(club_url("request_to_join", club))
    assert response.status_code == 409
    assert "more requests to join waiting" in response.text

    clubs.decline_request(club, alice, JoinRequest.objects.get(user=first).pk)
    clubs.request_to_join(club, third)


def test_the_request_form_states_the_limits(club: Club, bob: User) -> None:
    page = client_as(bob).get(club_url("club", club))
    assert "You may ask to join a club once a day, and at most 5 clubs an hour." in page.text


# --- invitations (finding 10) ----------------------------------------------------------


def test_ten_invitations_and_withdrawals_send_one_email(
    club: Club, alice: User, bob: User, mailoutbox: list[Any]
) -> None:
    client = client_as(alice)
    notices = Notification.objects.filter(user=bob, kind=LeagueNotice.CLUB_INVITATION)
    for _ in range(10):
        assert client.post(club_url("invite", club), {"username": "bob"}).status_code == 302
        # The mail task runs at once, before the invitation is withdrawn.
        mail.send_notification_email(notices.latest("pk").pk)
        invitation = ClubInvitation.objects.get(club=club, user=bob, status=Pending.PENDING)
        client.post(club_url("withdraw_invitation", club, pk=invitation.pk))

    assert notices.count() == 10  # each invitation is in the app
    assert len(mailoutbox) == 1


def test_an_invitation_the_next_day_is_emailed_again(
    club: Club, alice: User, bob: User, mailoutbox: list[Any]
) -> None:
    clubs.invite(club, alice, "bob")
    clubs.decline_invitation(club, bob)
    clubs.invite(club, alice, "bob")  # the same day: in the app only
    clubs.decline_invitation(club, bob)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        clubs.invite(club, alice, "bob")

    notices = Notification.objects.filter(user=bob, kind=LeagueNotice.CLUB_INVITATION)
    emailed = [notice for notice in notices if notice.email != Notification.Email.OFF]
    assert len(emailed) == 2


@override_settings(LEAGUES_INVITATIONS_PER_CLUB_PER_HOUR=3)
def test_a_club_sends_a_few_invitations_an_hour(club: Club, alice: User) -> None:
    for user in UserFactory.create_batch(3):
        clubs.invite(club, alice, user.username)
    late = UserFactory()

    response = client_as(alice).post(club_url("invite", club), {"username": late.username})

    assert response.status_code == 429
    assert "A club sends at most 3 invitations an hour" in response.text
    assert not ClubInvitation.objects.filter(user=late).exists()
    with time_machine.travel(timezone.now() + timedelta(hours=1, minutes=1)):
        clubs.invite(club, alice, late.username)


def test_the_members_page_states_the_invitations_limit(club: Club, alice: User) -> None:
    page = client_as(alice).get(club_url("members", club))
    assert "A club sends at most 30 invitations an hour." in page.text


# --- leagues and seasons per club (finding 7) ------------------------------------------


@override_settings(LEAGUES_PER_CLUB=2)
def test_a_club_has_a_bounded_number_of_leagues(club: Club, alice: User, league: League) -> None:
    create_league(club, alice, "spring", league_values(league, "Spring"))

    with pytest.raises(Conflict, match="A club has at most 2 leagues"):
        create_league(club, alice, "summer", league_values(league, "Summer"))
    assert League.objects.filter(club=club).count() == 2
    assert "A club has at most 2 leagues." in LeagueForm().fields["slug"].help_text


@override_settings(LEAGUES_PER_CLUB=1)
def test_the_new_league_page_says_the_club_has_its_leagues(
    club: Club, alice: User, league: League
) -> None:
    new = reverse("leagues:new_league", kwargs={"club": club.slug})
    assert "A club has at most 1 league." in client_as(alice).get(new).text

    response = client_as(alice).post(new, league_form())

    assert response.status_code == 409
    assert "A club has at most 1 league, and this one has them all" in response.text
    assert League.objects.filter(club=club).count() == 1


@override_settings(LEAGUES_OPEN_SEASONS_PER_CLUB=1)
def test_a_club_runs_a_bounded_number_of_seasons_at_once(
    club: Club, alice: User, league: League
) -> None:
    other = create_league(club, alice, "spring", league_values(league, "Spring"))
    open_season(league, alice)
    page = reverse("leagues:league", kwargs={"club": club.slug, "league": other.slug})
    assert "A club runs at most 1 season at a time" in client_as(alice).get(page).text

    with pytest.raises(Conflict, match="A club runs at most 1 season at a time"):
        open_season(other, alice)
    response = client_as(alice).post(f"{page}seasons/new/", {})

    assert response.status_code == 409
    assert "finish one before opening another" in response.text
    assert Season.objects.filter(league__club=club).count() == 1
