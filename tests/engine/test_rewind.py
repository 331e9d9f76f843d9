"""A moderator's rewind: the game goes back to the start of a turn, and still replays
exactly from its seed and its log."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Draw, InvalidAction, Restore, Rewind, action_from_dict
from engine.game import Timeline, apply, new_game, replay
from engine.ruleset import Ruleset

RULES = Ruleset(players=3)


def draws(count: int, start: int = 0) -> list[tuple[int, Draw]]:
    return [((start + n) % 3, Draw()) for n in range(count)]


def test_a_rewind_gives_back_the_state_at_the_start_of_the_turn() -> None:
    at_turn_3 = replay(RULES, 7, draws(2), 0)
    after = replay(RULES, 7, [*draws(5), (2, Rewind(3))], 0)
    assert after == at_turn_3
    assert after.turn_number == 3 and after.current_player == 2


def test_play_goes_on_after_a_rewind_and_can_rewind_again() -> None:
    moves = [*draws(5), (2, Rewind(3)), *draws(3, start=2), (2, Rewind(2)), *draws(1, start=1)]
    assert replay(RULES, 7, moves, 0) == replay(RULES, 7, draws(2), 0)


def test_a_rewind_goes_only_back_and_needs_the_history() -> None:
    with pytest.raises(InvalidAction, match="earlier turn"):
        replay(RULES, 7, [*draws(2), (2, Rewind(3))], 0)
    with pytest.raises(InvalidAction, match="history"):
        apply(new_game(RULES, 7, 0), Rewind(1), 0)
    with pytest.raises(InvalidAction, match="from 1"):
        Rewind(0)


def test_its_notation_round_trips() -> None:
    assert action_from_dict(Rewind(4).to_dict()) == Rewind(4)
    with pytest.raises(InvalidAction):
        action_from_dict({"type": "rewind", "turn": "4"})


@settings(max_examples=30, deadline=None)
@given(played=st.integers(2, 20), data=st.data(), seed=st.integers(0, 10_000))
def test_tiles_are_conserved_and_the_rewound_state_is_the_turns_start(
    played: int, data: st.DataObject, seed: int
) -> None:
    timeline = Timeline(new_game(RULES, seed, 0))
    starts = {1: timeline.state}
    for player, action in draws(played):
        state = timeline.apply(action, player)
        starts.setdefault(state.turn_number, state)
    turn = data.draw(st.integers(1, timeline.state.turn_number - 1))
    back = timeline.apply(Rewind(turn), 0)
    assert back == starts[turn]
    tiles = sorted(map(str, back.pool)) + sorted(str(t) for rack in back.racks for t in rack)
    assert len(tiles) == len(new_game(RULES, seed, 0).pool) + sum(
        len(rack) for rack in new_game(RULES, seed, 0).racks
    )


@settings(max_examples=30, deadline=None)
@given(played=st.integers(2, 20), data=st.data(), seed=st.integers(0, 10_000))
def test_a_restore_right_after_a_rewind_gives_back_the_state_before_it(
    played: int, data: st.DataObject, seed: int
) -> None:
    moves = draws(played)
    before = replay(RULES, seed, moves, 0)
    turn = data.draw(st.integers(1, before.turn_number - 1))
    rewound = [*moves, (0, Rewind(turn))]
    restored = replay(RULES, seed, [*rewound, (0, Restore())], 0)
    assert restored == before
    # Play goes on as if the rewind had never been, rewinds included.
    later = draws(3, start=before.current_player)
    back = data.draw(st.integers(1, before.turn_number + 2))
    assert replay(RULES, seed, [*rewound, (0, Restore()), *later, (0, Rewind(back))], 0) == (
        replay(RULES, seed, [*moves, *later, (0, Rewind(back))], 0)
    )


def test_a_restore_is_valid_only_right_after_a_rewind() -> None:
    with pytest.raises(InvalidAction, match="right after"):
        replay(RULES, 7, [*draws(3), (0, Restore())], 0)
    with pytest.raises(InvalidAction, match="right after"):
        replay(RULES, 7, [*draws(5), (2, Rewind(3)), *draws(1, start=2), (0, Restore())], 0)
    with pytest.raises(InvalidAction, match="right after"):
        replay(RULES, 7, [*draws(5), (2, Rewind(3)), (2, Restore()), (2, Restore())], 0)
    with pytest.raises(InvalidAction, match="history"):
        apply(new_game(RULES, 7, 0), Restore(), 0)
    assert action_from_dict(Restore().to_dict()) == Restore()


def test_a_seeded_rewind_shuffles_the_undrawn_pool_afresh_and_replays_exactly() -> None:
    at_turn_3 = replay(RULES, 7, draws(2), 0)
    moves = [*draws(5), (2, Rewind(3, seed="fresh"))]
    after = replay(RULES, 7, moves, 0)
    assert after.racks == at_turn_3.racks and after.table == at_turn_3.table
    assert sorted(after.pool) == sorted(at_turn_3.pool) and after.pool != at_turn_3.pool
    # The next draw is no longer the one the undone turn showed.
    assert after.pool[:3] != at_turn_3.pool[:3]
    assert replay(RULES, 7, moves, 0) == after
    assert replay(RULES, 7, [*draws(5), (2, Rewind(3, seed="other"))], 0).pool != after.pool


def test_play_goes_on_from_the_reshuffled_pool_and_a_restore_gives_back_the_old_one() -> None:
    moves = [*draws(5), (2, Rewind(3, seed="fresh"))]
    after = replay(RULES, 7, moves, 0)
    drew = replay(RULES, 7, [*moves, (2, Draw())], 0)
    assert drew.racks[2] == tuple(sorted((*after.racks[2], after.pool[0])))
    # Rewound to the same turn again: from the turn's start as replayed (the fresh order).
    again = replay(RULES, 7, [*moves, *draws(2, start=2), (1, Rewind(3, seed="fresh"))], 0)
    assert again == after
    assert replay(RULES, 7, [*moves, (2, Restore())], 0) == replay(RULES, 7, draws(5), 0)


def test_the_standing_moves_leave_out_the_undone_turns() -> None:
    timeline = Timeline(new_game(RULES, 7, 0))
    moves = [
        *draws(4),
        (1, Rewind(3, seed="a")),
        *draws(2, start=2),
        (1, Rewind(2, seed="b")),
        (1, Draw()),
    ]
    for player, action in moves:
        timeline.apply(action, player)
    # 0 1 2 3 | R3(4) | 5 6 | R2(7) | 8: the second rewind undoes from turn 2 on.
    assert timeline.standing == (0, 7, 8)
    timeline.apply(Rewind(2, seed="c"), 2)
    timeline.apply(Restore(), 2)
    assert timeline.standing == (0, 7, 8, 9, 10)


def test_a_seeded_rewinds_notation_round_trips() -> None:
    assert action_from_dict(Rewind(4, "s").to_dict()) == Rewind(4, "s")
    for bad in ({"type": "rewind", "turn": 4, "seed": ""}, {"type": "rewind", "seed": "s"}):
        with pytest.raises(InvalidAction):
            action_from_dict(bad)
