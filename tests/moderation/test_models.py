"""The moderation log refuses every change, even by SQL; a case is one per game and
category while open; who moderates a case, and who may not take it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from moderation.models import Case, Category, LogEntry
from moderation.permissions import conflicts
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


@contextmanager
def refused() -> Iterator[None]:
    """The database's triggers refuse what runs inside (in a savepoint, rolled back)."""
    with pytest.raises(ProgrammingError, match="pgtrigger"), transaction.atomic():
        yield


def log_entry(case: Case | None = None) -> LogEntry:
    return LogEntry.objects.create(
        at=timezone.now(), action=LogEntry.Action.FILED, case=case, summary="Filed a report."
    )


@pytest.mark.as_owner  # the owner meets the triggers; the app's role has no right to try
def test_the_log_cannot_be_updated_through_the_orm_or_sql() -> None:
    entry = log_entry()
    with refused():
        LogEntry.objects.filter(pk=entry.pk).update(summary="Nothing happened.")
    with (
        pytest.raises(ProgrammingError, match="pgtrigger"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "UPDATE moderation_logentry SET summary = 'Nothing happened.' WHERE id = %s",
            [entry.pk],
        )
    entry.refresh_from_db()
    assert entry.summary == "Filed a report."


@pytest.mark.as_owner  # the owner meets the triggers; the app's role has no right to try
def test_the_log_cannot_be_deleted_through_the_orm_or_sql() -> None:
    entry = log_entry()
    with refused():
        entry.delete()
    with (
        pytest.raises(ProgrammingError, match="pgtrigger"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM moderation_logentry")
    assert LogEntry.objects.filter(pk=entry.pk).exists()


def test_a_game_has_one_open_case_per_category(
    league_game: Game, league_fixture: Fixture, bob: User, dave: User
) -> None:
    case = open_case(league_game, bob, fixture=league_fixture)
    with pytest.raises(IntegrityError), transaction.atomic():
        open_case(league_game, dave, fixture=league_fixture)
    open_case(league_game, dave, Category.CLOCK, fixture=league_fixture)
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    open_case(league_game, dave, fixture=league_fixture)


def test_the_clubs_moderator_views_and_takes_a_case_of_its_league(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> None:
    case = open_case(league_game, bob, fixture=league_fixture)
    assert club_moderator.has_perm("moderation.view_case", case)
    assert club_moderator.has_perm("moderation.take_case", case)


def test_a_site_moderator_sees_casual_games_and_a_clubs_moderator_does_not(
    casual_game: Game, alice: User, club_moderator: User, site_moderator: User
) -> None:
    case = open_case(casual_game, alice)
    assert site_moderator.has_perm("moderation.take_case", case)
    assert not club_moderator.has_perm("moderation.view_case", case)
    assert not UserFactory().has_perm("moderation.view_case", case)


def test_nobody_takes_a_case_of_a_game_they_sat_at_or_filed(
    running: RunningSeason, league_game: Game, league_fixture: Fixture, bob: User, dave: User
) -> None:
    case = open_case(league_game, bob, fixture=league_fixture)
    # Alice owns the club (so moderates it), but she shares division 1 with bob and dave.
    assert running.organiser.has_perm("moderation.view_case", case)
    assert conflicts(running.organiser, case) == [
        "You play in Division 1 of Winter league, season 1, as a party of the case does."
    ]
    assert not running.organiser.has_perm("moderation.take_case", case)
    assert "You sat at this game's table." in conflicts(dave, case)
    assert "You filed a report in this case." in conflicts(bob, case)


def test_conflicts_read_the_parties_once(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    django_assert_max_num_queries: Any,
) -> None:
    case = Case.objects.select_related("game").get(
        pk=open_case(league_game, bob, fixture=league_fixture).pk
    )
    # Who sat there (seats, occupancy, results), the reports, and the shared division.
    with django_assert_max_num_queries(4):
        assert conflicts(running.organiser, case) == [
            "You play in Division 1 of Winter league, season 1, as a party of the case does."
        ]
