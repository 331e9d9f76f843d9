"""Cutting a season's seeding into divisions (``leagues.divisions``): every division can
play, sizes are even where the last close's moves allow, the seed order is kept, and a
promotion is never undone; season lengths that give every player the same fixtures."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.divisions import equal_lengths, fixture_period, size_bounds, split
from leagues.promotion import moves, seeding
from leagues.scheduling import schedule_season

seats = st.sampled_from([2, 3, 4])


def levels(groups: list[list[str]]) -> dict[str, int]:
    return {p: level for level, group in enumerate(groups, start=1) for p in group}


def test_seven_at_three_seats_are_four_and_three_never_three_three_one() -> None:
    cut = split([f"p{i}" for i in range(7)], seats=3, target=3)

    assert cut.sizes == [4, 3]
    assert cut.notes(str, seats=3) == [
        "Division 1 has 4 players at 3 seats: one player sits out each matchday."
    ]


def test_a_promotion_is_kept_when_even_sizes_would_undo_it() -> None:
    # The walk's season 2: Erin went up, Bob down, Gina left; 6 players at 3 seats.
    final = [["dave", "carol", "alice", "bob"], ["erin", "frank"]]
    order = seeding(final, promotion=1)
    promoted, relegated = moves(final, promotion=1)

    cut = split(order, seats=3, target=4, promoted=promoted, relegated=relegated)

    assert levels(cut.divisions)["erin"] == 1
    assert cut.sizes == [6] and cut.even == [3, 3]
    assert cut.kept == ["erin"]
    assert cut.notes(str.title, seats=3)[0].startswith(
        "One division of 6 players rather than divisions of 3 + 3 players, so that Erin keeps"
    )


def test_a_relegation_the_sizes_cannot_take_is_said() -> None:
    final = [["a1", "a2", "a3"], ["b1", "b2", "b3"]]
    order = seeding(final, promotion=1)  # a1 a2 b1 / a3 b2 b3
    promoted, relegated = moves(final, promotion=1)

    # Two newcomers make 8 at 4 seats with divisions of about 4: a3 must stay in 2.
    cut = split([*order, "n1", "n2"], seats=4, target=4, promoted=promoted, relegated=relegated)

    assert levels(cut.divisions)["b1"] == 1
    assert cut.undone or levels(cut.divisions)["a3"] == 2


@given(st.integers(0, 120), seats, st.none() | st.integers(2, 40))
def test_every_division_can_play_and_sizes_are_even_in_seed_order(
    n: int, table: int, target: int | None
) -> None:
    target = None if target is None else max(target, table)
    order = list(range(n))

    cut = split(order, table, target)

    assert [p for group in cut.divisions for p in group] == order
    assert cut.kept == [] and cut.undone == []
    if n >= table:
        assert all(size >= table for size in cut.sizes)
    if target is not None and n >= table:
        assert max(cut.sizes) <= size_bounds(table, target)[1]
    if cut.sizes:
        assert max(cut.sizes) - min(cut.sizes) <= 1
        assert cut.sizes == sorted(cut.sizes, reverse=True)  # the larger on top


@st.composite
def closes(draw: st.DrawFn) -> tuple[list[list[str]], int, int, int, list[str]]:
    """A closed season's final order, its promotion, the table and division sizes, and
    the next season's seeding: some players gone, some newcomers at the end."""
    table = draw(seats)
    sizes = draw(st.lists(st.integers(table, 12), min_size=1, max_size=5))
    final = [[f"d{level}p{rank}" for rank in range(size)] for level, size in enumerate(sizes, 1)]
    promotion = draw(st.integers(0, 4))
    order = seeding(final, promotion)
    gone = draw(st.sets(st.sampled_from(order), max_size=len(order) // 2))
    newcomers = [f"new{i}" for i in range(draw(st.integers(0, 8)))]
    target = draw(st.integers(table, 14))
    return final, promotion, table, target, [p for p in order if p not in gone] + newcomers


@given(closes())
def test_no_promotion_is_undone_and_nothing_gives_way_unless_a_move_needs_it(
    close: tuple[list[list[str]], int, int, int, list[str]],
) -> None:
    final, promotion, table, target, order = close
    promoted, relegated = moves(final, promotion)

    cut = split(order, table, target, promoted=promoted, relegated=relegated)

    assert [p for group in cut.divisions for p in group] == order
    level = levels(cut.divisions)
    for player, to in promoted.items():
        if player in level:
            assert level[player] <= to
    assert [(p, to, level[p]) for p, to in relegated.items() if p in level and level[p] < to] == (
        cut.undone
    )
    if len(order) >= table:
        assert all(size >= table for size in cut.sizes)
    if not cut.kept:
        # Nothing gave way: the cut is the even one, every size within the bounds.
        assert cut.sizes == cut.even
        assert max(cut.sizes) - min(cut.sizes) <= 1
        if len(order) >= 2 * table:
            assert max(cut.sizes) <= size_bounds(table, target)[1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 24), seats, st.integers(0, 2**16))
def test_the_equal_lengths_give_every_player_the_same_fixtures_in_the_scheduler(
    n: int, table: int, seed: int
) -> None:
    if n < table:
        return
    period = fixture_period(n, table)
    for days in (period, period + 1):
        counts = set(
            schedule_season(range(n), table, matchdays=days, seed=seed).fixture_counts().values()
        )
        # Exactly the multiples of the period are fair.
        assert (len(counts) == 1) == (days % period == 0)
    assert equal_lengths([n], table, 3 * period) == [period, 2 * period, 3 * period]
