"""Properties of the season scheduler (``leagues.scheduling``) for 2, 3 and 4 seats and
4-40 players: everyone sits at one table or has a bye every matchday, byes are spread
fairly, pairs meet as evenly as the module promises, starts are balanced, and a seed
gives the same schedule every time; where a schedule with no pair meeting twice is
known (``leagues.designs``), the scheduler gives one."""

from __future__ import annotations

import sys
from fractions import Fraction

import grimp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.designs import SOCIAL_GOLFER_INSTANCES
from leagues.scheduling import (
    MEETING_SPREAD,
    MEETING_SPREAD_LONG,
    Schedule,
    ScheduleError,
    default_matchdays,
    schedule_season,
)

# Each 3-4 seat schedule anneals for a tenth of a second or so: few examples each.
few = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def divisions(draw: st.DrawFn, seats: int, longer: bool = False) -> Schedule[int]:
    """A division's season: 4-40 players (at least ``seats``), the default season or,
    with ``longer``, any length up to twice it, with any games per fixture."""
    n = draw(st.integers(min_value=max(4, seats), max_value=40))
    default = default_matchdays(n, seats)
    matchdays = draw(st.integers(1, 2 * default)) if longer else None
    games = draw(st.none() | st.integers(1, 7))
    seed = draw(st.integers(0, 2**32))
    return schedule_season(
        [f"p{i}" for i in range(n)], seats, matchdays=matchdays, games_per_fixture=games,
        seed=seed,
    )  # fmt: skip


def meeting_spread(schedule: Schedule[str]) -> int:
    counts = schedule.meeting_counts()
    players = schedule.players
    values = [counts[a][b] for i, a in enumerate(players) for b in players[i + 1 :]]
    return max(values) - min(values)


def spread(counts: dict[str, int]) -> int:
    return max(counts.values()) - min(counts.values())


def assert_everyone_sits_or_rests_each_matchday(schedule: Schedule[str]) -> None:
    n, seats = len(schedule.players), schedule.seats
    for number, matchday in enumerate(schedule.matchdays, start=1):
        assert matchday.number == number
        seated = [p for fixture in matchday.fixtures for p in fixture.players]
        assert sorted(seated + list(matchday.byes)) == sorted(schedule.players)
        assert all(len(fixture.players) == seats for fixture in matchday.fixtures)
        assert len(matchday.byes) == n % seats


def assert_starts_balanced(schedule: Schedule[str], slack: Fraction) -> None:
    """Every player's starts and first seats are within ``slack`` of their share."""
    seats, games = schedule.seats, schedule.games_per_fixture
    fixtures = schedule.fixture_counts()
    starts = schedule.start_counts()
    firsts = schedule.first_seat_counts()
    for player in schedule.players:
        assert abs(starts[player] - Fraction(fixtures[player] * games, seats)) <= slack
        assert abs(firsts[player] - Fraction(fixtures[player], seats)) <= slack
        if games % seats == 0:
            assert starts[player] == fixtures[player] * games // seats
    if games == seats:
        assert spread(starts) <= 1


@pytest.mark.parametrize("seats", [2, 3, 4])
@few
@given(data=st.data())
def test_a_default_season_seats_everyone_fairly(seats: int, data: st.DataObject) -> None:
    schedule = data.draw(divisions(seats))

    assert_everyone_sits_or_rests_each_matchday(schedule)
    assert spread(schedule.bye_counts()) <= 1
    assert meeting_spread(schedule) <= (0 if seats == 2 else MEETING_SPREAD)
    assert_starts_balanced(schedule, Fraction(1, 2) if seats == 2 else Fraction(3, 2))


@pytest.mark.parametrize("seats", [2, 3, 4])
@few
@given(data=st.data())
def test_a_season_of_any_length_seats_everyone_fairly(seats: int, data: st.DataObject) -> None:
    schedule = data.draw(divisions(seats, longer=True))

    assert_everyone_sits_or_rests_each_matchday(schedule)
    assert spread(schedule.bye_counts()) <= 1
    assert meeting_spread(schedule) <= (1 if seats == 2 else MEETING_SPREAD_LONG)
    assert_starts_balanced(schedule, Fraction(1, 2) if seats == 2 else Fraction(3, 2))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 40), seed=st.integers(0, 2**32))
def test_a_two_seat_season_is_a_round_robin(n: int, seed: int) -> None:
    schedule = schedule_season(range(n), seats=2, seed=seed)
    counts = schedule.meeting_counts()

    assert len(schedule.matchdays) == (n - 1 if n % 2 == 0 else n)
    assert all(counts[a][b] == (a != b) for a in range(n) for b in range(n))
    assert set(schedule.bye_counts().values()) == ({0} if n % 2 == 0 else {1})


@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(max_examples=5, deadline=None)
@given(n=st.integers(4, 40), seed=st.integers(0, 2**32) | st.text(max_size=8))
def test_a_seed_gives_the_same_schedule_every_time(seats: int, n: int, seed: int | str) -> None:
    players = [f"p{i}" for i in range(n)]

    first = schedule_season(players, seats, seed=seed)

    assert schedule_season(players, seats, seed=seed) == first


def test_different_seeds_give_different_schedules() -> None:
    schedules = {schedule_season(range(12), 3, seed=seed) for seed in range(5)}

    assert len(schedules) == 5


def test_the_default_season_lets_every_pair_meet_about_once() -> None:
    assert default_matchdays(8, 2) == 7
    assert default_matchdays(9, 2) == 9
    # 50 players at 4 seats: 12 tables seat 72 pairs a matchday; 1225 pairs.
    assert default_matchdays(50, 4) == 18
    assert default_matchdays(50, 4, meetings=2) == 35
    assert default_matchdays(9, 3) == 4


def test_five_players_at_four_seats_meet_as_evenly_as_their_byes_allow() -> None:
    """The table is everyone but the player on a bye: over five matchdays each has one
    bye and every pair meets three times."""
    schedule = schedule_season("abcde", seats=4, matchdays=5, seed=3)

    assert set(schedule.bye_counts().values()) == {1}
    assert meeting_spread(schedule) == 0
    assert schedule.meeting_counts()["a"]["b"] == 3


def test_fixtures_name_their_starters_by_seat() -> None:
    schedule = schedule_season(range(6), seats=3, games_per_fixture=4, seed=0)
    fixture = schedule.matchdays[0].fixtures[0]
    first, second, third = fixture.players

    assert fixture.starters() == (first, second, third, first)


@pytest.mark.parametrize(
    ("players", "seats", "options", "message"),
    [
        (range(6), 5, {}, "a table has 2, 3 or 4 seats, not 5"),
        (range(3), 4, {}, "3 players cannot fill a table of 4"),
        (["a", "b", "a"], 2, {}, "a player is listed twice: 'a'"),
        (range(6), 3, {"matchdays": 0}, "a season has at least one matchday, not 0"),
        (range(6), 3, {"games_per_fixture": 0}, "a fixture has at least one game, not 0"),
    ],
)
def test_it_refuses_what_no_schedule_can_be_made_from(
    players: range | list[str], seats: int, options: dict[str, int], message: str
) -> None:
    with pytest.raises(ScheduleError, match=f"^{message}$"):
        schedule_season(list(players), seats, **options)


@pytest.mark.parametrize("module", ["leagues.scheduling", "leagues.designs"])
def test_the_scheduler_imports_only_the_standard_library(module: str) -> None:
    """It runs anywhere (a season's preview, the benchmark) without Django."""
    graph = grimp.build_graph("leagues", include_external_packages=True, cache_dir=None)
    imported = graph.find_modules_directly_imported_by(module) - {"leagues.designs"}
    packages = {name.split(".")[0] for name in imported}

    assert "random" in packages
    assert packages <= sys.stdlib_module_names, packages - sys.stdlib_module_names


def most_meetings(schedule: Schedule[int]) -> int:
    return max(max(row.values()) for row in schedule.meeting_counts().values())


@pytest.mark.parametrize(("n", "seats", "days"), SOCIAL_GOLFER_INSTANCES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32) | st.text(max_size=8))
def test_the_classic_social_golfer_instances_have_no_pair_meeting_twice(
    n: int, seats: int, days: int, seed: int | str
) -> None:
    schedule = schedule_season(range(n), seats, matchdays=days, seed=seed)

    assert most_meetings(schedule) == 1
    assert_everyone_sits_or_rests_each_matchday(schedule)  # type: ignore[arg-type]
    assert_starts_balanced(schedule, Fraction(3, 2))  # type: ignore[arg-type]


def test_a_season_longer_than_a_complete_design_repeats_it_so_pairs_meet_evenly() -> None:
    """9 players at 3 seats meet everyone once in 4 matchdays; over 10, twice or three
    times."""
    schedule = schedule_season(range(9), 3, matchdays=10, seed=5)
    counts = schedule.meeting_counts()

    assert {counts[a][b] for a in range(9) for b in range(9) if a != b} == {2, 3}


def test_a_season_longer_than_an_incomplete_design_is_searched_for() -> None:
    """20 players at 4 seats: the design stops at 5 matchdays, pairs left unmet."""
    schedule = schedule_season(range(20), 4, matchdays=7, seed=5)

    assert meeting_spread(schedule) <= MEETING_SPREAD  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "seats", "days"),
    [
        *((18, 3, 8), (24, 3, 11), (30, 3, 14), (33, 3, 16), (39, 3, 19), (63, 3, 31)),
        *((42, 3, 20), (69, 3, 34), (99, 3, 49), (28, 4, 9), (40, 4, 13), (52, 4, 17)),
        (12, 3, 4),
    ],
)
def test_sizes_beyond_the_classic_ones_have_no_pair_meeting_twice(
    n: int, seats: int, days: int
) -> None:
    """Kirkman (33, 39, 63, 69, 99), nearly Kirkman (18, 24, 30, 42) and 4-seat (28,
    40, 52) designs, and 4 matchdays of 12 players at 3 seats, as many as can fit."""
    schedule = schedule_season(range(n), seats, matchdays=days, seed="beyond")

    assert most_meetings(schedule) == 1
    assert_everyone_sits_or_rests_each_matchday(schedule)  # type: ignore[arg-type]
