"""The evidence's pure builders: turns replayed with every rack, what moved where, the
clock of each turn, and the solver's line beside what the mover did."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache

from engine.actions import Draw, Play
from engine.clock import TimeControl
from engine.game import apply, new_game
from engine.ruleset import Ruleset
from engine.tiles import parse_tiles
from moderation.selectors.evidence import clock_lines
from moderation.selectors.movement import movement
from moderation.selectors.solver_lines import (
    Answer,
    best_answer,
    line,
    position_key,
    solver_lines,
)
from moderation.selectors.turns import MoveRecord, TurnReplay, replay_turns
from tests.engine.worst_cases import single_set_case
from tests.games.players import simple_action

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def played_game(seed: int, players: int = 4, moves: int = 80) -> tuple[object, list[MoveRecord]]:
    """A game of the test player from the deal, as the move log would record it."""
    rng = random.Random(seed)
    start = new_game(Ruleset(players=players), seed, 0)
    state, records = start, []
    for seq in range(1, moves + 1):
        if state.outcome is not None:
            break
        seat = state.current_player
        action = simple_action(state, seat, rng)
        records.append(
            MoveRecord(seq, seat, action, state.turn_number, "user", T0 + timedelta(seconds=seq))
        )
        state = apply(state, action, seat)
    return start, records


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turns_chain_and_conserve_every_tile(seed: int) -> None:
    start, records = played_game(seed)
    turns = replay_turns(start, records, ["A", "B", "C", "D"])  # type: ignore[arg-type]

    assert [t.step for t in turns] == list(range(1, len(turns) + 1))
    for before, after in pairwise(turns):
        assert before.racks_after == after.racks_before
        assert before.pool_after == after.pool_before
    for turn in turns:
        on_racks = sum(len(rack) for rack in turn.racks_after)
        on_table = sum(len(s.tiles) for s in turn.moved.sets)
        assert on_racks + on_table + turn.pool_after == 106
        assert turn.played == len(turn.moved.from_rack)
        if turn.kind == "draw":
            assert len(turn.moved.to_rack) == 1
            assert turn.pool_after == turn.pool_before - 1
    assert any(turn.kind == "play" for turn in turns)


def test_movement_names_the_set_a_tile_left_and_the_rack_tiles() -> None:
    moved = movement(
        before=(parse_tiles(["R4", "R5", "R6", "R7"]), parse_tiles(["B9", "K9", "O9"])),
        after=(
            parse_tiles(["B9", "K9", "O9"]),
            parse_tiles(["R4", "R5", "R6"]),
            parse_tiles(["R7", "B7", "K7"]),
        ),
        rack_before=parse_tiles(["B7", "K7", "O1"]),
        rack_after=parse_tiles(["O1"]),
    )

    assert [s.changed for s in moved.sets] == [False, True, True]
    # One numbering, the table's after the turn: R4-R7 goes on as set 2.
    assert [(b.index, b.tiles, b.now_in) for b in moved.broken] == [
        (2, ("R4", "R5", "R6", "R7"), (2, 3))
    ]
    assert [t.origin for t in moved.sets[1].tiles] == ["", "", ""]
    assert [t.origin for t in moved.sets[2].tiles] == ["set 2", "rack", "rack"]
    assert moved.from_rack == ("B7", "K7")
    assert moved.to_rack == ()
    assert moved.extended == ()


def test_extending_a_run_is_not_breaking_it_up() -> None:
    moved = movement(
        before=(parse_tiles(["B9", "K9", "O9"]), parse_tiles(["R4", "R5", "R6"])),
        after=(parse_tiles(["B9", "K9", "O9"]), parse_tiles(["R3", "R4", "R5", "R6", "R7"])),
        rack_before=parse_tiles(["R3", "R7", "O1"]),
        rack_after=parse_tiles(["O1"]),
    )

    assert moved.broken == ()
    assert [(e.index, e.added) for e in moved.extended] == [(2, ("R3", "R7"))]
    assert [t.origin for t in moved.sets[1].tiles] == ["rack", "", "", "", "rack"]


def test_a_rewind_taking_tiles_back_to_the_racks_names_no_set() -> None:
    moved = movement(
        before=(parse_tiles(["R4", "R5", "R6"]),),
        after=(),
        rack_before=(),
        rack_after=parse_tiles(["R4", "R5", "R6"]),
    )

    assert [(b.index, b.now_in) for b in moved.broken] == [(0, ())]


def test_movement_names_the_river_and_what_the_rack_kept() -> None:
    moved = movement(
        before=(),
        after=(parse_tiles(["R1", "R2", "R3"]),),
        rack_before=parse_tiles(["R1", "R2"]),
        rack_after=parse_tiles(["B5"]),
        river_before=parse_tiles(["R3", "B5"]),
        river_after=(),
    )

    assert [t.origin for t in moved.sets[0].tiles] == ["rack", "rack", "River"]
    assert set(moved.from_river) == {"B5", "R3"}
    assert moved.to_rack == ("B5",)


def _turns_at(times: list[int], kinds: list[str]) -> list[TurnReplay]:
    start, records = played_game(7, players=2, moves=len(times))
    turns = list(replay_turns(start, records, ["A", "B"]))  # type: ignore[arg-type]
    return [
        replace(t, ended_at=T0 + timedelta(seconds=s), by=(k,))
        for t, s, k in zip(turns, times, kinds, strict=True)
    ]


def test_clock_lines_rebuild_time_used_deadlines_and_the_bank() -> None:
    control = TimeControl("live", 60, bank_seconds=30)
    turns = _turns_at([20, 100, 130], ["user", "user", "timeout"])

    lines = clock_lines(control, T0, {}, turns, {})

    assert [c.used_seconds for c in lines] == [20, 80, 30]
    assert [(c.bank_before, c.bank_after) for c in lines] == [(30, 30), (30, 10), (30, 30)]
    assert lines[1].overtime and not lines[0].overtime
    assert lines[1].deadline == T0 + timedelta(seconds=20 + 90)
    assert [c.timed_out for c in lines] == [False, False, True]


def test_clock_lines_rebuild_a_weekend_pause_in_each_seats_zone() -> None:
    """T0 is a Sunday, 21:00 in Tokyo: a Tokyo turn's clock waits for Monday 00:00 there
    (15:00 UTC); without the pause, or a zone, it runs at once."""
    paused = TimeControl("correspondence", 86400, weekend_pause=True)
    turns = _turns_at([3600, 7200], ["user", "user"])
    tokyo = {0: ZoneInfo("Asia/Tokyo"), 1: ZoneInfo("Asia/Tokyo")}
    monday_in_tokyo = datetime(2026, 3, 1, 15, 0, tzinfo=UTC)

    lines = clock_lines(paused, T0, {}, turns, {}, tokyo)

    assert [c.deadline for c in lines] == [monday_in_tokyo + timedelta(days=1)] * 2
    plain = clock_lines(TimeControl("correspondence", 86400), T0, {}, turns, {}, tokyo)
    assert plain[0].deadline == T0 + timedelta(days=1)


def test_the_solver_line_says_what_could_have_been_laid() -> None:
    start, records = played_game(1, players=2, moves=1)
    turn = replay_turns(start, records, ["A", "B"])[0]  # type: ignore[arg-type]
    drew = replace(turn, kind="draw", played=0, played_value=0)
    played = replace(turn, kind="play", played=3, played_value=6)
    best = Answer(("R1", "R2", "R3"), 6, True)

    assert line(drew, best).sentence == "could have laid 3 tiles for 6 points; drew instead"
    assert line(drew, best).missed
    assert line(played, best).sentence == "laid 3 tiles for 6 points: the best play"
    assert line(drew, Answer((), 0, True)).sentence == "had no play; drew"
    bigger = Answer(("R1", "R2", "R3", "R4"), 10, False)
    assert line(played, bigger).sentence == (
        "laid 3 tiles for 6 points; could have laid at least 4 tiles for 10 points"
    )
    assert line(replace(turn, kind="timeout"), best).sentence.endswith(
        "let the clock run out instead"
    )


def test_the_solver_answer_is_a_legal_play_of_the_movers_rack() -> None:
    start = new_game(Ruleset(players=2), 3, 0)
    rack = parse_tiles(["R10", "R11", "R12", "K1", "B1", "O1", "O5"])
    racks = (rack, start.racks[1])
    state = replace(start, racks=racks)
    record = MoveRecord(1, 0, Play(((rack[0], rack[1], rack[2]),)), 1, "user", T0)
    turn = replay_turns(state, [record], ["A", "B"])[0]

    answer = best_answer(turn)

    assert Counter(answer.tiles) == Counter(["R10", "R11", "R12", "B1", "K1", "O1"])
    assert answer.value == 36 and answer.exact
    assert line(turn, answer).missed  # laid 3 tiles where 6 could go


def test_a_line_the_wall_time_ceiling_stops_says_it_was_cut_short_and_is_not_kept(
    settings: object,
) -> None:
    # The turn's steps make the line the same whatever the load; its seconds are only
    # a last stop, and a line they stop says so and is asked again at the next opening.
    case = single_set_case()
    start = new_game(replace(case.rules, players=2), 3, 0)
    racks = (case.rack, start.racks[1])
    state = replace(start, racks=racks)
    record = MoveRecord(1, 0, Draw(), 1, "user", T0)
    turn = replay_turns(state, [record], ["A", "B"])[0]
    settings.MODERATION_EVIDENCE_TURN_SECONDS = 1e-6  # type: ignore[attr-defined]

    lines = solver_lines([turn], game_id=999_001, seconds=5)

    sentence = lines.lines[turn.step].sentence
    assert "cut short: the server was busy" in sentence
    assert cache.get(position_key(turn)) is None


def test_the_turns_walk_through_a_rewind_and_its_restore() -> None:
    from engine.actions import Restore, Rewind

    start, records = played_game(4, players=2, moves=6)
    last = records[-1]
    turns_before = replay_turns(start, records, ["A", "B"])  # type: ignore[arg-type]
    extra = [
        MoveRecord(last.seq + 1, 0, Rewind(2), last.turn_number + 1, "ruling", last.created_at),
        MoveRecord(last.seq + 2, 0, Restore(), 2, "ruling", last.created_at),
    ]
    turns = replay_turns(start, [*records, *extra], ["A", "B"])  # type: ignore[arg-type]
    assert len(turns) == len(turns_before) + 2
    assert turns[-2].racks_after == turns_before[1].racks_before
    assert turns[-1].racks_after == turns_before[-1].racks_after
    assert "took that back" in turns[-1].events[0]
