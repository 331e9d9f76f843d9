"""Words the league walk found wrong: a fixture's table names its league, not a member
who set it up, the history names a fixture by its table, and a league counts the
players of a season who withdrew from it; a finished fixture offers its table, not
"Play"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from leagues.models import Entry, Fixture
from leagues.selectors.history import season_history
from leagues.selectors.seasons import league_seasons
from leagues.services.organiser import reschedule_fixture
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def test_a_fixture_table_is_set_up_by_its_league(running: RunningSeason, client: Client) -> None:
    fixture = running.fixtures[0]
    # What opening the matchday writes on its tables (the fixture here was made directly).
    Table.objects.filter(pk=fixture.table_id).update(
        belongs_to="Winter league, season 1", belongs_to_link="/clubs/tile-club/winter/1/"
    )
    client.force_login(running.players[0])

    html = client.get(reverse("games:table", kwargs={"pk": fixture.table_id})).text

    lead = html[html.index('<p class="lead">') :]
    lead = lead[: lead.index("</p>")]
    assert "set up by its league" in lead and "set up by Bob" not in lead
    eyebrow = html[html.index('<p class="eyebrow">') :]
    eyebrow = eyebrow[: eyebrow.index("</p>")]
    assert "Winter league" in eyebrow and ">Lobby<" not in eyebrow


def test_the_history_names_a_fixture_by_its_table(running: RunningSeason) -> None:
    fixture = running.fixtures[0]
    deadline = running.matchday.deadline + timedelta(hours=5)
    reschedule_fixture(fixture, deadline, running.organiser, "Bob travels.")

    items = [i for i in season_history(running.season) if i.why == "Bob travels."]

    assert [i.what for i in items] == [f"Fixture at table {fixture.table_id}"]


def test_the_league_counts_a_player_who_withdrew_during_the_season(
    running: RunningSeason,
) -> None:
    bob = running.entries[0]
    Entry.objects.filter(pk=bob.pk).update(status=Entry.Status.WITHDRAWN)
    # One who left before the season started played in no division: not counted.
    late = UserFactory(username="late")
    Entry.objects.create(season=running.season, user=late, status=Entry.Status.WITHDRAWN)

    (line,) = league_seasons(running.season.league)

    assert line.players == len(running.entries)


def test_a_finished_fixture_offers_its_table_not_play(
    running: RunningSeason, client: Client
) -> None:
    done, open_ = running.fixtures[0], running.fixtures[1]
    Fixture.objects.filter(pk=done.pk).update(status=Fixture.Status.FINISHED)
    client.force_login(running.players[0])  # bob plays the finished one

    html = client.get(reverse("leagues:season", args=["tile-club", "winter", 1])).text

    table = reverse("games:table", kwargs={"pk": done.table_id})
    assert (
        f'<a class="button button-small button-quiet" href="{table}">Table {done.table_id}</a>'
        in html
    )
    assert f'href="{table}">Play</a>' not in html  # bob's only fixture is done
    client.force_login(running.organiser)  # alice plays the open one
    html = client.get(reverse("leagues:season", args=["tile-club", "winter", 1])).text
    assert f'href="{reverse("games:table", kwargs={"pk": open_.table_id})}">Play</a>' in html


def test_a_season_of_one_division_is_named_without_it(running: RunningSeason) -> None:
    # The conflict of a moderator read "You play in Division of Winter league, season 1".
    only = running.division
    only.name = "Division"
    assert str(only) == str(running.season)
    only.name = "Division 2"
    assert str(only) == f"Division 2 of {running.season}"
