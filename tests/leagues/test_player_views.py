"""A member's league page and their calendar address: the player, another member, a
member of another club, a visitor, and the wrong method."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import User
from games.models import Vacation
from leagues.models import CalendarToken, Club
from leagues.services.calendar import calendar_token
from leagues.services.withdrawals import withdraw
from tests.factories import UserFactory
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

PAGE = reverse("leagues:player")
RENEW = reverse("leagues:renew_calendar")


def test_the_player_sees_seasons_fixtures_vacation_days_and_withdraw(
    league_club: Club, alice: User, bob: User, carol: User, alice_client: Client
) -> None:
    season = make_season(league_club, [alice, bob, carol], vacation_days=5)
    fixture = open_fixture(season, 1, [alice, bob])
    scheduled_fixture(season, 2, [carol, alice])
    now = timezone.now()
    Vacation.objects.create(user=alice, starts_at=now, ends_at=now + timedelta(days=2))

    page = alice_client.get(PAGE).content.decode()

    assert "League 1, season 1" in page
    assert "Matchday 1" in page and "vs Bob" in page
    assert "Matchday 2" in page and "vs Carol" in page
    assert reverse("games:current", kwargs={"pk": fixture.table_id}) in page
    assert "<strong>2</strong> of 5 vacation days used" in page
    assert "On vacation until" in page
    assert reverse("leagues:withdraw", kwargs={"pk": season.entries.get(user=alice).pk}) in page
    assert "Get my calendar address" in page


def test_a_player_sees_the_matchdays_they_sit_out(
    league_club: Club, alice: User, bob: User, carol: User, client: Client
) -> None:
    season = make_season(league_club, [alice, bob, carol])
    open_fixture(season, 1, [alice, bob])
    scheduled_fixture(season, 2, [carol, alice])

    pages = {}
    for user in (alice, bob, carol):
        client.force_login(user)
        pages[user.username] = client.get(PAGE).content.decode()

    assert "A bye on matchday 1: no fixture for you, nothing to play." in pages["carol"]
    assert "A bye on matchday 2:" in pages["bob"]
    assert "A bye" not in pages["alice"]


def test_another_member_sees_only_their_own(
    league_club: Club, alice: User, bob: User, carol: User, dave: User, client: Client
) -> None:
    make_season(league_club, [alice, bob])
    client.force_login(dave)

    page = client.get(PAGE).content.decode()

    assert "No seasons yet" in page
    assert "League 1" not in page


def test_a_member_of_another_club_sees_only_their_own(
    league_club: Club, alice: User, bob: User, client: Client
) -> None:
    make_season(league_club, [alice, bob])
    client.force_login(UserFactory(username="rita"))
    page = client.get(PAGE)
    assert page.status_code == 200
    assert "League 1" not in page.content.decode()


def test_the_calendar_address_is_made_then_renewed(alice: User, alice_client: Client) -> None:
    response = alice_client.post(RENEW)
    assert response.status_code == 302
    first = CalendarToken.objects.get(user=alice).token
    assert first in alice_client.get(PAGE).content.decode()

    alice_client.post(RENEW)

    second = CalendarToken.objects.get(user=alice).token
    page = alice_client.get(PAGE).content.decode()
    assert second != first and second in page and first not in page


def test_a_visitor_is_sent_to_log_in(client: Client, db: None) -> None:
    for response in (client.get(PAGE), client.post(RENEW)):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not CalendarToken.objects.exists()


def test_the_wrong_methods(alice_client: Client) -> None:
    assert alice_client.post(PAGE).status_code == 405
    assert alice_client.get(RENEW).status_code == 405
    assert not CalendarToken.objects.exists()


def test_after_withdrawing_the_season_shows_it_without_play_links(
    league_club: Club, alice: User, bob: User, alice_client: Client
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = open_fixture(season, 1, [alice, bob])
    entry = season.entries.get(user=alice)
    withdraw(entry, alice)

    page = alice_client.get(PAGE).content.decode()

    assert "Withdrawn" in page
    assert reverse("games:current", kwargs={"pk": fixture.table_id}) not in page
    assert reverse("leagues:withdraw", kwargs={"pk": entry.pk}) not in page
    assert "vacation days used" not in page


NEW_PASSWORD = "a-new-secret-2026"


def _feed_status(client: Client, token: str) -> int:
    return client.get(reverse("leagues:calendar_feed", kwargs={"token": token})).status_code


def test_changing_the_password_renews_the_calendar_address(
    alice: User, alice_client: Client
) -> None:
    alice.set_password("the-old-secret-1")
    alice.save()
    alice_client.force_login(alice)
    old = calendar_token(alice)

    response = alice_client.post(
        reverse("password_change"),
        {
            "old_password": "the-old-secret-1",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )

    assert response.status_code == 302
    new = CalendarToken.objects.get(user=alice).token
    assert new != old
    assert _feed_status(Client(), old) == 404
    assert _feed_status(Client(), new) == 200


def test_resetting_the_password_renews_the_calendar_address(alice: User, client: Client) -> None:
    old = calendar_token(alice)
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    link = reverse(
        "password_reset_confirm",
        kwargs={"uidb64": uid, "token": default_token_generator.make_token(alice)},
    )
    form = client.get(link)["Location"]

    response = client.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 302
    assert CalendarToken.objects.get(user=alice).token != old
    assert _feed_status(client, old) == 404


def test_a_member_without_a_calendar_address_is_given_none_by_a_new_password(
    alice: User, alice_client: Client
) -> None:
    alice.set_password("the-old-secret-1")
    alice.save()
    alice_client.force_login(alice)
    alice_client.post(
        reverse("password_change"),
        {
            "old_password": "the-old-secret-1",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert not CalendarToken.objects.filter(user=alice).exists()
