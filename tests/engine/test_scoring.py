"""Scoring a finished game (RULES.md §8-9) under every scoring option."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.ruleset import Ruleset
from engine.scoring import GameScore, ScoringError, rack_total, score_game
from engine.tiles import JOKER, Tile, full_set, parse_tiles


def _racks(**racks: str) -> dict[str, tuple[Tile, ...]]:
    return {player: parse_tiles(text.split()) for player, text in racks.items()}


def _score(
    ending: str, racks: dict[str, tuple[Tile, ...]], winner: str | None = None, **options: Any
) -> GameScore[str]:
    return score_game(ending, racks, winner, Ruleset(**options))  # type: ignore[arg-type]


# -- a player went out ------------------------------------------------------------------


def test_going_out_wins_what_the_others_lose() -> None:
    s = _score("out", _racks(A="R10", B="B12 B13", C="", D="O1 O2 O3"), "C")
    assert s.winner == "C"
    assert s.rack_values == {"A": 10, "B": 25, "C": 0, "D": 6}
    assert s.scores == {"A": -10, "B": -25, "C": 41, "D": -6}


@pytest.mark.parametrize(
    ("options", "values"),
    [
        ({}, {"A": 0, "B": 60, "C": 1}),
        ({"joker_penalty": 25}, {"A": 0, "B": 50, "C": 1}),
        ({"score_values": "house"}, {"A": 0, "B": 50, "C": 15}),
        ({"score_values": "house", "joker_penalty": 30}, {"A": 0, "B": 50, "C": 15}),
    ],
)
def test_rack_values_follow_the_joker_penalty_and_score_values(
    options: dict[str, Any], values: dict[str, int]
) -> None:
    s = _score("out", _racks(A="", B="J J", C="R1"), "A", **options)
    assert s.rack_values == values
    assert s.scores["A"] == values["B"] + values["C"]


def test_penalty_only_gives_the_winner_nothing_and_the_losers_their_racks() -> None:
    s = _score("out", _racks(A="", B="R5 J", C="R1 K12"), "A", score_mode="penalty_only")
    assert s.scores == {"A": 0, "B": 35, "C": 13}


def test_keadle_house_scoring() -> None:
    s = score_game("out", _racks(A="", B="R1 R2", C="J K13"), "A", Ruleset.preset("keadle_house"))
    assert s.scores == {"A": 0, "B": 20, "C": 35}


@pytest.mark.parametrize(
    ("racks", "winner", "error"),
    [
        (_racks(A="", B="R1"), None, "needs its winner"),
        (_racks(A="", B="R1"), "C", "has no rack"),
        (_racks(A="R2", B="R1"), "A", "must be empty"),
        ({}, "A", "at least one rack"),
    ],
)
def test_it_refuses_a_game_that_did_not_end_that_way(
    racks: dict[str, tuple[Tile, ...]], winner: str | None, error: str
) -> None:
    with pytest.raises(ScoringError, match=error):
        _score("out", racks, winner)


def test_it_refuses_an_unknown_ending() -> None:
    with pytest.raises(ScoringError, match="the ending must be"):
        _score("abandoned", _racks(A="R1"))


# -- the pool ran out -----------------------------------------------------------------------

FOUR = _racks(A="R10 K5", B="O8", C="B9 B13", D="R6 K13")


@pytest.mark.parametrize(
    ("scoring", "scores"),
    [
        ("difference", {"A": -7, "B": 32, "C": -14, "D": -11}),
        ("face", {"A": -15, "B": 56, "C": -22, "D": -19}),
        ("winner_difference", {"A": -15, "B": 32, "C": -22, "D": -19}),
    ],
)
def test_pool_empty_scoring_methods(scoring: str, scores: dict[str, int]) -> None:
    s = _score("pool_empty", FOUR, pool_empty_scoring=scoring)
    assert s.winner == "B"
    assert s.rack_values == {"A": 15, "B": 8, "C": 22, "D": 19}
    assert s.scores == scores


@pytest.mark.parametrize(
    ("scoring", "scores"),
    [
        ("difference", {"A": 7, "B": 0, "C": 14, "D": 11}),
        ("face", {"A": 15, "B": 0, "C": 22, "D": 19}),
        ("winner_difference", {"A": 15, "B": 0, "C": 22, "D": 19}),
    ],
)
def test_penalty_only_with_an_empty_pool_charges_what_zero_sum_would_take(
    scoring: str, scores: dict[str, int]
) -> None:
    s = _score("pool_empty", FOUR, pool_empty_scoring=scoring, score_mode="penalty_only")
    assert s.scores == scores


def test_the_winner_is_ignored_when_the_pool_ran_out() -> None:
    assert _score("pool_empty", FOUR, "A").winner == "B"


def test_fewest_tiles_can_pick_another_winner() -> None:
    racks = _racks(A="R1 R2 R3", B="K13 K12", C="J O1 O2 O3")
    assert _score("pool_empty", racks).winner == "A"
    s = _score("pool_empty", racks, pool_empty_winner="fewest_tiles", pool_empty_scoring="face")
    assert s.winner == "B"
    assert s.scores == {"A": -6, "B": 42, "C": -36}


def test_difference_scoring_follows_its_formula_when_the_winner_is_not_lowest() -> None:
    # With fewest_tiles the winner may hold more points than a loser: L - W < 0, and
    # R9.3's formula is applied as written.
    racks = _racks(A="R1 R2 R3", B="K13 K12", C="J O1 O2 O3")
    s = _score("pool_empty", racks, pool_empty_winner="fewest_tiles")
    assert s.scores == {"A": 19, "B": -8, "C": -11}
    assert sum(s.scores.values()) == 0


def test_a_joker_counts_when_the_pool_ran_out() -> None:
    s = _score("pool_empty", _racks(A="J", B="K13 K12 R1"))
    assert (s.winner, s.scores) == ("B", {"A": -4, "B": 4})
    s = _score("pool_empty", _racks(A="J", B="K13 K12 R1"), joker_penalty=25)
    assert (s.winner, s.scores) == ("A", {"A": 1, "B": -1})


def test_house_values_can_change_the_winner() -> None:
    s = _score("pool_empty", _racks(A="R1 R2", B="K9"), score_values="house")
    assert (s.winner, s.rack_values, s.scores) == ("B", {"A": 20, "B": 5}, {"A": -15, "B": 15})


# -- ties ----------------------------------------------------------------------------------


def test_a_tie_on_value_goes_to_fewer_tiles_then_to_the_first_listed() -> None:
    s = _score("pool_empty", _racks(A="R2 R3", B="K5", C="O9"))
    assert s.winner == "B"
    assert s.scores == {"A": 0, "B": 4, "C": -4}
    assert _score("pool_empty", _racks(C="K5", B="R5", A="O9")).winner == "C"
    assert _score("pool_empty", _racks(A="R5", B="K5", C="O9")).winner == "A"


def test_a_tie_on_tiles_goes_to_the_lower_value_then_to_the_first_listed() -> None:
    options = {"pool_empty_winner": "fewest_tiles"}
    assert _score("pool_empty", _racks(A="R9", B="K5", C="O1 O2"), **options).winner == "B"
    assert _score("pool_empty", _racks(A="R5", B="K5", C="O1 O2"), **options).winner == "A"


# -- properties ----------------------------------------------------------------------------

_rack = st.lists(st.sampled_from([*full_set()[:20], JOKER]), max_size=8)
_players = st.lists(_rack, min_size=2, max_size=4)


@given(_players, st.sampled_from(["difference", "face"]), st.booleans())
def test_zero_sum_scores_add_up_to_zero(racks: list[list[Tile]], scoring: str, house: bool) -> None:
    named = {f"P{i}": tuple(rack) for i, rack in enumerate(racks)}
    options = {"pool_empty_scoring": scoring, "score_values": "house" if house else "face"}
    s = _score("pool_empty", named, **options)
    assert sum(s.scores.values()) == 0
    assert s.rack_values[s.winner] == min(s.rack_values.values())
    out = {**named, "P0": ()}
    assert sum(_score("out", out, "P0", **options).scores.values()) == 0


@given(_players)
def test_scores_list_the_players_in_the_order_given(racks: list[list[Tile]]) -> None:
    named = {f"P{i}": tuple(rack) for i, rack in reversed(list(enumerate(racks)))}
    s = _score("pool_empty", named)
    assert list(s.scores) == list(named) == list(s.rack_values)
    assert all(rack_total(named[p]) == s.rack_values[p] for p in named)
