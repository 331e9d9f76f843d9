"""The pure standings: points under each scoring, each tiebreak, shared ranks, the
crosstable and the words that explain them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.round import GameScores, Tally
from leagues.standings import (
    EXPLANATIONS,
    FixtureResults,
    GameResult,
    Meeting,
    Player,
    Rules,
    Standings,
    compute,
    explain,
    format_points,
)

ANN, BOB, CY, DEE = 1, 2, 3, 4
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DEE: "Dee"}


def players(*entries: int) -> list[Player]:
    return [Player(entry, NAMES[entry]) for entry in entries]


def game(*scores: int, lowest_wins: bool = False) -> GameResult:
    """A game with ``scores`` by seat; places and winner follow from them (ties share a
    place, the first best seat wins)."""
    sign = 1 if lowest_wins else -1
    places = {s: 1 + sum(sign * o < sign * v for o in scores) for s, v in enumerate(scores)}
    best = min(range(len(scores)), key=lambda s: sign * scores[s])
    return GameResult(dict(enumerate(scores)), places, best)


def fixture(
    key: int, seats: tuple[int, ...], *games: GameResult, complete: bool = True
) -> FixtureResults:
    return FixtureResults(
        key,
        dict(enumerate(seats)),
        games,
        games_to_play=len(games) if complete else len(games) + 1,
        complete=complete,
    )


def table(standings: Standings) -> list[tuple[int, str]]:
    return [(row.rank, row.name) for row in standings.rows]


def test_cumulative_zero_sum_ranks_the_highest_total_first() -> None:
    rules = Rules(score_mode="zero_sum")
    fixtures = [
        fixture(1, (ANN, BOB, CY), game(30, -10, -20), game(-5, 25, -20)),
        fixture(2, (BOB, CY, DEE), game(-4, 10, -6)),
    ]

    result = compute(players(ANN, BOB, CY, DEE), fixtures, rules)

    assert table(result) == [(1, "Ann"), (2, "Bob"), (3, "Dee"), (4, "Cy")]
    ann, bob, dee, cy = result.rows
    assert (ann.points, bob.points, cy.points, dee.points) == (25, 11, -30, -6)
    assert (bob.games_played, bob.games_won, bob.fixtures_played, bob.fixtures_won) == (3, 1, 2, 0)
    assert ann.fixtures_won == 1 and cy.fixtures_won == 1
    assert bob.average == Fraction(11, 3) and format_points(bob.average) == "3.67"


def test_cumulative_penalty_points_rank_the_lowest_total_first() -> None:
    rules = Rules(score_mode="penalty_only")
    fixtures = [fixture(1, (ANN, BOB, CY), game(0, 12, 30, lowest_wins=True))]

    result = compute(players(ANN, BOB, CY), fixtures, rules)

    assert table(result) == [(1, "Ann"), (2, "Bob"), (3, "Cy")]
    assert [row.fixtures_won for row in result.rows] == [1, 0, 0]


def test_placement_points_go_by_the_fixtures_total_and_only_once_it_is_complete() -> None:
    rules = Rules(scoring="placement", placement_points=(4, 2, 1, 0))
    fixtures = [
        fixture(1, (ANN, BOB, CY, DEE), game(30, -10, -12, -8), game(-10, 30, -12, -8)),
        fixture(2, (ANN, BOB, CY, DEE), game(0, 50, -25, -25), complete=False),
    ]

    result = compute(players(ANN, BOB, CY, DEE), fixtures, rules)

    # Ann and Bob tie on 20 for first: (4 + 2) / 2 each; Dee third, Cy last.
    points = {row.name: row.points for row in result.rows}
    assert points == {"Ann": 3, "Bob": 3, "Dee": 1, "Cy": 0}
    assert {row.name: row.total_score for row in result.rows}["Bob"] == 70
    assert [row.fixtures_won for row in result.rows] == [0, 0, 0, 0]
    assert [row.fixtures_played for row in result.rows] == [1, 1, 1, 1]


def test_tied_places_share_their_points_as_a_fraction() -> None:
    rules = Rules(scoring="placement", placement_points=(3, 1, 0))
    fixtures = [fixture(1, (ANN, BOB, CY), game(10, -5, -5))]

    result = compute(players(ANN, BOB, CY), fixtures, rules)

    assert [(row.name, row.points) for row in result.rows] == [
        ("Ann", 3),
        ("Bob", Fraction(1, 2)),
        ("Cy", Fraction(1, 2)),
    ]
    assert format_points(result.rows[1].points) == "0.5"
    assert [row.rank for row in result.rows] == [1, 2, 2]


def level_on_points() -> list[FixtureResults]:
    """Ann and Bob both on 0 points: Ann won one fixture of two, Bob two of three."""
    return [
        fixture(1, (ANN, CY), game(10, -10)),
        fixture(2, (BOB, CY), game(5, -5), game(5, -5)),
        fixture(3, (ANN, BOB), game(-10, 10)),
        fixture(4, (BOB, DEE), game(-20, 20)),
    ]


def test_fixtures_won_breaks_a_tie_on_points() -> None:
    rules = Rules(tiebreaks=("fixtures_won",))
    result = compute(players(ANN, BOB, CY, DEE), level_on_points(), rules)

    assert table(result) == [(1, "Dee"), (2, "Bob"), (3, "Ann"), (4, "Cy")]
    assert result.rows[1].fixtures_won == 2 and result.rows[2].fixtures_won == 1


def test_games_won_breaks_a_tie_on_points() -> None:
    rules = Rules(tiebreaks=("games_won",))
    ann_ahead = [
        fixture(1, (ANN, CY), game(10, -10), game(10, -10)),
        fixture(2, (BOB, CY), game(20, -20)),
    ]
    result = compute(players(ANN, BOB, CY), ann_ahead, rules)

    assert table(result) == [(1, "Ann"), (2, "Bob"), (3, "Cy")]


def test_without_a_tiebreak_that_separates_them_players_share_the_rank() -> None:
    rules = Rules(tiebreaks=("total_score",))
    level = [fixture(1, (ANN, CY), game(10, -10)), fixture(2, (BOB, DEE), game(10, -10))]

    result = compute(players(ANN, BOB, CY, DEE), level, rules)

    assert table(result) == [(1, "Ann"), (1, "Bob"), (3, "Cy"), (3, "Dee")]


def test_head_to_head_counts_only_the_games_among_the_players_still_tied() -> None:
    rules = Rules(tiebreaks=("head_to_head",))
    fixtures = [
        # Ann beats Bob twice, Bob beats Ann once: Ann +1, Bob -1 between them.
        fixture(1, (ANN, BOB), game(5, -5), game(5, -5), game(-10, 10)),
        # Cy ends level with them but never met them; Dee beat Bob often, which must not
        # count once Dee is out of the tie.
        fixture(2, (CY, DEE), game(0, 0)),
        fixture(3, (BOB, DEE), game(-1, 1), game(-1, 1)),
        fixture(4, (ANN, DEE), game(2, -2)),
    ]
    result = compute(players(ANN, BOB, CY, DEE), fixtures, rules)

    by_name = {row.name: row for row in result.rows}
    assert (by_name["Ann"].points, by_name["Bob"].points, by_name["Cy"].points) == (2, -2, 0)
    assert [row.name for row in result.rows] == ["Ann", "Cy", "Dee", "Bob"]
    assert by_name["Ann"].head_to_head is None  # not needed: alone on points


def test_head_to_head_orders_three_tied_players_by_their_meetings() -> None:
    rules = Rules(tiebreaks=("head_to_head", "total_score"))
    # All three score 0 overall; Cy finished ahead of Ann and Bob, Ann ahead of Bob.
    fixtures = [fixture(1, (ANN, BOB, CY), game(5, -15, 10), game(-5, 15, -10))]
    result = compute(players(ANN, BOB, CY), fixtures, rules)

    assert [(row.name, row.head_to_head) for row in result.rows] == [
        ("Ann", 0),
        ("Bob", 0),
        ("Cy", 0),
    ]
    assert [row.rank for row in result.rows] == [1, 1, 1]

    fixtures.append(fixture(2, (ANN, BOB, CY), game(1, -2, 1), game(-1, 2, -1)))
    fixtures.append(fixture(3, (ANN, BOB, CY), game(0, -3, 3), game(0, 3, -3)))
    result = compute(players(ANN, BOB, CY), fixtures, rules)
    # Ann: ahead of Bob 3 times, behind 3, ahead of Cy 2 times, behind 2, ... all level.
    assert all(row.head_to_head == 0 for row in result.rows)


def test_the_tiebreaks_apply_in_the_leagues_order() -> None:
    # Ann and Bob end on 0 points: Ann won a fixture and one game, Bob two games and no
    # fixture (his was level with Dee's on games won and on total).
    fixtures = [
        fixture(1, (ANN, CY), game(10, -10)),
        fixture(2, (BOB, DEE), game(6, -6), game(6, -6), game(-6, 6), game(-6, 6)),
        fixture(3, (ANN, DEE), game(-10, 10)),
    ]
    everyone = players(ANN, BOB, CY, DEE)

    fixtures_first = compute(everyone, fixtures, Rules(tiebreaks=("fixtures_won", "games_won")))
    games_first = compute(everyone, fixtures, Rules(tiebreaks=("games_won", "fixtures_won")))

    assert table(fixtures_first) == [(1, "Dee"), (2, "Ann"), (3, "Bob"), (4, "Cy")]
    assert table(games_first) == [(1, "Dee"), (2, "Bob"), (3, "Ann"), (4, "Cy")]
    ann, bob = games_first.rows[2], games_first.rows[1]
    assert (ann.fixtures_won, ann.games_won, bob.fixtures_won, bob.games_won) == (1, 1, 0, 2)
    assert bob.tiebreak_values(["games_won", "fixtures_won"]) == [2, 0]


def test_a_fixture_is_won_as_its_round_is_by_games_won_before_the_total() -> None:
    # Ann wins two games, Bob one by far: Bob has the better total, Ann the round.
    games = (game(5, -5), game(5, -5), game(-40, 40))
    result = compute(players(ANN, BOB), [fixture(1, (ANN, BOB), *games)], Rules())

    rows = {row.name: row for row in result.rows}
    assert (rows["Ann"].fixtures_won, rows["Bob"].fixtures_won) == (1, 0)
    assert rows["Bob"].points == 30
    assert (
        Tally.of(
            "zero_sum", 2, [GameScores(tuple(g.scores.values()), g.winner) for g in games]
        ).winner
        == 0
    )


def test_under_penalty_points_a_fixture_is_won_by_the_lowest_total_before_games_won() -> None:
    # Ann goes out twice but takes 30 in the last game; Bob's 20 in all is lower.
    games = tuple(game(*s, lowest_wins=True) for s in [(0, 10), (0, 10), (30, 0)])
    rules = Rules(score_mode="penalty_only", scoring="placement", placement_points=(2, 0))
    result = compute(players(ANN, BOB), [fixture(1, (ANN, BOB), *games)], rules)

    rows = {row.name: row for row in result.rows}
    assert (rows["Ann"].fixtures_won, rows["Bob"].fixtures_won) == (0, 1)
    assert (rows["Ann"].points, rows["Bob"].points) == (0, 2)


def test_a_fixture_whose_first_place_is_shared_is_won_by_nobody() -> None:
    games = (game(5, -5), game(-5, 5))
    result = compute(players(ANN, BOB), [fixture(1, (ANN, BOB), *games)], Rules())

    assert [row.fixtures_won for row in result.rows] == [0, 0]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["zero_sum", "penalty_only"]),
    st.integers(2, 4).flatmap(
        lambda seats: st.lists(
            st.tuples(
                st.lists(st.integers(-20, 20), min_size=seats, max_size=seats),
                st.one_of(st.none(), st.integers(0, seats - 1)),
            ),
            max_size=4,
        )
    ),
)
def test_the_fixtures_winner_is_always_its_rounds_winner(
    score_mode: str, played: list[tuple[list[int], int | None]]
) -> None:
    seats = len(played[0][0]) if played else 2
    entries = (ANN, BOB, CY, DEE)[:seats]
    games = [GameResult(dict(enumerate(s)), dict.fromkeys(range(seats), 1), w) for s, w in played]
    rules = Rules(score_mode=score_mode)
    done = FixtureResults(1, dict(enumerate(entries)), games, len(games), complete=True)

    result = compute(players(*entries), [done], rules)

    winner = Tally.of(score_mode, seats, [GameScores(tuple(s), w) for s, w in played]).winner
    won = {row.entry: row.fixtures_won for row in result.rows}
    assert won == {entry: int(seat == winner) for seat, entry in enumerate(entries)}


def test_the_crosstable_counts_each_pairs_games_and_who_finished_ahead() -> None:
    fixtures = [fixture(1, (ANN, BOB, CY), game(30, -10, -20), game(-5, 25, -20))]
    result = compute(players(ANN, BOB, CY), fixtures, Rules())

    cross = {row.name: cells for row, cells in result.crosstable()}
    assert cross["Ann"] == [None, Meeting(2, 1, 1), Meeting(2, 2, 0)]
    assert cross["Cy"] == [Meeting(2, 0, 2), Meeting(2, 0, 2), None]
    assert result.meeting(ANN, DEE) is None


def test_a_withdrawn_player_keeps_their_results_and_is_marked() -> None:
    fixtures = [fixture(1, (ANN, BOB), game(8, -8))]
    result = compute([Player(ANN, "Ann"), Player(BOB, "Bob", withdrawn=True)], fixtures, Rules())

    assert [(row.name, row.withdrawn, row.points) for row in result.rows] == [
        ("Ann", False, 8),
        ("Bob", True, -8),
    ]


def test_a_player_without_games_has_no_average() -> None:
    result = compute(players(ANN), [], Rules())

    assert result.rows[0].average is None and result.rows[0].rank == 1
    assert result.bounds == {ANN: (1, 1)}


def test_each_tiebreak_is_explained_in_words_in_the_leagues_order() -> None:
    rules = Rules(
        scoring="placement",
        placement_points=(4, 2, 1, 0),
        score_mode="penalty_only",
        tiebreaks=("total_score", "head_to_head"),
    )
    words = explain(rules)

    assert list(words) == ["points", "total_score", "head_to_head"]
    assert "4/2/1/0" in words["points"] and "lowest" in words["points"]
    assert words["head_to_head"] == EXPLANATIONS["head_to_head"]
    assert "lowest total ranks first" in words["total_score"]


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="tiebreak"):
        Rules(tiebreaks=("coin_toss",))
    with pytest.raises(ValueError, match="scoring"):
        Rules(scoring="elo")
    with pytest.raises(ValueError, match="score mode"):
        Rules(score_mode="golf")
