"""The weekend pause's arithmetic (engine.clock): when a turn runs out, skipping the
weekends of the mover's zone, across changes of the clocks and with vacations."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clock import (
    DAY,
    HOUR,
    TimeControl,
    active_seconds,
    instant_after,
    turn_clock,
    weekends,
)

LONDON, NEW_YORK = ZoneInfo("Europe/London"), ZoneInfo("America/New_York")
TOKYO, SYDNEY = ZoneInfo("Asia/Tokyo"), ZoneInfo("Australia/Sydney")
# Also a zone whose clocks once changed at midnight, so that a midnight did not exist
# (Chile, until 2019) or happened twice.
SANTIAGO = ZoneInfo("America/Santiago")
ZONES = [LONDON, NEW_YORK, TOKYO, SYDNEY, SANTIAGO, ZoneInfo("UTC"), ZoneInfo("Asia/Kolkata")]

instants = st.datetimes(
    min_value=datetime(2015, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
)
allowances = st.integers(min_value=HOUR, max_value=28 * DAY)


def in_weekend(moment: datetime, zone: ZoneInfo) -> bool:
    """Strictly inside a weekend of ``zone``: its clocks read Saturday or Sunday, and it
    is not the very instant the weekend begins."""
    return any(start < moment < end for start, end in weekends(zone, moment, moment))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ZONES), instants, allowances)
def test_the_time_counted_outside_weekends_is_the_allowance(
    zone: ZoneInfo, start: datetime, seconds: int
) -> None:
    deadline = instant_after(start, seconds, weekend_zone=zone)
    assert active_seconds(start, deadline, weekend_zone=zone) == pytest.approx(seconds, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ZONES), instants, allowances)
def test_a_turn_never_runs_out_inside_a_weekend(
    zone: ZoneInfo, start: datetime, seconds: int
) -> None:
    deadline = instant_after(start, seconds, weekend_zone=zone)
    assert not in_weekend(deadline, zone)
    assert deadline.astimezone(zone).weekday() < 5 or deadline == next(
        begins for begins, _ in weekends(zone, deadline, deadline)
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ZONES), instants, allowances)
def test_weekends_only_ever_push_a_deadline_back_by_whole_weekends(
    zone: ZoneInfo, start: datetime, seconds: int
) -> None:
    plain = start + timedelta(seconds=seconds)
    deadline = instant_after(start, seconds, weekend_zone=zone)
    paused = (deadline - start).total_seconds() - seconds
    assert deadline >= plain
    skipped = [end - begin for begin, end in weekends(zone, start, deadline)]
    # What the weekends took is at most their whole length (less when the turn started
    # inside one).
    assert paused <= sum(length.total_seconds() for length in skipped)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(ZONES),
    instants,
    allowances,
    st.lists(st.tuples(st.integers(-5 * DAY, 30 * DAY), st.integers(1, 10 * DAY)), max_size=3),
)
def test_vacations_and_weekends_compose(
    zone: ZoneInfo, start: datetime, seconds: int, vacations: list[tuple[int, int]]
) -> None:
    """Weekends and vacations stop the same clock: the time counted outside both is the
    allowance, and where they overlap nothing is counted twice."""
    pauses = [
        (start + timedelta(seconds=at), start + timedelta(seconds=at + length))
        for at, length in vacations
    ]
    deadline = instant_after(start, seconds, pauses, weekend_zone=zone)
    assert active_seconds(start, deadline, pauses, weekend_zone=zone) == pytest.approx(
        seconds, abs=1e-6
    )
    assert not in_weekend(deadline, zone)
    assert not any(begins < deadline < ends for begins, ends in pauses)
    # Either alone would end the turn no later.
    assert deadline >= instant_after(start, seconds, pauses)
    assert deadline >= instant_after(start, seconds, weekend_zone=zone)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ZONES), instants, st.integers(0, 60 * DAY))
def test_a_weekend_is_saturday_and_sunday_on_the_zones_own_calendar(
    zone: ZoneInfo, start: datetime, span: int
) -> None:
    for begins, ends in weekends(zone, start, start + timedelta(seconds=span)):
        local_start, local_end = begins.astimezone(zone), ends.astimezone(zone)
        assert local_start.weekday() == 5 and local_end.weekday() == 0
        assert (local_end.date() - local_start.date()).days == 2
        # 48 hours, give or take the change of the clocks (Lord Howe's half hour aside).
        assert abs((ends - begins) - timedelta(days=2)) <= timedelta(hours=1)


def friday(zone: ZoneInfo, day: int, month: int, year: int = 2026) -> datetime:
    start = datetime(year, month, day, 20, tzinfo=zone)
    assert start.weekday() == 4
    return start


@pytest.mark.parametrize(
    ("zone", "start", "weekend_hours"),
    [
        # London leaves summer time on Sunday 25 October 2026: a 49-hour weekend.
        (LONDON, friday(LONDON, 23, 10), 49),
        # And enters it on Sunday 29 March 2026: a 47-hour weekend.
        (LONDON, friday(LONDON, 27, 3), 47),
        # New York: summer time from Sunday 8 March, to Sunday 1 November 2026.
        (NEW_YORK, friday(NEW_YORK, 6, 3), 47),
        (NEW_YORK, friday(NEW_YORK, 30, 10), 49),
        # Tokyo has no summer time.
        (TOKYO, friday(TOKYO, 23, 10), 48),
        # Sydney (southern): summer time ends Sunday 5 April, starts Sunday 4 October 2026.
        (SYDNEY, friday(SYDNEY, 3, 4), 49),
        (SYDNEY, friday(SYDNEY, 2, 10), 47),
    ],
)
def test_friday_evening_with_a_day_runs_out_on_monday_evening_local_time(
    zone: ZoneInfo, start: datetime, weekend_hours: int
) -> None:
    deadline = instant_after(start, DAY, weekend_zone=zone)
    assert deadline.astimezone(zone).replace(tzinfo=None) == start.replace(tzinfo=None) + timedelta(
        days=3
    )
    assert deadline - start == timedelta(hours=24 + weekend_hours)


def test_a_turn_started_in_a_weekend_counts_from_monday_midnight() -> None:
    saturday = datetime(2026, 12, 5, 15, tzinfo=TOKYO)
    deadline = instant_after(saturday, 12 * HOUR, weekend_zone=TOKYO)
    assert deadline == datetime(2026, 12, 7, 12, tzinfo=TOKYO)


def test_a_turn_that_runs_out_as_a_weekend_begins_runs_out_then() -> None:
    start = datetime(2026, 12, 4, 12, tzinfo=LONDON)
    assert instant_after(start, 12 * HOUR, weekend_zone=LONDON) == datetime(
        2026, 12, 5, tzinfo=LONDON
    )


def test_a_vacation_across_a_weekend_stops_the_clock_once() -> None:
    start = datetime(2026, 12, 3, 12, tzinfo=UTC)  # a Thursday
    vacation = (datetime(2026, 12, 4, 12, tzinfo=UTC), datetime(2026, 12, 8, 12, tzinfo=UTC))
    deadline = instant_after(start, 2 * DAY, [vacation], weekend_zone=UTC)
    # A day before the vacation, then from Tuesday noon the other day.
    assert deadline == datetime(2026, 12, 9, 12, tzinfo=UTC)


def test_the_clock_pauses_on_weekends_only_by_correspondence_and_when_the_table_says() -> None:
    start = datetime(2026, 12, 4, 20, tzinfo=TOKYO)
    paused = TimeControl("correspondence", DAY, weekend_pause=True)
    assert turn_clock(paused, start, 0, zone=TOKYO).deadline == datetime(
        2026, 12, 7, 20, tzinfo=TOKYO
    )
    assert turn_clock(paused, start, 0, zone=TOKYO).reminder_at == datetime(
        2026, 12, 7, 14, tzinfo=TOKYO
    )
    for control in (
        TimeControl("correspondence", DAY),
        TimeControl("live", DAY, weekend_pause=True),
    ):
        assert turn_clock(control, start, 0, zone=TOKYO).deadline == start + timedelta(days=1)


def test_without_a_zone_no_weekend_stops_the_clock() -> None:
    """A bot's turn at a table that pauses on weekends: the bot has no weekend."""
    start = datetime(2026, 12, 4, 20, tzinfo=TOKYO)
    paused = TimeControl("correspondence", DAY, weekend_pause=True)
    assert turn_clock(paused, start, 0).deadline == start + timedelta(days=1)
