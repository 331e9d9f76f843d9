"""Vacations: the allowance, planning, correspondence clocks that stand still, an early end."""

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine

from accounts.models import User
from games import services, tasks
from games.models import Game, Seat, Vacation
from games.rendering import game_context
from games.selectors.vacations import vacation_summary
from games.services.vacations import (
    VacationError,
    cancel_vacation,
    end_vacation,
    plan_vacation,
)
from tests.games.clocks import DAY, HOUR, T0, at
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db

__all__ = ["at"]  # the fixture


def seat_of(game: Game, user: User) -> int:
    return Seat.objects.get(table_id=game.table_id, user=user).number


def turn_of(game: Game, user: User, when: datetime) -> Game:
    """The game with ``user`` to move: the other player draws first if need be."""
    game.refresh_from_db()
    if game.current_seat != seat_of(game, user):
        with time_machine.travel(when, tick=False):
            services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    return game


def correspondence(alice: User, bob: User, **settings: Any) -> Game:
    with time_machine.travel(T0, tick=False):
        table = start_table(alice, bob, clock="correspondence", **settings)
    return turn_of(current_game(table), alice, T0)


# --- the allowance ---------------------------------------------------------------------


def test_a_member_has_fourteen_days_a_year(alice: User, at: Any) -> None:
    with at(T0):
        plan_vacation(alice, 10)
        with pytest.raises(VacationError, match="You have 4 vacation days left in 2025"):
            plan_vacation(alice, 5, date(2025, 8, 1))
        plan_vacation(alice, 4, date(2025, 8, 1))
        summary = vacation_summary(alice)

    assert (summary.year, summary.allowance, summary.used, summary.left) == (2025, 14, 14, 0)
    assert summary.current is not None and summary.current.days == 10
    assert [v.starts_at for v in summary.planned] == [datetime(2025, 8, 1, tzinfo=UTC)]


def test_a_new_year_brings_new_days_and_the_allowance_is_configurable(
    alice: User, at: Any, settings: Any
) -> None:
    settings.GAMES_VACATION_DAYS_PER_YEAR = 3
    with at(T0):
        plan_vacation(alice, 3)
        plan_vacation(alice, 3, date(2026, 1, 5))
        with pytest.raises(VacationError, match="0 vacation days left in 2026"):
            plan_vacation(alice, 1, date(2026, 3, 1))


@pytest.mark.parametrize(
    ("days", "starts_on", "message"),
    [
        (0, None, "at least one whole day"),
        (2, date(2025, 6, 1), "cannot start in the past"),
        (2, date(2025, 6, 3), "already have a vacation"),
    ],
)
def test_it_refuses_a_vacation_it_cannot_grant(
    alice: User, at: Any, days: int, starts_on: date | None, message: str
) -> None:
    with at(T0):
        plan_vacation(alice, 2)
        with pytest.raises(VacationError, match=message):
            plan_vacation(alice, days, starts_on)

    assert Vacation.objects.count() == 1


def test_a_vacation_on_a_date_starts_at_its_midnight(alice: User, at: Any) -> None:
    with at(T0):
        vacation = plan_vacation(alice, 2, date(2025, 6, 10))

    assert vacation.starts_at == datetime(2025, 6, 10, tzinfo=UTC)
    assert vacation.ends_at == datetime(2025, 6, 12, tzinfo=UTC)


def test_ending_early_gives_back_the_days_not_begun_and_a_planned_one_can_be_called_off(
    alice: User, at: Any
) -> None:
    with at(T0):
        plan_vacation(alice, 7)
        planned = plan_vacation(alice, 5, date(2025, 7, 1))
    with at(T0 + DAY + HOUR):
        ended = end_vacation(alice)
        cancel_vacation(alice, planned.pk)
        summary = vacation_summary(alice)

    assert ended is not None and ended.ends_at == T0 + DAY + HOUR
    assert summary.used == 2  # a day and part of another
    assert summary.current is None and summary.planned == ()
    with at(T0 + 2 * DAY), pytest.raises(VacationError):
        cancel_vacation(alice, planned.pk)


# --- clocks that stand still ------------------------------------------------------------


def test_a_vacation_that_starts_during_a_turn_pushes_its_deadline_back(
    alice: User, bob: User, at: Any
) -> None:
    game = correspondence(alice, bob, turn_seconds=86400)

    with at(T0 + 2 * HOUR):
        plan_vacation(alice, 3)

    game.refresh_from_db()
    assert game.turn_deadline == T0 + 4 * DAY  # 2 h before, 3 days away, 22 h after
    assert game.turn_reminder_at == T0 + 2 * HOUR + 3 * DAY + 16 * HOUR


def test_a_vacation_planned_for_later_in_the_turn_counts_already(
    alice: User, bob: User, at: Any
) -> None:
    game = correspondence(alice, bob, turn_seconds=3 * 86400)

    with at(T0 + HOUR):
        plan_vacation(alice, 2, date(2025, 6, 3))

    game.refresh_from_db()
    # 15 h until midnight, two days away, then the 57 h that were left.
    assert game.turn_deadline == datetime(2025, 6, 7, 9, 0, tzinfo=UTC)


def test_a_turn_that_starts_during_a_vacation_waits_for_its_end(
    alice: User, bob: User, at: Any
) -> None:
    game = correspondence(alice, bob, turn_seconds=86400)
    with at(T0):
        plan_vacation(bob, 5)

    with at(T0 + HOUR):
        services.draw(game.pk, alice, game.version)

    game.refresh_from_db()
    assert game.current_seat == seat_of(game, bob)
    assert game.turn_deadline == T0 + 5 * DAY + DAY


def test_live_games_do_not_stop_for_a_vacation(alice: User, bob: User, at: Any) -> None:
    with time_machine.travel(T0, tick=False):
        game = turn_of(current_game(start_table(alice, bob, turn_seconds=60)), alice, T0)
    deadline = game.turn_deadline

    with at(T0 + timedelta(seconds=1)):
        plan_vacation(alice, 3)

    game.refresh_from_db()
    assert game.turn_deadline == deadline


def test_the_first_move_ends_the_vacation_and_the_other_clocks_run_again(
    alice: User, bob: User, at: Any
) -> None:
    first = correspondence(alice, bob, turn_seconds=86400)
    second = correspondence(alice, bob, turn_seconds=86400)
    with at(T0 + HOUR):
        plan_vacation(alice, 10)
    second.refresh_from_db()
    assert second.turn_deadline == T0 + 11 * DAY

    with at(T0 + 5 * HOUR):
        services.draw(first.pk, alice, first.version)

    vacation = Vacation.objects.get()
    assert vacation.ends_at == T0 + 5 * HOUR
    second.refresh_from_db()
    assert second.turn_deadline == T0 + DAY + 4 * HOUR
    assert vacation_summary(alice, T0 + 6 * HOUR).used == 1


def test_the_sweep_respects_a_vacation(alice: User, bob: User, at: Any) -> None:
    game = correspondence(alice, bob, turn_seconds=86400)
    with at(T0 + HOUR):
        plan_vacation(alice, 2)

    with at(T0 + DAY + 5 * HOUR):
        assert tasks.sweep_expired_turns.delay().get() == 0
    with at(T0 + 3 * DAY + 2 * HOUR):
        assert tasks.sweep_expired_turns.delay().get() == 1

    game.refresh_from_db()
    assert game.turn_number > 1
    assert game.moves.last().by == "timeout"  # type: ignore[union-attr]


def test_time_on_vacation_is_not_taken_from_the_bank(alice: User, bob: User, at: Any) -> None:
    game = correspondence(alice, bob, turn_seconds=12 * 3600, time_bank_seconds=86400)
    with at(T0 + HOUR):
        plan_vacation(alice, 1)

    with at(T0 + DAY + 13 * HOUR):
        services.draw(game.pk, alice, game.version)

    # 1 h before the vacation and 12 h after it: an hour over the turn's time.
    assert Seat.objects.get(table_id=game.table_id, user=alice).bank_seconds == 86400 - 3600


def test_opponents_see_who_is_away_and_that_the_clock_stands_still(
    alice: User, bob: User, at: Any
) -> None:
    game = correspondence(alice, bob, turn_seconds=86400)
    with at(T0 + HOUR):
        plan_vacation(alice, 3)

    with time_machine.travel(T0 + 2 * HOUR, tick=False):
        clock = game_context(Game.objects.get(pk=game.pk), bob)["clock"]

    away = clock.seat(seat_of(game, alice))
    assert (away.on_vacation, away.vacation_until) == (True, T0 + HOUR + 3 * DAY)
    assert clock.paused_until == T0 + HOUR + 3 * DAY
    assert clock.seat(seat_of(game, bob)).vacation_until is None
    assert clock.is_correspondence


def test_a_vacation_ended_a_minute_after_it_began_takes_no_day(alice: User, at: Any) -> None:
    with at(T0):
        plan_vacation(alice, 2)
    with at(T0 + timedelta(minutes=1)):
        end_vacation(alice)
        assert vacation_summary(alice).used == 0
    with at(T0 + 2 * HOUR):
        plan_vacation(alice, 2)
    with at(T0 + 4 * HOUR):
        end_vacation(alice)
        assert vacation_summary(alice).used == 1  # a part of a day counts


def test_a_vacation_ended_within_the_hour_stops_no_clock_however_often(
    alice: User, bob: User, at: Any
) -> None:
    # Review wave 3, S10: each such vacation took no day, yet stood the clock still
    # for its 59 minutes; an hour's cycle kept bob waiting without end.
    game = correspondence(alice, bob, turn_seconds=86400)
    game.refresh_from_db()
    deadline = game.turn_deadline
    assert deadline == T0 + DAY

    for cycle in range(3):
        with at(T0 + cycle * HOUR):
            plan_vacation(alice, 1)
        with at(T0 + cycle * HOUR + timedelta(minutes=59)):
            end_vacation(alice)

    game.refresh_from_db()
    assert game.turn_deadline == deadline
    with at(T0 + 3 * HOUR):
        assert vacation_summary(alice).used == 0
