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
