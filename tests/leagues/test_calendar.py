"""A member's calendar feed: its secret address, and the events it lists."""

from __future__ import annotations

from datetime import datetime, timedelta

import icalendar
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leagues.models import CalendarToken, Club, Entry, League, Season
from leagues.services.calendar import calendar_token, renew_calendar_token
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture


def feed(client: Client, token: str) -> icalendar.Calendar:
    response = client.get(reverse("leagues:calendar_feed", kwargs={"token": token}))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def seconds(moment: datetime) -> datetime:
    """``moment`` as iCalendar keeps it: to the second."""
    return moment.replace(microsecond=0)


def events(calendar: icalendar.Calendar) -> dict[str, icalendar.Event]:
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_the_feed_lists_each_fixture_of_the_running_seasons(
    league_club: Club, alice: User, bob: User, carol: User, dave: User, client: Client
) -> None:
    season = make_season(league_club, [alice, bob, carol, dave], seats=3)
    playing = open_fixture(season, 1, [alice, bob, carol])
    later = scheduled_fixture(season, 2, [dave, alice])
    scheduled_fixture(season, 3, [bob, carol, dave])  # not alice's

    listed = events(feed(client, calendar_token(alice)))

    assert sorted(listed) == [
        "League 1, season 1: matchday 1 opens",
        "League 1, season 1: matchday 1 vs Bob, Carol",
        "League 1, season 1: matchday 2 opens",
        "League 1, season 1: matchday 2 vs Dave",
    ]
    first = listed["League 1, season 1: matchday 1 vs Bob, Carol"]
    assert first.decoded("dtend") == seconds(playing.matchday.deadline)
    assert str(first["url"]).endswith(f"/games/tables/{playing.table_id}/current/")
    second = listed["League 1, season 1: matchday 2 vs Dave"]
    assert second.decoded("dtend") == seconds(later.matchday.deadline)
    assert str(second["url"]).endswith(f"/clubs/me/leagues/#season-{season.pk}")
    assert len({str(event["uid"]) for event in listed.values()}) == 4


def test_a_fixture_is_a_deadline_and_an_opening_not_a_week_long_block(
    league_club: Club, alice: User, bob: User, carol: User, dave: User, client: Client
) -> None:
    # Walk W24: each fixture was one event from the opening to the deadline (7 days).
    season = make_season(league_club, [alice, bob, carol, dave], seats=3)
    playing = open_fixture(season, 1, [alice, bob, carol])

    listed = events(feed(client, calendar_token(alice)))

    due = listed["League 1, season 1: matchday 1 vs Bob, Carol"]
    opens = listed["League 1, season 1: matchday 1 opens"]
    deadline, opening = seconds(playing.matchday.deadline), seconds(playing.matchday.opens_at)
    assert (due.decoded("dtstart"), due.decoded("dtend")) == (
        deadline - timedelta(minutes=30),
        deadline,
    )
    assert (opens.decoded("dtstart"), opens.decoded("dtend")) == (
        opening,
        opening + timedelta(minutes=30),
    )
    assert str(opens["url"]) == str(due["url"])
    assert str(opens["uid"]) != str(due["uid"])


def test_a_rescheduled_fixture_ends_at_its_own_deadline(
    league_club: Club, alice: User, bob: User, client: Client
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = scheduled_fixture(season, 1, [alice, bob])
    fixture.deadline = fixture.matchday.deadline + timedelta(days=2)
    fixture.save()

    event = events(feed(client, calendar_token(bob)))["League 1, season 1: matchday 1 vs Alice"]

    assert event.decoded("dtend") == seconds(fixture.deadline)


def test_the_feed_lists_registration_deadlines_of_the_members_clubs(
    league_club: Club, alice: User, bob: User, client: Client
) -> None:
    closes = timezone.now() + timedelta(days=3)
    league = League.objects.create(
        club=league_club, name="Spring", slug="spring", table_settings={}
    )
    Season.objects.create(league=league, number=1, registration_closes_at=closes, table_settings={})
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    elsewhere = League.objects.create(club=other, name="Far", slug="far", table_settings={})
    Season.objects.create(
        league=elsewhere, number=1, registration_closes_at=closes, table_settings={}
    )

    listed = events(feed(client, calendar_token(bob)))

    assert list(listed) == ["Spring: registration for season 1 closes"]
    assert listed["Spring: registration for season 1 closes"].decoded("dtstart") == seconds(closes)


def test_withdrawn_and_finished_seasons_are_left_out(
    league_club: Club, alice: User, bob: User, client: Client
) -> None:
    withdrawn = make_season(league_club, [alice, bob])
    scheduled_fixture(withdrawn, 1, [alice, bob])
    Entry.objects.filter(season=withdrawn, user=alice).update(status=Entry.Status.WITHDRAWN)
    finished = make_season(league_club, [alice, bob])
    scheduled_fixture(finished, 1, [alice, bob])
    Season.objects.filter(pk=finished.pk).update(status=Season.Status.FINISHED)

    assert events(feed(client, calendar_token(alice))) == {}
    assert len(events(feed(client, calendar_token(bob)))) == 2  # its deadline and opening


def test_a_wrong_token_is_not_found(alice: User, client: Client) -> None:
    calendar_token(alice)
    url = reverse("leagues:calendar_feed", kwargs={"token": "x" * 32})
    assert client.get(url).status_code == 404
    assert client.get("/clubs/calendar/short.ics").status_code == 404
    assert client.get(f"/clubs/calendar/{'y' * 5000}.ics").status_code == 404


def test_a_new_token_voids_the_old_address(alice: User, client: Client) -> None:
    old = calendar_token(alice)
    assert calendar_token(alice) == old

    new = renew_calendar_token(alice)

    assert new != old
    assert CalendarToken.objects.get(user=alice).token == new
    assert client.get(reverse("leagues:calendar_feed", kwargs={"token": old})).status_code == 404
    feed(client, new)


def test_the_feed_is_only_read(alice: User, client: Client) -> None:
    url = reverse("leagues:calendar_feed", kwargs={"token": calendar_token(alice)})
    assert client.post(url).status_code == 405
