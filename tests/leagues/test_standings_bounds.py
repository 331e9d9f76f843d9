"""Best and worst possible final ranks are sound: for small seasons, every way the games
left could end (scores within the rules' bounds) is played out by brute force, and the
final rank must lie within the bounds given before."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.standings import (
    EXPLANATIONS,
    FixtureResults,
    GameResult,
    Player,
    Rules,
    compute,
)

SCORES = (-2, 0, 2)
"""Each seat's score in an enumerated game: the bounds and the middle (penalty points
use 0..2)."""


def finished_game(scores: Sequence[int], lowest_wins: bool) -> GameResult:
    sign = 1 if lowest_wins else -1
    places = {s: 1 + sum(sign * o < sign * v for o in scores) for s, v in enumerate(scores)}
    best = min(range(len(scores)), key=lambda s: sign * scores[s])
    return GameResult(dict(enumerate(scores)), places, best)


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[Player], list[FixtureResults], Rules]:
    lowest_wins = draw(st.booleans())
    scoring = draw(st.sampled_from(["cumulative", "placement"]))
    tiebreaks = draw(st.permutations(list(EXPLANATIONS)))
    rules = Rules(
        scoring=scoring,
        score_mode="penalty_only" if lowest_wins else "zero_sum",
        placement_points=tuple(draw(st.sampled_from([(3, 1, 0), (4, 2, 1, 0), (1,)]))),
        tiebreaks=tuple(tiebreaks[: draw(st.integers(0, 4))]),
        game_score_bounds=(0, 2) if lowest_wins else (-2, 2),
        per_game=draw(st.booleans()),
    )
    scores = st.sampled_from((0, 1, 2) if lowest_wins else SCORES)
    count = draw(st.integers(2, 5))
    players = [Player(entry, f"P{entry}") for entry in range(count)]
    fixtures = []
    open_seats = 0
    for key in range(draw(st.integers(1, 4))):
        seats = draw(st.integers(2, min(3, count)))
        seated = draw(st.permutations(range(count)))[:seats]
        to_play = draw(st.integers(1, 2))
        played = draw(st.integers(0, to_play))
        games = tuple(
            finished_game([draw(scores) for _ in range(seats)], lowest_wins) for _ in range(played)
        )
        # The games left are enumerated: at most six seats' scores to pick in all.
        complete = played == to_play or open_seats + seats * (to_play - played) > 6
        complete = complete or draw(st.booleans())
        if not complete:
            open_seats += seats * (to_play - played)
        fixtures.append(FixtureResults(key, dict(enumerate(seated)), games, to_play, complete, key))
    return players, fixtures, rules


def endings(fixtures: list[FixtureResults], rules: Rules) -> Iterator[list[FixtureResults]]:
    """Every way the games left could end, each seat scoring one of a few values
    within the rules' bounds (the bounds themselves among them)."""
    low, high = rules.game_score_bounds
    values = sorted({low, (low + high) // 2, high})
    open_games = [(i, f.games_left) for i, f in enumerate(fixtures) if not f.complete]
    slots = [(i, len(fixtures[i].seats)) for i, left in open_games for _ in range(left)]
    choices = [itertools.product(values, repeat=seats) for _, seats in slots]
    for picked in itertools.product(*choices):
        ended = list(fixtures)
        for (index, _), scores in zip(slots, picked, strict=True):
            old = ended[index]
            more = (*old.games, finished_game(scores, rules.lowest_wins))
            ended[index] = FixtureResults(old.key, old.seats, more, old.games_to_play, False)
        yield [
            FixtureResults(f.key, f.seats, f.games, f.games_to_play, True, f.matchday)
            for f in ended
        ]


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_the_final_rank_always_lies_within_the_bounds(
    season: tuple[list[Player], list[FixtureResults], Rules],
) -> None:
    players, fixtures, rules = season
    now = compute(players, fixtures, rules)
    for ended in endings(fixtures, rules):
        final = compute(players, ended, rules)
        for row in final.rows:
            best, worst = now.bounds[row.entry]
            assert best <= row.rank <= worst, (row.name, row.rank, best, worst)


@settings(max_examples=50, deadline=None)
@given(seasons())
def test_bounds_are_ordered_and_collapse_to_the_rank_when_nothing_is_left(
    season: tuple[list[Player], list[FixtureResults], Rules],
) -> None:
    players, fixtures, rules = season
    now = compute(players, fixtures, rules)
    for row in now.rows:
        assert 1 <= row.best_rank <= row.worst_rank <= len(players)  # type: ignore[operator]
    for ended in itertools.islice(endings(fixtures, rules), 1):
        final = compute(players, ended, rules)
        assert all(row.best_rank == row.worst_rank == row.rank for row in final.rows)


def test_a_leader_out_of_reach_is_certain_of_first_place() -> None:
    rules = Rules(game_score_bounds=(-10, 10))
    far = finished_game([100, -10], lowest_wins=False)
    fixtures = [
        FixtureResults(1, {0: 0, 1: 1}, (far,), 1, True),
        FixtureResults(2, {0: 1, 1: 2}, (), 2, False),
    ]
    result = compute([Player(0, "Ann"), Player(1, "Bob"), Player(2, "Cy")], fixtures, rules)

    bounds = {row.name: (row.best_rank, row.worst_rank) for row in result.rows}
    # Ann cannot be caught (Bob ends within -30..10, Cy within -20..20); the others may
    # finish either way round.
    assert bounds == {"Ann": (1, 1), "Cy": (2, 3), "Bob": (2, 3)}
