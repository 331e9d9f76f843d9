"""A vacation during a matchday extends its player's fixture, where the house rules say
so; where they do not, the matchday's close preview names the player who was away."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any

import pytest

from games.models import Table
from games.services.vacations import end_vacation, plan_vacation
from leagues.house_rules import house_rules_in_words
from leagues.models import Fixture, Season
from leagues.services.deadlines import preview_close_matchday
from notifications.models import Notification
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db

Commits = Callable[..., AbstractContextManager[Any]]


def test_a_vacation_during_the_matchday_extends_the_players_fixture(
    running: RunningSeason, django_capture_on_commit_callbacks: Commits
) -> None:
    bob_dave, erin_alice = running.fixtures
    dave = running.players[1]
    deadline = running.matchday.deadline

    with django_capture_on_commit_callbacks(execute=True):
        plan_vacation(dave, 1)

    bob_dave.refresh_from_db()
    assert bob_dave.vacation_days == 1 and bob_dave.due_at == deadline + timedelta(days=1)
    assert Table.objects.get(pk=bob_dave.table_id).settles_at == bob_dave.due_at
    assert Fixture.objects.get(pk=erin_alice.pk).vacation_days == 0
    told = Notification.objects.filter(key__startswith=f"league-vacation:fixture-{bob_dave.pk}")
    assert sorted(n.user.username for n in told) == ["bob", "dave"]
    client = client_as(running.organiser)
    page = client.get("/clubs/tile-club/winter/1/organiser/").content.decode()
    assert "extended 1 day for a vacation" in page
    # Extended for all the days he is away: the close preview has nothing to add.
    assert not any("vacation" in w for w in preview_close_matchday(running.matchday).warnings)

    # He comes back at once: the fixture is due at the matchday's deadline again.
    with django_capture_on_commit_callbacks(execute=True):
        end_vacation(dave)
    bob_dave.refresh_from_db()
    assert bob_dave.vacation_days == 0 and bob_dave.due_at == deadline


def test_without_the_house_rule_the_close_preview_names_the_player_away(
    running: RunningSeason, django_capture_on_commit_callbacks: Commits
) -> None:
    Season.objects.filter(pk=running.season.pk).update(vacations_extend=False)
    bob_dave = running.fixtures[0]
    dave = running.players[1]

    with django_capture_on_commit_callbacks(execute=True):
        plan_vacation(dave, 1)

    bob_dave.refresh_from_db()
    assert bob_dave.vacation_days == 0
    warnings = preview_close_matchday(running.matchday).warnings
    assert (
        f"Dave was away on vacation 1 day of this matchday (the fixture at table "
        f"{bob_dave.table_id}): the house rules do not extend a fixture for a vacation."
    ) in warnings


def test_the_house_rules_say_how_vacations_are_treated(running: RunningSeason) -> None:
    season = running.season
    words = dict(house_rules_in_words(season).lines)
    assert words["Vacations"] == (
        "7 days a season; a vacation during a matchday extends its player's fixture by the "
        "days it overlaps the matchday, at most the matchday's length"
    )
    season.vacations_extend = False
    words = dict(house_rules_in_words(season).lines)
    assert words["Vacations"].endswith(
        "fixtures keep their deadline (the close preview names who was away)"
    )
