"""Moderators and filers racing each other: each attempt in its own thread and database
connection, so that the row locks are really contended."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.errors import ModerationError
from moderation.models import Case, Category, LogEntry, Report
from moderation.services import claims
from moderation.services.filing import Filing, file_game_report
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_moderators_claiming_at_once_get_one_claim(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
) -> None:
    case = open_case(league_game, bob, fixture=league_fixture)
    meg = UserFactory(username="meg", display_name="Meg")
    Membership.objects.create(club=running.club, user=meg, role=Role.MODERATOR)

    results = race(
        lambda: claims.claim(case.pk, club_moderator),
        lambda: claims.claim(case.pk, meg),
        refusal=ModerationError,
        name=lambda error: type(error).__name__,
    )

    assert results == ["Conflict", "ok"]
    case.refresh_from_db()
    assert case.claimed_by in (club_moderator, meg)
    assert LogEntry.objects.filter(case=case, action="claimed").count() == 1


def test_two_players_filing_at_once_share_one_case(
    league_game: Game, bob: User, dave: User
) -> None:
    results = race(
        lambda: file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused.")),
        lambda: file_game_report(league_game.pk, dave, Filing(Category.BUG, "Mine too.")),
        refusal=ModerationError,
        name=str,
    )

    assert results == ["ok", "ok"]
    case = Case.objects.get()
    assert Report.objects.filter(case=case).count() == 2
    assert sorted(LogEntry.objects.values_list("action", flat=True)) == ["filed", "joined"]


def test_one_player_filing_twice_at_once_files_once(league_game: Game, bob: User) -> None:
    results = race(
        *[lambda: file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused."))] * 3,
        refusal=ModerationError,
        name=lambda error: type(error).__name__,
    )

    assert results == ["Conflict", "Conflict", "ok"]
    assert Report.objects.count() == 1
