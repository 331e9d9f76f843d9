"""A fixture's deadline reaches its table: the game page, "Your move" and turn notices
show it when it comes before the turn's deadline, and count down to it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game, Table
from games.selectors.your_move import your_move_games
from games.services.notifications import SETTLED_FIRST, turn_started
from leagues.services.organiser import extend_deadline, reschedule_fixture
from notifications.models import Notification
from notifications.services.mail import _item
from tests.games.conftest import start_table
from tests.leagues.conftest import RunningSeason, running_season

pytestmark = pytest.mark.django_db


def settles_at(running: RunningSeason) -> list[object]:
    ids = [fixture.table_id for fixture in running.fixtures]
    return [Table.objects.get(pk=pk).settles_at for pk in ids]


def test_a_fixture_table_settles_at_the_matchday_deadline_and_follows_its_changes(
    running: RunningSeason, olga: User
) -> None:
    # Olga: alice plays in the matchday (leagues.conflicts).
    matchday = running.matchday
    assert settles_at(running) == [matchday.deadline, matchday.deadline]

    later = matchday.deadline + timedelta(days=1)
    extend_deadline(matchday, later, olga, "Snow.")
    assert settles_at(running) == [later, later]

    own = timezone.now() + timedelta(hours=5)
    reschedule_fixture(running.fixtures[0], own, olga, "Bob travels.")
    assert settles_at(running) == [own, later]

    # A later extension of the matchday leaves the rescheduled fixture's own deadline.
    latest = later + timedelta(days=1)
    extend_deadline(matchday, latest, olga, "More snow.")
    assert settles_at(running) == [own, latest]


def test_your_move_shows_the_fixture_deadline_when_it_comes_first(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    soon = timezone.now() + timedelta(hours=3)  # the turn has a day
    running_season(alice, [bob, dave, erin, alice], deadline=soon)

    [row] = your_move_games(bob)  # bob moves first at bob-dave
    assert row.turn_deadline is not None and row.turn_deadline > soon
    assert row.settled_first and row.due == soon


def test_your_move_shows_the_turn_deadline_when_it_comes_first(running: RunningSeason) -> None:
    [row] = your_move_games(running.players[0])

    assert not row.settled_first and row.due == row.turn_deadline


def test_your_move_lists_first_the_game_settled_soonest(alice: User, bob: User, dave: User) -> None:
    clock = {"clock": Table.Clock.CORRESPONDENCE, "first": 0}
    first, second = start_table(bob, alice, **clock), start_table(bob, dave, **clock)
    # The second table's turn ends later, but its round is settled within the hour.
    Table.objects.filter(pk=second.pk).update(settles_at=timezone.now() + timedelta(hours=1))

    rows = your_move_games(bob)

    assert [row.table_id for row in rows] == [second.pk, first.pk]
    assert [row.settled_first for row in rows] == [True, False]


def test_a_turn_notice_names_the_fixture_deadline_when_it_comes_first(
    alice: User, bob: User, dave: User, erin: User
) -> None:
    soon = timezone.now() + timedelta(hours=3)
    running = running_season(alice, [bob, dave, erin, alice], deadline=soon)
    game = Game.objects.select_related("table").get(table_id=running.fixtures[0].table_id)
    Notification.objects.all().delete()

    notice = turn_started(game, running.players[0].pk)

    assert notice is not None
    assert notice.deadline == soon and notice.text.endswith(SETTLED_FIRST)
    mail = _item(notice)
    assert mail.settled_first and not mail.about_a_turn


def test_a_turn_notice_keeps_the_turn_deadline_when_it_comes_first(
    running: RunningSeason,
) -> None:
    game = Game.objects.select_related("table").get(table_id=running.fixtures[0].table_id)
    Notification.objects.all().delete()

    notice = turn_started(game, running.players[0].pk)

    assert notice is not None
    assert notice.deadline == game.turn_deadline and SETTLED_FIRST not in notice.text
    assert _item(notice).about_a_turn
