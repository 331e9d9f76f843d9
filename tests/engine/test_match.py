"""Tests for bot-against-bot matches (``python -m engine match``)."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from engine import match
from engine.__main__ import main
from engine.actions import Action
from engine.bots import BOT_STEPS, Level, choose_for
from engine.match import (
    GameRecord,
    MatchResult,
    entrant_names,
    format_result,
    parse_levels,
    play_game,
    run_match,
)
from engine.ruleset import Ruleset
from engine.solver import Budget
from engine.state import GameState

TWO = Ruleset(players=2)
LOOSE: dict[Level, int] = {"strong": 10**12, "normal": 10**12, "easy": 10**12}
"""Steps no move reaches: the bots as they play unbounded."""


@pytest.fixture(scope="module")
def normal_against_easy() -> MatchResult:
    """One short match, shared by the tests that read it (a game takes about a second)."""
    return run_match(["normal", "easy"], 8, seed=1, ruleset=TWO)


def test_a_match_adds_up_its_games(normal_against_easy: MatchResult) -> None:
    result = normal_against_easy
    standings = result.standings
    assert [s.name for s in standings] == ["normal", "easy"]
    assert all(s.games == 8 for s in standings)
    assert sum(s.wins for s in standings) <= 8
    assert result.capped == 0
    for record in result.records:
        assert sum(record.scores) == 0  # zero-sum scoring under the standard rules
        assert record.winner is not None
        assert record.tiles_left[record.winner] == 0
    assert sum(s.total_score for s in standings) == 0
    assert [r.index for r in result.records] == list(range(8))


def test_normal_beats_easy_clearly(normal_against_easy: MatchResult) -> None:
    normal, easy = normal_against_easy.standings
    assert normal.wins >= 7
    assert normal.average_score > 0 > easy.average_score
    assert normal.average_tiles_left < easy.average_tiles_left


def test_swapping_the_entrants_plays_the_same_games_seen_from_the_other_side() -> None:
    ab = play_game(["normal", "easy"], TWO, seed=8, index=0)
    ba = play_game(["easy", "normal"], TWO, seed=8, index=1)
    assert ab.scores == ba.scores[::-1]
    assert ab.tiles_left == ba.tiles_left[::-1]
    assert ab.winner is not None and ba.winner == 1 - ab.winner


def test_a_match_replays_from_its_seed() -> None:
    first = run_match(["strong", "normal"], 1, seed="again", ruleset=TWO)
    assert run_match(["strong", "normal"], 1, seed="again", ruleset=TWO) == first


def test_a_game_that_passes_the_turn_cap_is_counted_as_capped() -> None:
    record = play_game(["easy", "easy"], TWO, seed=2, index=0, max_turns=3)
    assert record.capped and record.winner is None and record.scores == (0, 0)
    assert record.turns == 3


def test_three_bots_share_a_table() -> None:
    result = run_match(["strong", "normal", "easy"], 3, seed=4, ruleset=Ruleset(players=3))
    assert [s.games for s in result.standings] == [3, 3, 3]
    assert sum(s.wins for s in result.standings) <= 3


def test_a_level_playing_twice_is_numbered() -> None:
    assert entrant_names(["normal", "normal", "easy"]) == ("normal#1", "normal#2", "easy")


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level 'hard'"):
        parse_levels("easy,hard")
    with pytest.raises(ValueError, match="2 entrants for a table of 3"):
        play_game(["easy", "easy"], Ruleset(players=3), seed=1, index=0)


def test_the_table_lists_every_bot_and_a_summary() -> None:
    records = (
        GameRecord(0, (10, -10), (0, 2), 0, 30, False),
        GameRecord(1, (0, 0), (5, 6), None, 1000, True),
    )
    text = format_result(MatchResult(("strong", "normal"), records), seconds=12.3)
    lines = text.splitlines()
    assert lines[0].split() == [
        "bot",
        "games",
        "wins",
        "win",
        "rate",
        "avg",
        "score",
        "avg",
        "tiles",
        "left",
    ]
    assert lines[1].split() == ["strong", "2", "1", "50.0%", "+5.00", "2.50"]
    assert lines[2].split() == ["normal", "2", "0", "0.0%", "-5.00", "4.00"]
    assert lines[3] == (
        "2 games, 1 capped in 12 s: strong wins 50.0% (avg +5.00), normal wins 0.0% (avg -5.00)"
    )


def test_the_command_prints_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--bots", "normal,easy", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[1:3]] == ["normal", "easy"]
    assert re.fullmatch(r"2 games, 0 capped in \d+ s: normal wins .*", out[3])


def test_the_command_fills_the_seats_by_repeating_the_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--bots", "easy", "--players", "3", "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out[1:4]] == ["easy#1", "easy#2", "easy#3"]


def test_the_command_refuses_a_bad_level_or_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--bots", "normal,wizard"]) == 2
    assert "unknown bot level 'wizard'" in capsys.readouterr().err
    assert main(["match", "--bots", "easy", "--players", "5"]) == 2
    assert "players must be" in capsys.readouterr().err


def test_python_m_engine_match_runs_in_two_processes() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "match",
            "--bots",
            "normal,easy",
            "--games",
            "2",
            "--jobs",
            "2",
            "--seed",
            "9",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    single = format_result(run_match(["normal", "easy"], 2, seed=9, ruleset=TWO))
    # The same games whether played in one process or two (the timing aside).
    assert done.stdout.splitlines()[:3] == single.splitlines()[:3]


# --- the bots' budget ----------------------------------------------------------------------


def test_every_move_of_a_match_is_bounded_by_its_levels_steps_as_on_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple[str, Budget | None]] = []

    def spy(
        state: GameState, seat: int, level: Level, rng: random.Random, budget: Budget | None = None
    ) -> Action:
        asked.append((level, budget))
        return choose_for(state, seat, level, rng, budget)

    monkeypatch.setattr(match, "choose_for", spy)
    play_game(["normal", "easy"], TWO, seed=8, index=0)
    assert {level for level, _ in asked} == {"normal", "easy"}
    assert all(budget == Budget(steps=BOT_STEPS[level]) for level, budget in asked)


def test_the_same_seed_plays_the_same_match_again_with_the_budget_in_force() -> None:
    """Steps that bind on nearly every move (wall time would make each run differ):
    the budget cuts the search short at the same step every time, in one process or two."""
    tight: dict[Level, int] = {"strong": 300, "normal": 300, "easy": 300}
    first = run_match(["normal", "easy"], 2, seed="again", ruleset=TWO, steps=tight)
    again = run_match(["normal", "easy"], 2, seed="again", ruleset=TWO, steps=tight, jobs=2)
    assert again == first
    unbounded = run_match(["normal", "easy"], 2, seed="again", ruleset=TWO, steps=LOOSE)
    assert unbounded != first  # the budget was in force: it changed the games
