"""The queue: who sees which cases, ordered by a priority whose reasons are shown."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture
from moderation.models import Case, Category, Report
from moderation.selectors.queue import is_moderator, open_count, queue
from moderation.services.filing import Filing, file_game_report
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def reasons(user: User) -> list[list[str]]:
    return [[reason.text for reason in entry.reasons] for entry in queue(user)]


def test_a_clubs_moderator_sees_its_cases_and_a_site_moderator_all(
    league_game: Game,
    casual_game: Game,
    bob: User,
    alice: User,
    club_moderator: User,
    site_moderator: User,
) -> None:
    league = file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused.")).case
    casual = file_game_report(casual_game.pk, alice, Filing(Category.BUG, "Refused.")).case

    assert [entry.case for entry in queue(club_moderator)] == [league]
    assert {entry.case for entry in queue(site_moderator)} == {league, casual}
    assert open_count(club_moderator) == 1
    assert open_count(site_moderator) == 2
    outsider = UserFactory()
    assert not is_moderator(outsider)
    assert queue(outsider) == []
    assert is_moderator(club_moderator)
    assert is_moderator(site_moderator)


def test_the_queue_is_ordered_by_priority_and_shows_its_reasons(
    running: RunningSeason,
    league_game: Game,
    casual_game: Game,
    bob: User,
    dave: User,
    alice: User,
    site_moderator: User,
) -> None:
    other = file_game_report(league_game.pk, bob, Filing(Category.OTHER, "Odd.")).case
    file_game_report(league_game.pk, dave, Filing(Category.BUG, "Refused."))
    file_game_report(league_game.pk, bob, Filing(Category.BUG, "Mine too."))
    casual = file_game_report(casual_game.pk, alice, Filing(Category.BUG, "Refused.")).case

    entries = queue(site_moderator)

    # Two filers and a matchday closing weigh more than a game still being played; "other"
    # is the least severe.
    assert [entry.case.category for entry in entries] == ["bug", "bug", "other"]
    assert entries[1].case == casual
    assert entries[-1].case == other
    league_bug = [reason.text for reason in entries[0].reasons]
    assert "A bug: my move was refused or went wrong (severity 5 of 6)" in league_bug
    assert "2 filers" in league_bug
    assert any(text.startswith("Its matchday closes in 1") for text in league_bug)
    assert "The game is still being played" in [reason.text for reason in entries[1].reasons]
    assert entries[0].priority > entries[1].priority > entries[2].priority
    assert entries[0].priority == sum(reason.points for reason in entries[0].reasons)


def test_age_and_a_discredited_filer_show_in_the_reasons(
    league_game: Game, bob: User, site_moderator: User
) -> None:
    case = file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused.")).case
    Report.objects.filter(case=case).update(weight=0.5)
    with time_machine.travel(timezone.now() + timedelta(hours=5), tick=False):
        [texts] = reasons(site_moderator)
    assert "Waiting 5\xa0hours" in texts
    assert "1 filer, weighing 0.5 (reports of theirs were dismissed before)" in texts


def test_decided_cases_leave_the_queue(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> None:
    case = file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused.")).case
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    assert queue(club_moderator) == []
    assert open_count(club_moderator) == 0


def test_the_queue_tells_a_moderator_at_the_table_they_may_not_take_it(
    running: RunningSeason, league_game: Game, bob: User
) -> None:
    file_game_report(league_game.pk, bob, Filing(Category.BUG, "Refused."))
    [entry] = queue(running.organiser)
    assert entry.conflicts == [
        "You play in Division 1 of Winter league, season 1, as a party of the case does."
    ]
    assert not entry.may_take(running.organiser)
