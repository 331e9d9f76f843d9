"""Time controls: the clock's arithmetic, the table's settings, deadlines and the time bank."""

import doctest
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from types import ModuleType

import pytest
import time_machine
from hypothesis import given
from hypothesis import strategies as st

import engine.clock
import games.selectors.vacations
from accounts.models import User
from engine.clock import (
    TimeControl,
    active_seconds,
    bank_after_turn,
    instant_after,
    merge_pauses,
)
from games import services
from games.errors import TableError
from games.models import Game, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("module", [engine.clock, games.selectors.vacations])
def test_the_examples_in_the_docstrings_hold(module: ModuleType) -> None:
    # pytest collects doctests under engine/ only; these modules' examples run here.
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


# --- the arithmetic ----------------------------------------------------------------------

offsets = st.integers(min_value=-10_000, max_value=200_000)
pauses = st.lists(
    st.tuples(offsets, st.integers(min_value=0, max_value=50_000)).map(
        lambda p: (T0 + timedelta(seconds=p[0]), T0 + timedelta(seconds=p[0] + p[1]))
    ),
    max_size=5,
)


@given(seconds=st.integers(min_value=0, max_value=300_000), stops=pauses)
def test_a_deadline_falls_when_exactly_the_allowance_of_unpaused_time_has_run(
    seconds: int, stops: list[tuple[datetime, datetime]]
) -> None:
    deadline = instant_after(T0, seconds, stops)

    assert active_seconds(T0, deadline, stops) == seconds
    # And not a moment later than needed.
    if seconds:
        assert active_seconds(T0, deadline - timedelta(milliseconds=1), stops) < seconds
    assert deadline - T0 >= timedelta(seconds=seconds)


@given(stops=pauses)
def test_merged_pauses_are_ordered_apart_and_cover_the_same_time(
    stops: list[tuple[datetime, datetime]],
) -> None:
    merged = merge_pauses(stops)

    assert all(a[1] < b[0] for a, b in pairwise(merged))
    end = T0 + timedelta(days=5)
    start = T0 - timedelta(days=1)
    assert active_seconds(start, end, merged) == active_seconds(start, end, stops)


@given(
    bank=st.integers(0, 1000),
    cap=st.integers(0, 1000),
    turn=st.integers(1, 500),
    used=st.floats(0, 3000, allow_nan=False),
)
def test_a_bank_stays_between_empty_and_its_size(
    bank: int, cap: int, turn: int, used: float
) -> None:
    after = bank_after_turn(TimeControl("live", turn, cap), min(bank, cap), used)

    assert 0 <= after <= cap
    if cap and used <= turn:
        assert after >= min(bank, cap)


def test_a_live_clock_never_stops_for_a_pause() -> None:
    stops = [(T0, T0 + timedelta(hours=1))]
    live = engine.clock.turn_clock(TimeControl("live", 60), T0, 0, stops)
    slow = engine.clock.turn_clock(TimeControl("correspondence", 60), T0, 0, stops)

    assert live.deadline == T0 + timedelta(seconds=60)
    assert slow.deadline == T0 + timedelta(hours=1, seconds=60)


# --- what a table is created with ------------------------------------------------------


def test_a_table_is_live_by_default_with_the_turn_time_it_was_given(alice: User) -> None:
    table = services.create_table(
        alice, TableSettings(turn_seconds=30), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )

    assert (table.clock, table.turn_seconds, table.time_bank_seconds) == ("live", 30, 0)
    assert (table.timeouts_to_forfeit, table.on_forfeit) == (3, "drop_out")
    assert table.engine_ruleset().turn_time_limit_s == 30


def test_a_correspondence_table_takes_a_day_per_turn_unless_told(alice: User) -> None:
    seats = [SeatPlan.taken_by(alice), SeatPlan.open()]

    table = services.create_table(alice, TableSettings(clock="correspondence"), seats)
    week = services.create_table(
        alice, TableSettings(clock="correspondence", turn_seconds=7 * 86400), seats
    )

    assert (table.clock, table.turn_seconds) == ("correspondence", 86400)
    assert week.turn_seconds == 7 * 86400


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"clock": "blitz"}, "live or correspondence"),
        ({"clock": "correspondence", "turn_seconds": 600}, "between 1 hour and 14 days"),
        ({"clock": "live", "turn_seconds": 3 * 86400}, "between 10 seconds and 24 hours"),
        ({"time_bank_seconds": -5}, "time bank"),
        ({"time_bank_seconds": 30 * 86400}, "time bank"),
        ({"timeouts_to_forfeit": 0}, "forfeits after 1 to 10"),
        ({"timeouts_to_forfeit": True}, "forfeits after 1 to 10"),
        ({"on_forfeit": "vanish"}, "drops out, or a bot"),
    ],
)
def test_it_refuses_a_clock_it_cannot_keep(
    alice: User, settings: dict[str, object], message: str
) -> None:
    with pytest.raises(TableError, match=message):
        settings_value = TableSettings(**settings)  # type: ignore[arg-type]
        services.create_table(alice, settings_value, [SeatPlan.taken_by(alice), SeatPlan.open()])
    assert not Table.objects.exists()


# --- deadlines --------------------------------------------------------------------------


def test_a_live_turn_is_due_after_its_time_and_has_no_reminder(alice: User, bob: User) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=30))

    assert game.turn_started_at == T0
    assert game.turn_deadline == T0 + timedelta(seconds=30)
    assert game.turn_reminder_at is None


def test_a_correspondence_turn_is_due_after_its_time_and_warns_with_a_quarter_left(
    alice: User, bob: User
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, clock="correspondence", turn_seconds=86400))

    assert game.turn_deadline == T0 + timedelta(days=1)
    assert game.turn_reminder_at == T0 + timedelta(hours=18)


def test_every_seat_starts_with_a_full_bank_that_the_deadline_includes(
    alice: User, bob: User
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=60, time_bank_seconds=30))

    assert set(Seat.objects.values_list("bank_seconds", flat=True)) == {30}
    assert game.turn_deadline == T0 + timedelta(seconds=90)


def seat_bank(game: Game, seat: int) -> int:
    return Seat.objects.get(table_id=game.table_id, number=seat).bank_seconds


def test_overtime_comes_out_of_the_bank_and_unused_time_refills_it(alice: User, bob: User) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=60, time_bank_seconds=30))
    first = game.current_seat or 0
    second = 1 - first

    with time_machine.travel(T0 + timedelta(seconds=80), tick=False):
        services.draw(game.pk, user_at(game, first), 0)
    assert seat_bank(game, first) == 10  # 20 s over the minute
    game.refresh_from_db()
    assert game.turn_deadline == T0 + timedelta(seconds=80 + 90)  # the other seat's full bank

    with time_machine.travel(T0 + timedelta(seconds=100), tick=False):
        services.draw(game.pk, user_at(game, second), 1)
    assert seat_bank(game, second) == 30  # never more than the bank holds
    game.refresh_from_db()
    assert game.turn_deadline == T0 + timedelta(seconds=100 + 60 + 10)

    with time_machine.travel(T0 + timedelta(seconds=105), tick=False):
        services.draw(game.pk, user_at(game, first), 2)
    assert seat_bank(game, first) == 30  # 55 s unused, capped


def test_a_turn_that_runs_out_empties_the_bank(alice: User, bob: User) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=60, time_bank_seconds=30))
    first = game.current_seat or 0

    with time_machine.travel(T0 + timedelta(seconds=91), tick=False):
        services.time_out_turn(game.pk, 1)

    assert seat_bank(game, first) == 0


def test_a_table_without_a_bank_keeps_every_turn_to_its_time(alice: User, bob: User) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, turn_seconds=60))

    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        services.draw(game.pk, user_at(game, game.current_seat or 0), 0)

    game.refresh_from_db()
    assert game.turn_deadline == T0 + timedelta(seconds=65)
    assert set(Seat.objects.values_list("bank_seconds", flat=True)) == {0}
