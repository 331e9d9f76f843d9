"""Rounds: several games among the same seats, rotating starts, cumulative scores."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine.actions import Draw, Pass
from engine.game import apply, new_game
from engine.round import Round, RoundError
from engine.ruleset import Ruleset
from engine.state import GameState, Outcome, Termination


def finish_by_drawing(state: GameState) -> GameState:
    """Everyone draws until the pool is empty, then passes: a real, blocked ending."""
    while not state.is_over:
        state = apply(state, Draw() if state.pool else Pass(), state.current_player)
    return state


def ended(state: GameState, winner: int, scores: tuple[int, ...]) -> GameState:
    """The state with a made-up outcome, to test the round's arithmetic."""
    outcome = Outcome(Termination.WENT_OUT, winner, tuple(abs(s) for s in scores), scores)
    return replace(state, outcome=outcome)


def play_round(rnd: Round, results: Sequence[tuple[int, tuple[int, ...]]]) -> Round:
    for winner, scores in results:
        rnd = rnd.record(ended(rnd.next_game(), winner, scores))
    return rnd


def test_a_round_has_as_many_games_as_players_unless_told_otherwise() -> None:
    assert Round.start(Ruleset(players=2), seed=1).games == 2
    assert Round.start(Ruleset(players=4), seed=1).games == 4
    assert Round.start(Ruleset(players=4), seed=1, games=6).games == 6
    with pytest.raises(RoundError):
        Round.start(Ruleset(players=4), seed=1, games=0)


def test_each_game_is_seeded_from_the_round_seed() -> None:
    rnd = Round.start(Ruleset(players=3), seed=77)
    seeds = [rnd.game_seed(i) for i in range(3)]
    assert len(set(seeds)) == 3
    assert seeds == [Round.start(Ruleset(players=3), seed=77).game_seed(i) for i in range(3)]
    assert rnd.next_game() == new_game(Ruleset(players=3), seeds[0])
    assert Round.start(Ruleset(players=3), seed=78).next_game().pool != rnd.next_game().pool


def test_the_first_game_is_decided_by_the_draw_and_later_games_rotate_clockwise() -> None:
    rnd = Round.start(Ruleset(players=4), seed="rotate")
    first = rnd.next_game()
    assert first.first_player_draw != ()
    starters = []
    for index in range(4):
        game = rnd.next_game()
        starters.append(game.starting_player)
        if index:
            assert game.first_player_draw == ()
            assert game == new_game(rnd.ruleset, rnd.game_seed(index), game.starting_player)
        rnd = rnd.record(finish_by_drawing(game))
    assert starters == [(first.starting_player + i) % 4 for i in range(4)]
    assert rnd.is_over


def test_starts_rotate_counter_clockwise_when_play_does() -> None:
    rules = Ruleset(players=3, direction="counter_clockwise")
    rnd = Round.start(rules, seed="ccw")
    first = rnd.next_game().starting_player
    rnd = rnd.record(finish_by_drawing(rnd.next_game()))
    assert rnd.next_game().starting_player == (first - 1) % 3


def test_totals_and_wins_add_up_over_the_games() -> None:
    rnd = play_round(
        Round.start(Ruleset(players=3), seed=5), [(0, (30, -10, -20)), (2, (-5, -7, 12))]
    )
    assert rnd.totals == (25, -17, -8)
    assert rnd.wins == (1, 0, 1)
    assert not rnd.is_over and rnd.winner is None


def test_under_zero_sum_most_games_won_wins_the_round() -> None:
    results = [(1, (-50, 50)), (1, (-3, 3)), (0, (200, -200)), (1, (-1, 1))]
    rnd = play_round(Round.start(Ruleset(players=2), seed=5, games=4), results)
    assert rnd.wins == (1, 3) and rnd.totals == (146, -146)
    assert rnd.winner == 1 and rnd.standings == (1, 0)


def test_under_zero_sum_a_tie_in_games_won_goes_to_the_highest_score() -> None:
    rnd = play_round(Round.start(Ruleset(players=2), seed=5), [(0, (10, -10)), (1, (-40, 40))])
    assert rnd.wins == (1, 1)
    assert rnd.winner == 1


def test_under_penalty_only_the_lowest_total_wins_and_then_most_games_won() -> None:
    rules = Ruleset(players=3, score_mode="penalty_only")
    rnd = play_round(Round.start(rules, seed=5), [(0, (0, 5, 9)), (1, (20, 0, 3)), (2, (1, 1, 0))])
    assert rnd.totals == (21, 6, 12)
    assert rnd.winner == 1 and rnd.standings == (1, 2, 0)
    rnd = play_round(Round.start(rules, seed=5), [(0, (0, 5, 9)), (1, (5, 0, 3)), (0, (0, 0, 6))])
    assert rnd.totals == (5, 5, 18) and rnd.wins == (2, 1, 0)
    assert rnd.winner == 0


def test_a_complete_tie_is_shared_and_has_no_single_winner() -> None:
    rnd = play_round(Round.start(Ruleset(players=2), seed=5), [(0, (10, -10)), (1, (-10, 10))])
    assert rnd.is_over
    assert rnd.winners == (0, 1) and rnd.winner is None


def test_a_round_refuses_unfinished_foreign_or_extra_games() -> None:
    rnd = Round.start(Ruleset(players=2), seed=5)
    with pytest.raises(RoundError, match="finished"):
        rnd.record(rnd.next_game())
    other = finish_by_drawing(new_game(Ruleset(players=2, rack_size=16), "x"))
    with pytest.raises(RoundError, match="ruleset"):
        rnd.record(other)
    wrong_start = 1 - rnd.next_game().starting_player
    game = finish_by_drawing(new_game(rnd.ruleset, rnd.game_seed(0), wrong_start))
    with pytest.raises(RoundError, match="starts with player"):
        rnd.record(game)
    rnd = play_round(rnd, [(0, (1, -1)), (0, (1, -1))])
    with pytest.raises(RoundError, match="over"):
        rnd.next_game()
    with pytest.raises(RoundError, match="over"):
        rnd.record(ended(new_game(rnd.ruleset, 1), 0, (1, -1)))


def test_a_round_of_real_games_sums_to_zero_and_round_trips_through_json() -> None:
    rnd = Round.start(Ruleset(players=3), seed="club")
    while not rnd.is_over:
        rnd = rnd.record(finish_by_drawing(rnd.next_game()))
    assert sum(rnd.totals) == 0
    assert all(r.outcome.termination is Termination.POOL_EMPTY_BLOCKED for r in rnd.results)
    assert Round.from_dict(json.loads(json.dumps(rnd.to_dict()))) == rnd
    with pytest.raises(RoundError):
        Round.from_dict({"seed": 1})
