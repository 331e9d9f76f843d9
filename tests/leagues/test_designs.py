"""The designs behind fair schedules (``leagues.designs``): finite fields, affine
planes, and the developments found for the families of Kirkman, nearly Kirkman and
4-seat resolvable designs; each a set of matchdays in which every player sits at one
full table and no pair meets twice."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.designs import (
    Design,
    Development,
    Field,
    affine,
    design_for,
    develop,
    developments,
    fixed_table_development,
    four_seats_rotated,
    kirkman_doubled,
    kirkman_tripled,
    most_rounds,
    multiplied,
    product,
)


def met_pairs(design: Design) -> Counter[tuple[int, int]]:
    """Every pair that meets, with how often; each matchday checked to seat every
    player once at a full table."""
    met: Counter[tuple[int, int]] = Counter()
    for tables in design.rounds:
        assert sorted(p for table in tables for p in table) == list(range(design.players))
        assert {len(table) for table in tables} == {design.seats}
        met.update(pair for table in tables for pair in itertools.combinations(sorted(table), 2))
    return met


def assert_resolvable(
    design: Design, players: int, seats: int, rounds: int
) -> Counter[tuple[int, int]]:
    assert (design.players, design.seats, len(design.rounds)) == (players, seats, rounds)
    met = met_pairs(design)
    assert max(met.values()) == 1
    assert design.complete == (len(met) == players * (players - 1) // 2)
    return met


PRIME_POWERS = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 32]


@pytest.mark.parametrize("q", PRIME_POWERS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_field_adds_and_multiplies_as_a_field(q: int, data: st.DataObject) -> None:
    field = Field(q)
    add, mul = field.add, field.mul
    a, b, c = (data.draw(st.integers(0, q - 1)) for _ in range(3))

    assert add[a][add[b][c]] == add[add[a][b]][c]
    assert mul[a][mul[b][c]] == mul[mul[a][b]][c]
    assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]
    assert add[a][0] == a and mul[a][1] == a
    assert 0 in add[a]
    if a:
        assert 1 in mul[a]


def test_a_field_needs_a_prime_power() -> None:
    with pytest.raises(ValueError, match=r"^no field of 12 elements: 12 is not a prime power$"):
        Field(12)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 11, 13, 16])
def test_the_affine_plane_of_every_prime_power_order_meets_every_pair_once(q: int) -> None:
    """q² players at q seats over q + 1 matchdays."""
    plane = affine(q, 2)

    assert_resolvable(plane, q * q, q, q + 1)
    assert plane.complete


@pytest.mark.parametrize("players", range(9, 64, 6))
def test_a_kirkman_triple_system_is_built_for_every_6t_plus_3_players(players: int) -> None:
    """3t + 1 matchdays of triples, every pair once. (Beyond: 75, 87, 93 constructed,
    99 and 117 products, 69 with the fixed players' table.)"""
    design = design_for(players, 3, most_rounds(players, 3))

    assert design is not None
    assert_resolvable(design, players, 3, (players - 1) // 2)
    assert design.complete


@pytest.mark.parametrize("players", [*range(18, 49, 6), 66])
def test_a_nearly_kirkman_triple_system_is_built_for_every_6t_players_from_18(
    players: int,
) -> None:
    """3t - 1 matchdays of triples; the pairs that never meet are a perfect matching.
    (42 by the search with a multiplier, 66 by one long start, the others by the
    restarts; 54 and 60 too, 72 and 108 as products.)"""
    design = design_for(players, 3, most_rounds(players, 3))

    assert design is not None
    met = assert_resolvable(design, players, 3, (players - 2) // 2)
    unmet = [pair for pair in itertools.combinations(range(players), 2) if pair not in met]
    assert sorted(p for pair in unmet for p in pair) == list(range(players))


@pytest.mark.parametrize("players", [16, 28, 40, 52])
def test_a_resolvable_four_seat_design_is_built_for_12t_plus_4_players(players: int) -> None:
    """4t + 1 matchdays of tables of four, every pair once: 16 and 28 by the search,
    40 by :func:`four_seats_rotated`, 52 by the search with a multiplier."""
    design = design_for(players, 4, most_rounds(players, 4))

    assert design is not None
    assert_resolvable(design, players, 4, (players - 1) // 3)
    assert design.complete


KIRKMAN_ORDERS = [7, 13, 19, 25, 31, 37, 43, 49]
"""The prime powers 6t + 1 up to 49: Kirkman systems of 15 .. 99 and 21 .. 147."""


@pytest.mark.parametrize("q", KIRKMAN_ORDERS)
def test_the_doubled_kirkman_construction_meets_every_pair_once(q: int) -> None:
    """Ray-Chaudhuri and Wilson: 2q + 1 players, q matchdays."""
    design = kirkman_doubled(q)

    assert_resolvable(design, 2 * q + 1, 3, q)
    assert design.complete


@pytest.mark.parametrize("q", KIRKMAN_ORDERS)
def test_the_tripled_kirkman_construction_meets_every_pair_once(q: int) -> None:
    """3q players, (3q - 1) / 2 matchdays."""
    design = kirkman_tripled(q)

    assert_resolvable(design, 3 * q, 3, (3 * q - 1) // 2)
    assert design.complete


@pytest.mark.parametrize(
    ("first", "second"),
    [(3, 9), (3, 15), (9, 3), (9, 9), (3, 21), (15, 9), (3, 33), (9, 15)],
)
def test_the_product_of_two_kirkman_systems_meets_every_pair_once(first: int, second: int) -> None:
    """KTS(u), KTS(v) -> KTS(uv); with u = 3, the tripling KTS(v) -> KTS(3v)."""
    small = design_for(first, 3, most_rounds(first, 3))
    large = design_for(second, 3, most_rounds(second, 3))
    assert small is not None and large is not None

    design = product(small, large)

    players = first * second
    assert_resolvable(design, players, 3, (players - 1) // 2)
    assert design.complete


@settings(max_examples=20, deadline=None)
@given(
    first=st.sampled_from([(3, 3), (9, 3), (12, 3), (15, 3), (24, 3), (4, 4), (16, 4), (20, 4)]),
    second=st.sampled_from([3, 9, 15, 21, 4, 16, 28]),
    data=st.data(),
)
def test_any_design_times_a_complete_one_seats_everyone_and_no_pair_twice(
    first: tuple[int, int], second: int, data: st.DataObject
) -> None:
    """Whatever the first design's length (a packing too), the product adds ``u`` of
    the second's matchdays for each, and no pair meets twice."""
    u, seats = first
    if second % seats or (second - 1) % (seats - 1):
        return
    days = data.draw(st.integers(1, most_rounds(u, seats)))
    small = design_for(u, seats, days)
    large = design_for(second, seats, most_rounds(second, seats))
    if small is None:
        return
    assert large is not None

    design = product(small, large)

    rounds = len(small.rounds) + u * len(large.rounds)
    assert_resolvable(design, u * second, seats, rounds)


@pytest.mark.parametrize("second", [16, 28])
def test_the_product_of_four_seat_designs_over_gf4_meets_every_pair_once(second: int) -> None:
    """The 4 players of one table (a transversal design over GF(4)) times 16 or 28."""
    table = design_for(4, 4, 1)
    large = design_for(second, 4, most_rounds(second, 4))
    assert table is not None and large is not None

    design = product(table, large)

    assert_resolvable(design, 4 * second, 4, (4 * second - 1) // 3)
    assert design.complete


def test_a_product_needs_a_complete_second_design_and_a_transversal_design() -> None:
    """No ring of 18 or 6 elements with 3 or 4 that differ by units; NKTS(18) is not
    complete."""
    sixteen = design_for(16, 4, 5)
    nearly = design_for(18, 3, 8)
    assert sixteen is not None and nearly is not None

    with pytest.raises(ValueError, match=r"^no product of 18 and 18 players at 3 seats$"):
        product(nearly, nearly)
    with pytest.raises(ValueError, match=r"^no product of 24 and 18 players at 3 seats$"):
        product(dataclasses.replace(nearly, players=24), nearly)
    with pytest.raises(ValueError, match=r"^no product of 6 and 16 players at 4 seats$"):
        product(dataclasses.replace(sixteen, players=6), sixteen)


@pytest.mark.parametrize(("players", "seats"), [(45, 3), (99, 3), (117, 3), (112, 4)])
def test_sizes_of_two_factors_are_built_as_products(players: int, seats: int) -> None:
    """45 = 3·15, 99 = 3·33, 117 = 3·39 Kirkman systems and 112 = 4·28 at 4 seats,
    none of which the other constructions give."""
    design = design_for(players, seats, most_rounds(players, seats))

    assert design is not None
    assert_resolvable(design, players, seats, most_rounds(players, seats))
    assert design.complete


@pytest.mark.parametrize("players", [72, 108])
def test_nearly_kirkman_systems_times_a_kirkman_system_are_nearly_kirkman(players: int) -> None:
    """NKTS(24) and NKTS(36) times the table of 3, over GF(8) x GF(3) and GF(4) x
    GF(9): the pairs that never meet are still a perfect matching."""
    design = design_for(players, 3, most_rounds(players, 3))

    assert design is not None
    met = assert_resolvable(design, players, 3, (players - 2) // 2)
    unmet = [pair for pair in itertools.combinations(range(players), 2) if pair not in met]
    assert sorted(p for pair in unmet for p in pair) == list(range(players))


def test_kirkman_69_is_built_with_the_fixed_players_table() -> None:
    """34 matchdays; one of them the table of the three fixed players and the triples
    ``{x, x + 11, x + 22}`` of each row modulo 33."""
    design = design_for(69, 3, 34)

    assert design is not None
    assert_resolvable(design, 69, 3, 34)
    assert design.rounds[-1][:3] == ((0, 1, 2), (3, 14, 25), (4, 15, 26))


@pytest.mark.parametrize(("players", "seats"), [(33, 3), (45, 3), (28, 4)])
def test_a_development_with_the_fixed_players_table_is_a_design(players: int, seats: int) -> None:
    development = fixed_table_development(players, seats)
    assert development is not None

    design = develop(development, steps=20_000)

    assert design is not None
    assert_resolvable(design, players, seats, development.rounds)
    assert design.complete
    assert design.rounds[-1] == development.fixed_table_round()


def test_each_complete_size_has_a_development_with_the_fixed_players_table() -> None:
    """6t + 3 players at 3 seats: two rows modulo 3t and three fixed players; 12t + 4
    at 4: three rows modulo 4t and four; other sizes none."""
    assert fixed_table_development(69, 3) == Development(3, 33, 2, 3, 33, fixed_table=True)
    assert fixed_table_development(52, 4) == Development(4, 16, 3, 4, 16, fixed_table=True)
    assert fixed_table_development(24, 3) is None
    assert fixed_table_development(32, 4) is None


@pytest.mark.parametrize("q", [1, 9, 11, 35])
def test_the_kirkman_constructions_need_a_prime_power_6t_plus_1(q: int) -> None:
    for construction in (kirkman_doubled, kirkman_tripled):
        with pytest.raises(ValueError, match=rf"^{q} is not a prime power of the form 6t \+ 1$"):
            construction(q)


def test_the_rotated_four_seat_construction_meets_every_pair_once() -> None:
    """40 players, 13 matchdays: the resolvable (40, 4, 1) design."""
    design = four_seats_rotated(13)

    assert design is not None
    assert_resolvable(design, 40, 4, 13)
    assert design.complete


def test_the_rotated_four_seat_construction_is_bounded_by_steps() -> None:
    assert four_seats_rotated(13, steps=5_000) is None
    with pytest.raises(ValueError, match=r"^17 is not a prime power of the form 12t \+ 1$"):
        four_seats_rotated(17)


@pytest.mark.parametrize("players", [63, 75, 87, 93])
def test_kirkman_sizes_the_search_does_not_reach_are_constructed(players: int) -> None:
    """63, 75 and 87 are 2q + 1 and 93 is 3q for q = 31, 37, 43 and 31."""
    design = design_for(players, 3, most_rounds(players, 3))

    assert design is not None
    assert_resolvable(design, players, 3, (players - 1) // 2)


@settings(max_examples=15, deadline=None)
@given(
    seats=st.sampled_from([3, 4]),
    tables=st.integers(1, 8),
    data=st.data(),
)
def test_a_design_found_for_any_size_seats_everyone_and_no_pair_twice(
    seats: int, tables: int, data: st.DataObject
) -> None:
    players = seats * tables
    days = data.draw(st.integers(1, most_rounds(players, seats)))

    design = design_for(players, seats, days)

    if design is not None:
        assert len(design.rounds) >= days
        assert_resolvable(design, players, seats, len(design.rounds))


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from([3, 4]), tables=st.integers(2, 6), seed=st.integers(0, 50))
def test_a_development_found_is_a_design(seats: int, tables: int, seed: int) -> None:
    players = seats * tables
    for development in developments(players, seats, 2)[:3]:
        design = develop(development, seed=seed)
        if design is not None:
            assert_resolvable(design, players, seats, development.rounds)


def multiplier_image(development: Development, p: int) -> int:
    """Where ``development``'s multiplier takes player ``p``."""
    fixed, modulus = development.fixed, development.modulus
    if p < fixed:
        return p
    row, x = divmod(p - fixed, modulus)
    turned = (row + development.turn) % development.rows
    return fixed + turned * modulus + development.multiplier * x % modulus


def multiplier_group(development: Development) -> set[tuple[int, ...]]:
    """The maps that the powers of ``development``'s multiplier make."""
    players = range(development.players)
    power = tuple(players)
    group = set()
    while power not in group:
        group.add(power)
        power = tuple(multiplier_image(development, p) for p in power)
    return group


@pytest.mark.parametrize(
    ("development", "rounds"),
    [
        # NKTS(42): three rows modulo 14, the multiplier 9 (of order 3) turning them.
        (Development(3, 14, 3, 0, 14, transversals=6, multiplier=9, turn=1), 20),
        # The resolvable (52, 4, 1) design: ∞ and three rows modulo 17, times 4.
        (Development(4, 17, 3, 1, 17, multiplier=4), 17),
    ],
)
def test_a_development_with_a_multiplier_is_a_design_the_multiplier_leaves_as_it_is(
    development: Development, rounds: int
) -> None:
    design = develop(development, steps=30_000)

    assert design is not None
    assert_resolvable(design, development.players, development.seats, rounds)
    tables = {frozenset(table) for day in design.rounds for table in day}
    assert {frozenset(multiplier_image(development, p) for p in t) for t in tables} == tables


@pytest.mark.parametrize(
    "development",
    [Development(3, 7, 3, 0, 7, transversals=3), Development(4, 17, 3, 1, 17)],
)
def test_each_multiplier_tried_makes_a_group_of_its_own_the_smallest_first(
    development: Development,
) -> None:
    groups = [frozenset(multiplier_group(d)) for d in multiplied(development)]

    assert len(set(groups)) == len(groups)
    assert all(len(group) > 1 for group in groups)
    assert [len(group) for group in groups] == sorted(len(group) for group in groups)


def test_a_development_shifts_its_base_matchday() -> None:
    """Kirkman's schoolgirls: two rows of the integers modulo 7 and one fixed player;
    the second matchday is the first with every number one higher."""
    design = develop(Development(seats=3, modulus=7, rows=2, fixed=1, period=7))

    assert design is not None
    first, second = design.rounds[0], design.rounds[1]

    def shifted(p: int) -> int:
        return p if p == 0 else 1 + (p - 1) // 7 * 7 + (p - 1 + 1) % 7

    assert {tuple(sorted(map(shifted, t))) for t in first} == set(second)


def test_the_same_size_gets_the_same_design_on_every_search() -> None:
    """Bounded by steps, not time: the answer does not depend on the machine."""
    development = developments(21, 3, 10)[0]
    multiplied_42 = Development(3, 14, 3, 0, 14, transversals=6, multiplier=9, turn=1)

    assert develop(development, seed=3) == develop(development, seed=3)
    assert develop(multiplied_42, steps=3_000) == develop(multiplied_42, steps=3_000)


def test_sizes_with_byes_or_too_many_matchdays_have_no_design() -> None:
    assert design_for(10, 3, 4) is None
    # 20 players at 4 seats meet 19 others at most over 6 matchdays, and 6 do not
    # let every pair meet, so a design cannot be repeated over 7.
    assert design_for(20, 4, 7) is None
