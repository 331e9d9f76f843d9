"""Rounds: several games among the same seats, rotating starts, cumulative scores."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Draw, Pass
from engine.game import apply, new_game
from engine.round import GameScores, Round, RoundError, Tally, forfeit, game_places
from engine.ruleset import Ruleset
from engine.state import GameState, Termination


def finish_by_drawing(state: GameState) -> GameState:
    """Everyone draws until the pool is empty, then passes: a real, blocked ending."""
    while not state.is_over:
        state = apply(state, Draw() if state.pool else Pass(), state.current_player)
    return state


def tally(mode: str, *games: tuple[int | None, tuple[int, ...]]) -> Tally:
    players = len(games[0][1])
    return Tally.of(mode, players, (GameScores(scores, winner) for winner, scores in games))


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
    assert rnd.game(0) == new_game(Ruleset(players=3), seeds[0])
    assert Round.start(Ruleset(players=3), seed=78).game(0).pool != rnd.game(0).pool


def test_the_first_game_is_decided_by_the_draw_and_later_games_rotate_clockwise() -> None:
    rnd = Round.start(Ruleset(players=4), seed="rotate")
    first = rnd.game(0)
    assert first.first_player_draw != ()
    starters, previous = [], None
    for index in range(4):
        game = rnd.game(index, previous)
        starters.append(game.starting_player)
        if index:
            assert game.first_player_draw == ()
            assert game == new_game(rnd.ruleset, rnd.game_seed(index), game.starting_player)
        previous = finish_by_drawing(game).starting_player
    assert starters == [(first.starting_player + i) % 4 for i in range(4)]
    assert rnd.is_last(3) and not rnd.is_last(2)


def test_starts_rotate_counter_clockwise_when_play_does() -> None:
    rules = Ruleset(players=3, direction="counter_clockwise")
    rnd = Round.start(rules, seed="ccw")
    first = rnd.game(0).starting_player
    assert rnd.game(1, first).starting_player == (first - 1) % 3


def test_a_round_refuses_games_it_does_not_have_or_a_later_game_without_its_rotation() -> None:
    rnd = Round.start(Ruleset(players=2), seed=5)
    with pytest.raises(RoundError, match="no game 3"):
        rnd.game(2, previous_starter=0)
    with pytest.raises(RoundError, match="previous game's starter"):
        rnd.game(1)


def test_the_schedule_round_trips_through_json() -> None:
    rnd = Round.start(Ruleset(players=3, score_mode="penalty_only"), seed="club", games=5)
    assert Round.from_dict(json.loads(json.dumps(rnd.to_dict()))) == rnd
    with pytest.raises(RoundError):
        Round.from_dict({"seed": 1})


def test_totals_and_wins_add_up_over_the_games() -> None:
    totals = tally("zero_sum", (0, (30, -10, -20)), (2, (-5, -7, 12)))
    assert totals.totals == (25, -17, -8)
    assert totals.wins == (1, 0, 1)
    assert Tally.of("zero_sum", 3, []).totals == (0, 0, 0)


def test_a_game_of_another_size_does_not_count_in_a_round() -> None:
    with pytest.raises(RoundError, match="3 seats"):
        Tally.of("zero_sum", 2, [GameScores((1, 2, -3), 0)])


def test_under_zero_sum_most_games_won_wins_the_round() -> None:
    results = tally("zero_sum", (1, (-50, 50)), (1, (-3, 3)), (0, (200, -200)), (1, (-1, 1)))
    assert results.wins == (1, 3) and results.totals == (146, -146)
    assert results.winner == 1 and results.standings == (1, 0)


def test_under_zero_sum_a_tie_in_games_won_goes_to_the_highest_score() -> None:
    results = tally("zero_sum", (0, (10, -10)), (1, (-40, 40)))
    assert results.wins == (1, 1)
    assert results.winner == 1


def test_under_penalty_only_the_lowest_total_wins_and_then_most_games_won() -> None:
    results = tally("penalty_only", (0, (0, 5, 9)), (1, (20, 0, 3)), (2, (1, 1, 0)))
    assert results.totals == (21, 6, 12)
    assert results.winner == 1 and results.standings == (1, 2, 0)
    results = tally("penalty_only", (0, (0, 5, 9)), (1, (5, 0, 3)), (0, (0, 0, 6)))
    assert results.totals == (5, 5, 18) and results.wins == (2, 1, 0)
    assert results.winner == 0 and results.places == (1, 2, 3)


def test_a_complete_tie_is_shared_and_has_no_single_winner() -> None:
    results = tally("zero_sum", (0, (10, -10)), (1, (-10, 10)))
    assert results.winners == (0, 1) and results.winner is None
    assert results.places == (1, 1)


def test_a_game_without_a_winner_counts_its_scores_and_no_win() -> None:
    results = tally("zero_sum", (None, (0, 0)), (1, (-3, 3)))
    assert results.wins == (0, 1) and results.totals == (-3, 3)


def test_places_in_a_game_put_the_winner_first_then_go_by_score() -> None:
    assert game_places("zero_sum", (-5, 12, -7, -5), winner=1) == (2, 1, 4, 2)
    # Under penalty_only a tie-break loser scores 0 like the winner, yet is second.
    assert game_places("penalty_only", (0, 0, 9), winner=0) == (1, 2, 3)
    with pytest.raises(RoundError):
        game_places("zero_sum", (1, -1), winner=2)


def test_a_round_of_real_games_sums_to_zero() -> None:
    rnd = Round.start(Ruleset(players=3), seed="club")
    games, previous = [], None
    for index in range(rnd.games):
        state = finish_by_drawing(rnd.game(index, previous))
        previous = state.starting_player
        assert state.outcome is not None
        assert state.outcome.termination is Termination.POOL_EMPTY_BLOCKED
        games.append(GameScores(state.outcome.scores, state.outcome.winner))
    assert sum(Tally.of("zero_sum", 3, games).totals) == 0


@given(
    mode=st.sampled_from(["zero_sum", "penalty_only"]),
    scores=st.lists(st.integers(-300, 300), min_size=2, max_size=4),
    data=st.data(),
)
def test_a_forfeit_puts_its_seat_last_and_keeps_the_game_s_sum(
    mode: str, scores: list[int], data: st.DataObject
) -> None:
    players = len(scores)
    seat = data.draw(st.integers(0, players - 1))
    winner = data.draw(st.none() | st.integers(0, players - 1))
    result = forfeit(mode, scores, winner, seat)
    assert result.places[seat] == players
    assert all(result.places[s] < players for s in range(players) if s != seat)
    assert result.winner != seat
    if mode == "zero_sum":
        assert sum(result.scores) == sum(scores)
        assert result.scores[seat] == min(scores)
    else:
        assert result.scores[seat] == max(scores)
    assert (result.winner is None) == (winner is None)
    with pytest.raises(RoundError):
        forfeit(mode, scores, winner, players)
