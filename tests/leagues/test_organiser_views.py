"""The organisers' pages: for the organiser, a member, another club's member, a visitor,
and the wrong method."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Club, Fixture, Matchday, Membership
from tests.conftest import client_as
from tests.factories import ClubFactory, UserFactory
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db

SEASON = ["tile-club", "winter", 1]


def url(name: str, *more: int) -> str:
    return reverse(f"leagues:{name}", args=[*SEASON, *more])


@pytest.fixture
def outsider(db: None) -> User:
    """A member of another club only."""
    user = UserFactory(username="otto")
    ClubFactory(name="Other", slug="other", owner=user)
    return user


def test_the_organiser_sees_the_matchday_its_fixtures_and_players(
    running: RunningSeason, olga: User
) -> None:
    # Olga plays nowhere: alice is offered no tool over erin-alice (leagues.conflicts).
    response = client_as(olga).get(url("organiser"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Matchday 1" in page and "Close matchday" in page and "Dave" in page
    # Each player can be withdrawn from here (the withdrawal page asks for a reason).
    for entry in running.entries:
        assert reverse("leagues:withdraw", args=[entry.pk]) in page
    # A season of one division does not name it on every line ("Dave, Erin · Division 1").
    assert "· Division 1" not in page


def test_the_lines_name_their_division_when_there_are_several(
    running: RunningSeason, olga: User
) -> None:
    running.division.season.divisions.create(level=2, name="Division 2")
    running.entries[0].division = running.division  # already; another entry moves down
    moved = running.entries[-1]
    moved.division = running.division.season.divisions.get(level=2)
    moved.save(update_fields=["division"])
    page = client_as(olga).get(url("organiser")).content.decode()
    assert "· Division 1" in page and "· Division 2" in page


def test_the_close_preview_then_the_confirmation_closes_it(
    running: RunningSeason, olga: User
) -> None:
    client = client_as(olga)
    preview = client.get(url("close_matchday", 1), headers={"HX-Request": "true"})
    assert preview.status_code == 200
    assert b"scored as it stands" in preview.content and b"<html" not in preview.content

    response = client.post(url("close_matchday", 1), {"reason": "All agreed."})

    assert response.status_code == 302
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.CLOSED


def test_a_close_without_reason_is_refused_and_changes_nothing(running: RunningSeason) -> None:
    response = client_as(running.organiser).post(url("close_matchday", 1), {"reason": ""})
    assert response.status_code == 400
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN


def test_the_deadline_is_extended_and_a_bad_one_refused(running: RunningSeason, olga: User) -> None:
    client = client_as(olga)  # alice plays in the matchday (leagues.conflicts)
    old = running.matchday.deadline
    earlier = (old - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    refused = client.post(url("extend_deadline", 1), {"deadline": earlier, "reason": "x"})
    assert refused.status_code == 400
    later = (old + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    done = client.post(url("extend_deadline", 1), {"deadline": later, "reason": "Snow."})
    assert done.status_code == 302
    assert Matchday.objects.get(pk=running.matchday.pk).deadline > old


def test_a_fixture_is_rescheduled(running: RunningSeason) -> None:
    fixture = running.fixtures[0]
    later = (running.matchday.deadline + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = client_as(running.organiser).post(
        url("reschedule", fixture.pk), {"deadline": later, "reason": "Travel."}
    )
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture.pk).deadline is not None


def test_a_substitute_is_seated_and_an_unknown_name_refused(running: RunningSeason) -> None:
    client = client_as(running.organiser)
    entry = running.entries[0]
    unknown = client.post(url("replace_player", entry.pk), {"username": "nobody", "reason": "x"})
    assert unknown.status_code == 400
    frank = UserFactory(username="frank", display_name="Frank Ocean")
    Membership.objects.create(club=running.club, user=frank)
    done = client.post(url("replace_player", entry.pk), {"username": "FRANK", "reason": "Moved."})
    assert done.status_code == 302
    entry.refresh_from_db()
    assert entry.substitute == frank
    # The organiser is told in display names, as every page names members.
    told = [str(message) for message in get_messages(done.wsgi_request)]
    assert told == [f"Frank Ocean plays for {entry.user} from now on."]


def test_the_results_page_shows_the_games_of_the_fixture(running: RunningSeason) -> None:
    response = client_as(running.organiser).get(url("adjust_score", running.fixtures[0].pk))
    assert response.status_code == 200
    assert b"No game of this fixture is finished yet" in response.content


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("organiser", "get"),
        ("close_matchday", "get"),
        ("close_matchday", "post"),
        ("extend_deadline", "post"),
    ],
)
def test_a_member_is_forbidden_and_changes_nothing(
    running: RunningSeason, name: str, method: str
) -> None:
    target = url(name) if name == "organiser" else url(name, 1)
    client = client_as(running.players[0])  # bob, a member
    response = getattr(client, method)(target, {"reason": "x"} if method == "post" else None)
    assert response.status_code == 403
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN


def test_another_clubs_member_is_forbidden_a_public_club_and_not_told_of_a_private_one(
    running: RunningSeason, outsider: User
) -> None:
    client = client_as(outsider)
    assert client.get(url("organiser")).status_code == 403
    Club.objects.filter(pk=running.club.pk).update(is_private=True)
    assert client.get(url("organiser")).status_code == 404
    assert client.get(url("history")).status_code == 404


def test_a_visitor_is_sent_to_log_in(running: RunningSeason, client: Client) -> None:
    response = client.get(url("organiser"))
    assert response.status_code == 302 and "/login" in response["Location"]
    assert client.post(url("close_matchday", 1), {"reason": "x"}).status_code == 302
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN


def test_the_wrong_method_is_refused(running: RunningSeason) -> None:
    client = client_as(running.organiser)
    assert client.get(url("extend_deadline", 1)).status_code == 405
    assert client.post(url("organiser")).status_code == 405
    assert client.post(url("history")).status_code == 405


def test_an_unknown_matchday_or_fixture_is_not_found(running: RunningSeason) -> None:
    client = client_as(running.organiser)
    assert client.get(url("close_matchday", 9)).status_code == 404
    assert client.post(url("reschedule", 10**9), {}).status_code == 404
