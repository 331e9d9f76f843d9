"""The leagues announce their own facts after commit, and the standings follow them: each
fact refreshes the cached standings, once per season per transaction, and nothing when
the transaction rolls back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.db import transaction

from accounts.models import User
from leagues import signals
from leagues.models import Club, Entry, Fixture, Membership, Role, ScoreAdjustment, Season
from leagues.selectors.standings import cache_key, season_standings
from leagues.services.adjustments import propose
from leagues.services.deadlines import close_matchday, settle_fixture
from leagues.services.organiser import extend_deadline, replace_player, reschedule_fixture
from leagues.services.season_end import close_season
from leagues.services.seasons import season_path
from leagues.services.withdrawals import withdraw
from notifications.models import Notification
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, make_season, open_fixture, scheduled_fixture
from tests.leagues.test_adjustment_views import finished_game

pytestmark = pytest.mark.django_db

Announced = Callable[[], Any]


@pytest.fixture
def refreshes() -> Iterator[list[int]]:
    """The seasons :data:`leagues.signals.season_changed` is sent for, in order."""
    sent: list[int] = []

    def count(sender: type, season_id: int, **kwargs: Any) -> None:
        sent.append(season_id)

    signals.season_changed.connect(count, dispatch_uid="test-refreshes")
    yield sent
    signals.season_changed.disconnect(dispatch_uid="test-refreshes")


def _rows(season: Season) -> dict[str, Any]:
    return {
        row.name: row for division in season_standings(season) for row in division.standings.rows
    }


def _cached(season: Season) -> bool:
    return cache.get(cache_key(season.pk)) is not None


def test_a_withdrawal_shows_in_the_cached_standings_at_once(
    league_club: Club, alice: User, bob: User, announced: Announced
) -> None:
    season = make_season(league_club, [alice, bob])
    open_fixture(season, 1, [alice, bob])
    assert not _rows(season)["Bob"].withdrawn  # computed, and cached for an hour
    assert _cached(season)

    with announced():
        withdraw(season.entries.get(user=bob), bob)

    assert _rows(season)["Bob"].withdrawn


def test_a_substitute_shows_in_the_cached_standings_at_once(
    running: RunningSeason, announced: Announced
) -> None:
    frank = UserFactory(username="frank", display_name="Frank")
    Membership.objects.create(club=running.club, user=frank, role=Role.MEMBER)
    assert "Bob" in _rows(running.season)

    with announced():
        replace_player(running.entries[0], frank, running.organiser, "Bob moved away.")

    assert "Bob (played by Frank)" in _rows(running.season)
    told = Notification.objects.get(user=frank, key__startswith="league-substitute:")
    assert told.text == "You play for Bob in Winter league, season 1 from now on."
    assert told.link == season_path(running.season)  # the season, not the home page


def test_settling_a_fixture_whose_table_never_started_refreshes_the_standings(
    league_club: Club, alice: User, bob: User, announced: Announced, refreshes: list[int]
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = scheduled_fixture(season, 1, [alice, bob])
    season_standings(season)

    with announced():
        settle_fixture(fixture, alice, "Nobody came.")

    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.SETTLED
    assert refreshes == [season.pk] and not _cached(season)


@pytest.mark.parametrize("change", ["extend", "reschedule", "close_matchday", "close_season"])
def test_each_change_of_fixtures_refreshes_the_season_once(
    running: RunningSeason, announced: Announced, refreshes: list[int], change: str, olga: User
) -> None:
    # Olga: alice plays in the matchday and the season (leagues.conflicts).
    season, matchday = running.season, running.matchday
    season_standings(season)
    later = matchday.deadline + timedelta(days=1)

    with announced():
        if change == "extend":
            extend_deadline(matchday, later, olga, "Holidays.")
        elif change == "reschedule":
            reschedule_fixture(running.fixtures[0], later, running.organiser, "Bob is ill.")
        elif change == "close_matchday":
            close_matchday(matchday, None, "The deadline passed.")  # settles both fixtures
        else:
            with time_machine.travel(matchday.deadline + timedelta(minutes=1)):
                close_season(season, olga, "The season is over.")

    assert refreshes == [season.pk]
    assert not _cached(season)


def test_a_withdrawal_with_several_open_fixtures_refreshes_its_season_once(
    league_club: Club,
    alice: User,
    bob: User,
    carol: User,
    announced: Announced,
    refreshes: list[int],
) -> None:
    season = make_season(league_club, [alice, bob, carol])
    open_fixture(season, 1, [alice, bob])
    open_fixture(season, 2, [bob, carol])

    with announced():
        withdraw(season.entries.get(user=bob), bob)

    assert refreshes == [season.pk]


def test_a_refused_or_rolled_back_write_announces_nothing(
    league_club: Club, alice: User, bob: User, announced: Announced, refreshes: list[int]
) -> None:
    season = make_season(league_club, [alice, bob])
    open_fixture(season, 1, [alice, bob])
    entry = season.entries.get(user=bob)
    withdrawn: list[int] = []

    def note(sender: type, entry_id: int, **kwargs: Any) -> None:
        withdrawn.append(entry_id)

    signals.entry_withdrawn.connect(note, dispatch_uid="test-withdrawn")
    try:
        with announced():
            try:
                with transaction.atomic():
                    withdraw(entry, bob)
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
        assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
        assert withdrawn == [] and refreshes == []

        with announced():
            withdraw(entry, bob)
        assert withdrawn == [entry.pk] and refreshes == [season.pk]
    finally:
        signals.entry_withdrawn.disconnect(dispatch_uid="test-withdrawn")


def test_a_refresh_survives_when_only_a_later_savepoint_rolls_back(
    league_club: Club, alice: User, bob: User, announced: Announced, refreshes: list[int]
) -> None:
    season = make_season(league_club, [alice, bob])
    fixture = scheduled_fixture(season, 1, [alice, bob])
    with announced(), transaction.atomic():
        try:
            with transaction.atomic():
                signals.refresh_after_commit(season.pk)
                raise RuntimeError("the savepoint goes")
        except RuntimeError:
            pass
        settle_fixture(fixture, alice, "Nobody came.")

    assert refreshes == [season.pk]


def test_a_score_change_refreshes_its_season_once_and_says_who_made_it(
    running: RunningSeason, announced: Announced, refreshes: list[int]
) -> None:
    game = finished_game(running.fixtures[0])
    season_standings(running.season)
    adjusted: list[int] = []

    def note(sender: type, adjustment_id: int, **kwargs: Any) -> None:
        adjusted.append(adjustment_id)

    signals.score_adjusted.connect(note, dispatch_uid="test-adjusted")
    try:
        with announced():
            # Nobody else in the club could confirm it: it applies at once.
            change = propose(running.season, game.pk, 1, -77, running.organiser, "Miscounted.")
    finally:
        signals.score_adjusted.disconnect(dispatch_uid="test-adjusted")

    assert change.status == ScoreAdjustment.Status.APPLIED
    assert adjusted == [change.pk]
    assert refreshes == [running.season.pk] and not _cached(running.season)


def test_a_fixture_whose_round_ends_is_finished_and_refreshes_its_season(
    running: RunningSeason, announced: Announced, refreshes: list[int]
) -> None:
    fixture = running.fixtures[0]
    with announced():
        finished_game(fixture)  # the round is stopped: its table is finished

    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.FINISHED
    assert running.season.pk in refreshes
