"""Promotion and relegation between divisions: the next season's seeding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from leagues.promotion import DOWN, UP, movable, seeding, zones
from leagues.standings import Row


def test_the_best_of_a_lower_division_swap_with_the_worst_of_the_one_above() -> None:
    final = [["a1", "a2", "a3", "a4", "a5"], ["b1", "b2", "b3", "b4", "b5"], ["c1", "c2", "c3"]]

    order = seeding(final, promotion=2)

    # Cut by fives, as the next season's divisions of five would be.
    assert [order[:5], order[5:10], order[10:]] == [
        ["a1", "a2", "a3", "b1", "b2"],
        ["a4", "a5", "b3", "c1", "c2"],
        ["b4", "b5", "c3"],
    ]


def test_a_small_division_keeps_one_player_who_stays() -> None:
    assert seeding([["a1", "a2"], ["b1", "b2", "b3"]], promotion=2) == [
        "a1",
        "b1",
        "a2",
        "b2",
        "b3",
    ]
    assert seeding([["a1"], ["b1", "b2"]], promotion=1) == ["a1", "b1", "b2"]


def test_no_promotion_keeps_the_order() -> None:
    final = [["a1", "a2"], ["b1", "b2"]]
    assert seeding(final, promotion=0) == ["a1", "a2", "b1", "b2"]


levels = st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=5)


@given(levels, st.integers(min_value=0, max_value=6))
def test_nobody_is_lost_orders_hold_and_exactly_the_promoted_pass_the_division_above(
    sizes: list[int], promotion: int
) -> None:
    final = [[(level, rank) for rank in range(size)] for level, size in enumerate(sizes)]

    order = seeding(final, promotion)
    assert sorted(order) == sorted(p for level in final for p in level)
    position = {player: index for index, player in enumerate(order)}
    for level, players in enumerate(final):
        stayed_or_moved = [position[p] for p in players]
        # Within a division the final order is kept.
        assert stayed_or_moved == sorted(stayed_or_moved)
        if level + 1 < len(final):
            below = final[level + 1]
            moved = min(
                promotion,
                movable(len(players), both_ends=level > 0),
                movable(len(below), both_ends=level + 1 < len(final) - 1),
            )
            # Exactly `moved` players of the lower division are seeded above the upper's last.
            assert sum(position[p] < position[players[-1]] for p in below) == moved


def test_the_lines_of_promotion_and_relegation() -> None:
    rows = [Row(entry, str(entry), False) for entry in range(6)]
    middle = zones(rows, level=2, levels=3, promotion=2)
    assert [middle[e] for e in range(6)] == [UP, UP, "", "", DOWN, DOWN]
    assert [zones(rows, 1, 3, 2)[e] for e in range(6)] == ["", "", "", "", DOWN, DOWN]
    assert set(zones(rows, 1, 1, 2).values()) == {""}
