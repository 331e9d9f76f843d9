"""Matchday deadlines: reminders, settling fixtures by the season's rule, closing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from accounts.models import User
from games.models import Game, Result, Table
from leagues.errors import LeaguesError
from leagues.models import Entry, Fixture, Matchday, OnDeadline
from leagues.notices import LeagueNotice
from leagues.services.deadlines import (
    close_matchday,
    preview_close_matchday,
    remind_matchday,
    settle_fixture,
    settlement_note,
)
from notifications.models import Notification
from tests.leagues.conftest import RunningSeason, running_season

pytestmark = pytest.mark.django_db


def test_the_note_says_in_words_what_was_scored_and_what_not() -> None:
    assert settlement_note(2, 3, None) == (
        "Settled at the deadline: game 2 of 3 scored as it stands; game 3 not played."
    )
    assert settlement_note(1, 4, "Bob") == (
        "Settled at the deadline: Bob, whose turn it was, forfeited game 1 of 4, scored as "
        "it stands; games 2 to 4 not played."
    )
    assert (
        settlement_note(3, 3, None) == "Settled at the deadline: game 3 of 3 scored as it stands."
    )


def test_players_of_unfinished_fixtures_are_reminded_once(running: RunningSeason) -> None:
    matchday = running.matchday
    soon = matchday.deadline - timedelta(hours=17)  # a matchday of 3 days: 18 hours before

    assert remind_matchday(matchday.pk, matchday.deadline - timedelta(hours=19)) == 0
    assert remind_matchday(matchday.pk, soon) == 4
    assert remind_matchday(matchday.pk, soon) == 0

    matchday.refresh_from_db()
    assert matchday.reminded_at == soon
    notices = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert sorted(n.user.username for n in notices) == ["alice", "bob", "dave", "erin"]
    text = notices.first().text  # type: ignore[union-attr]
    assert text.startswith("Winter league, season 1: matchday 1 ends ")


def test_a_finished_fixture_is_not_reminded(running: RunningSeason) -> None:
    first = running.fixtures[0]
    first.status = Fixture.Status.FINISHED
    first.save()

    remind_matchday(running.matchday.pk, running.matchday.deadline - timedelta(hours=1))

    reminded = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert sorted(n.user.username for n in reminded) == ["alice", "erin"]


def test_a_player_who_withdrew_is_not_reminded(running: RunningSeason) -> None:
    gone = running.entries[1]  # dave, at the first fixture
    Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)

    remind_matchday(running.matchday.pk, running.matchday.deadline - timedelta(hours=1))

    reminded = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert sorted(n.user.username for n in reminded) == ["alice", "bob", "erin"]


def test_settling_scores_the_game_in_play_as_it_stands(running: RunningSeason) -> None:
    fixture = running.fixtures[0]

    settled = settle_fixture(fixture, running.organiser, "The deadline passed.")

    assert settled.status == Fixture.Status.SETTLED
    assert settled.note == (
        "Settled at the deadline: game 1 of 2 scored as it stands; game 2 not played."
    )
    table = Table.objects.get(pk=fixture.table_id)
    assert table.status == Table.Status.FINISHED
    assert Result.objects.current().filter(game__table=table).count() == 2
    assert not Game.objects.filter(table=table, number=2).exists()


def test_under_the_timed_out_rule_the_player_to_move_forfeits(alice: User, bob: User) -> None:
    season = running_season(alice, [alice, bob], on_deadline=OnDeadline.TIMED_OUT_FORFEIT)

    settled = settle_fixture(season.fixtures[0], alice, "The deadline passed.")

    # Seat 0 (alice) was to move: she forfeits, so bob wins game 1 outright.
    assert settled.note.startswith("Settled at the deadline: Alice, whose turn it was, forfeited")
    game = Game.objects.get(table_id=season.fixtures[0].table_id, number=1)
    winner = Result.objects.current().of_game(game).get(is_winner=True)
    assert winner.seat == 1


def test_settling_twice_changes_nothing(running: RunningSeason) -> None:
    fixture = running.fixtures[0]
    first = settle_fixture(fixture, None, "once")
    second = settle_fixture(fixture, None, "twice")

    assert (second.status, second.note) == (first.status, first.note)
    assert Result.objects.filter(game__table_id=fixture.table_id).count() == 2


def test_a_fixture_whose_table_never_started_is_settled_without_results(
    running: RunningSeason,
) -> None:
    fixture = running.fixtures[0]
    Table.objects.filter(pk=fixture.table_id).update(status=Table.Status.OPEN)

    settled = settle_fixture(fixture, None, "The deadline passed.")

    assert settled.status == Fixture.Status.SETTLED
    assert "never started" in settled.note
    assert not Result.objects.filter(game__table_id=fixture.table_id).exists()


def test_the_preview_lists_each_fixture_and_the_warnings(running: RunningSeason) -> None:
    done = running.fixtures[1]
    done.status = Fixture.Status.FINISHED
    done.save()

    preview = preview_close_matchday(running.matchday)

    assert [s.fixture.pk for s in preview.settlements] == [running.fixtures[0].pk]
    assert preview.settlements[0].note.startswith("Settled at the deadline: game 1 of 2")
    assert preview.finished == 1
    assert any("still" in w and "away" in w for w in preview.warnings)
    assert any("started less than an hour ago" in w for w in preview.warnings)
    # A preview writes nothing.
    assert Fixture.objects.get(pk=running.fixtures[0].pk).status == Fixture.Status.PLAYING


def test_closing_settles_every_unfinished_fixture_and_closes_once(
    running: RunningSeason, olga: User
) -> None:
    closed = close_matchday(running.matchday, olga, "Everyone agreed.")
    again = close_matchday(running.matchday, olga, "Again.")

    assert closed.status == again.status == Matchday.Status.CLOSED
    statuses = set(
        Fixture.objects.filter(matchday=running.matchday).values_list("status", flat=True)
    )
    assert statuses == {Fixture.Status.SETTLED}
    history = running.matchday.events.order_by("pgh_id").last()  # type: ignore[attr-defined]
    assert history.pgh_context.metadata["reason"] == "Everyone agreed."
    assert history.pgh_context.metadata["user"] == olga.pk


def test_a_close_needs_a_reason_and_an_open_matchday(running: RunningSeason) -> None:
    with pytest.raises(LeaguesError):
        close_matchday(running.matchday, running.organiser, "  ")
    Matchday.objects.filter(pk=running.matchday.pk).update(status=Matchday.Status.SCHEDULED)
    with pytest.raises(LeaguesError):
        close_matchday(running.matchday, running.organiser, "Now.")
    assert Fixture.objects.filter(status=Fixture.Status.SETTLED).count() == 0


@pytest.mark.django_db(transaction=True)
def test_two_closes_at_once_settle_each_fixture_once(
    alice: User, bob: User, carol: User, dave: User, erin: User
) -> None:
    # Carol organises and plays in no fixture (alice plays erin-alice).
    season = running_season(carol, [bob, dave, erin, alice])
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def close() -> None:
        try:
            start.wait()
            close_matchday(season.matchday, carol, "At once.")
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=close) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert Matchday.objects.get(pk=season.matchday.pk).status == Matchday.Status.CLOSED
    for fixture in season.fixtures:
        rows = Result.objects.filter(game__table_id=fixture.table_id)
        assert rows.count() == 2  # one game, two seats: scored once
    events = Fixture.pgh_event_model.objects  # type: ignore[attr-defined]
    assert events.filter(status=Fixture.Status.SETTLED).count() == 2
