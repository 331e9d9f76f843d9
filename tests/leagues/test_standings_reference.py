"""The fast standings agree with the plain reference (:mod:`standings_reference`) on
random seasons: every row's counts, rank and bounds, and every meeting."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.standings import EXPLANATIONS, FixtureResults, GameResult, Player, Rules, compute
from tests.leagues.standings_reference import reference


def played_game(draw: st.DrawFn, seats: int, lowest_wins: bool) -> GameResult:
    scores = [draw(st.integers(0, 3) if lowest_wins else st.integers(-3, 3)) for _ in range(seats)]
    sign = 1 if lowest_wins else -1
    places = {s: 1 + sum(sign * o < sign * v for o in scores) for s, v in enumerate(scores)}
    winner = draw(st.sampled_from([*range(seats), None]))
    return GameResult(dict(enumerate(scores)), places, winner)


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[Player], list[FixtureResults], Rules]:
    lowest_wins = draw(st.booleans())
    rules = Rules(
        scoring=draw(st.sampled_from(["cumulative", "placement"])),
        score_mode="penalty_only" if lowest_wins else "zero_sum",
        placement_points=draw(st.sampled_from([(3, 1, 0), (4, 2, 1, 0), (1,), ()])),
        tiebreaks=tuple(draw(st.permutations(list(EXPLANATIONS)))[: draw(st.integers(0, 4))]),
        game_score_bounds=(0, 3) if lowest_wins else (-3, 3),
    )
    count = draw(st.integers(1, 9))
    # Names repeat, so the order among players tied on everything is tested too.
    players = [Player(e, draw(st.sampled_from(["Ann", "bob", "Bob", "Cy"]))) for e in range(count)]
    fixtures = []
    for key in range(draw(st.integers(0, 12))):
        seats = draw(st.integers(1, min(4, count)))
        seated = draw(st.permutations(range(count)))[:seats]
        to_play = draw(st.integers(1, 3))
        games = tuple(
            played_game(draw, seats, lowest_wins) for _ in range(draw(st.integers(0, to_play)))
        )
        complete = draw(st.booleans())
        fixtures.append(FixtureResults(key, dict(enumerate(seated)), games, to_play, complete, key))
    return players, fixtures, rules


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_the_standings_agree_with_the_plain_reference(
    season: tuple[list[Player], list[FixtureResults], Rules],
) -> None:
    players, fixtures, rules = season
    fast = compute(players, fixtures, rules)
    rows, meetings = reference(players, fixtures, rules)

    assert fast.rows == rows
    assert fast.bounds == {row.entry: (row.best_rank, row.worst_rank) for row in rows}
    for a in players:
        for b in players:
            if a is not b:
                assert fast.meeting(a.entry, b.entry) == meetings.get((a.entry, b.entry))
