"""The withdrawal page: the player, an organiser of the club, another member, a member
of another club, a visitor, and the wrong method."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Club, Entry, Season
from tests.factories import ClubFactory, UserFactory
from tests.leagues.conftest import make_season, open_fixture


@pytest.fixture
def season(league_club: Club, alice: User, bob: User, carol: User) -> Season:
    """Alice owns the club; bob and carol play."""
    return make_season(league_club, [bob, carol])


@pytest.fixture
def entry(season: Season, bob: User) -> Entry:
    return season.entries.get(user=bob)


def url(entry: Entry) -> str:
    return reverse("leagues:withdraw", kwargs={"pk": entry.pk})


def test_the_player_sees_what_happens_then_withdraws(
    client: Client, bob: User, entry: Entry
) -> None:
    client.force_login(bob)
    page = client.get(url(entry))
    assert page.status_code == 200
    assert "A bot takes your seat" in page.content.decode()
    assert "Why (optional: only the club's organisers read it)" in page.content.decode()

    response = client.post(url(entry), {"reason": ""})

    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:player")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_withdrawing_twice_is_refused_with_a_sentence(
    client: Client, bob: User, entry: Entry
) -> None:
    client.force_login(bob)
    client.post(url(entry))

    response = client.post(url(entry))

    assert response.status_code == 409
    assert "withdrawn from the season already" in response.content.decode()


def test_an_organiser_withdraws_a_player_giving_a_reason(
    client: Client, alice: User, entry: Entry, announced: Callable[[], Any]
) -> None:
    open_fixture(
        entry.season, 1, [entry.user, entry.season.entries.exclude(pk=entry.pk).get().user]
    )
    client.force_login(alice)
    refused = client.post(url(entry), {"reason": ""})
    assert refused.status_code == 400
    assert "Say why" in refused.content.decode()

    with announced():
        response = client.post(url(entry), {"reason": "Left the club."})

    assert response.status_code == 302
    done = client.get(response["Location"])
    assert "Bob has withdrawn" in done.content.decode()


def test_a_reason_too_long_is_refused(client: Client, alice: User, entry: Entry) -> None:
    client.force_login(alice)
    response = client.post(url(entry), {"reason": "x" * 501})
    assert response.status_code == 400
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_another_member_may_not(client: Client, carol: User, entry: Entry) -> None:
    client.force_login(carol)
    assert client.get(url(entry)).status_code == 403
    assert client.post(url(entry), {"reason": "I want his place"}).status_code == 403
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_a_member_of_another_club_may_not(client: Client, entry: Entry) -> None:
    rival = UserFactory(username="rita")
    ClubFactory(name="Other", slug="other", owner=rival)
    client.force_login(rival)
    assert client.get(url(entry)).status_code == 403
    assert client.post(url(entry), {"reason": "no"}).status_code == 403
    # Of a private club they are told nothing at all.
    Club.objects.filter(pk=entry.season.league.club_id).update(is_private=True)
    assert client.get(url(entry)).status_code == 404
    assert client.post(url(entry), {"reason": "no"}).status_code == 404
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_a_visitor_is_sent_to_log_in(client: Client, entry: Entry) -> None:
    response = client.post(url(entry))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_the_wrong_method(client: Client, bob: User, entry: Entry) -> None:
    client.force_login(bob)
    assert client.put(url(entry)).status_code == 405
    assert client.get(reverse("leagues:withdraw", kwargs={"pk": 999999})).status_code == 404
