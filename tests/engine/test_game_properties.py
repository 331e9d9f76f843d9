"""Property tests over whole random games.

The games are played by a deliberately simple player (the real solver and bots live
elsewhere): it lays rack-only groups and runs, after its initial meld also adds single
tiles to table sets, sometimes takes from the River, sometimes just draws, and now and
then lets the clock run out. Every proposal goes through :func:`engine.game.apply`, so
an illegal proposal simply falls back to drawing or passing.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Discard,
    Draw,
    IllegalMove,
    Layout,
    Pass,
    Play,
    TakeFromRiver,
    Timeout,
    action_from_dict,
)
from engine.game import apply, legal_action_types, new_game, replay
from engine.ruleset import Ruleset
from engine.scoring import score_game
from engine.sets import is_valid_set
from engine.state import GameState, Termination
from engine.tiles import COLOURS, JOKER, MAX_NUMBER, Tile, full_set
from engine.views import spectator_view, view_for

FULL_SET = Counter(full_set())
MAX_ACTIONS = 3000

# --- a simple random player ---------------------------------------------------------------


def _candidate_sets(left: Counter[Tile]) -> list[tuple[Tile, ...]]:
    present = {tile for tile, count in left.items() if count > 0 and not tile.is_joker}
    found = []
    for number in range(1, MAX_NUMBER + 1):
        group = tuple(tile for tile in present if tile.number == number)
        if len(group) >= 3:
            found.append(group)
    for colour in COLOURS:
        run: list[Tile] = []
        for number in range(1, MAX_NUMBER + 2):
            tile = Tile(colour, number) if number <= MAX_NUMBER else None
            if tile is not None and tile in present:
                run.append(tile)
                continue
            if len(run) >= 3:
                found.append(tuple(run))
            run = []
    return found


def _joker_pairs(left: Counter[Tile]) -> list[tuple[Tile, ...]]:
    """Two numbered tiles that a joker turns into a set."""
    present = sorted(tile for tile, count in left.items() if count > 0 and not tile.is_joker)
    return [
        (a, b, JOKER)
        for i, a in enumerate(present)
        for b in present[i + 1 :]
        if (a.number == b.number and a.colour != b.colour)
        or (a.colour == b.colour and 0 < b.number - a.number <= 2)
    ]


def rack_sets(rack: Iterable[Tile]) -> list[tuple[Tile, ...]]:
    """Disjoint groups and runs from the rack, greedily by value; then jokers fill pairs."""
    left = Counter(rack)
    chosen = []
    while candidates := _candidate_sets(left):
        best = max(candidates, key=lambda s: sum(tile.number for tile in s))
        chosen.append(best)
        left.subtract(best)
    while left[JOKER] > 0 and (pairs := _joker_pairs(left)):
        best = max(pairs, key=lambda s: sum(tile.number for tile in s))
        chosen.append(best)
        left.subtract(best)
    return chosen


def _extend(table: Layout, rack: Iterable[Tile], ruleset: Ruleset) -> tuple[Layout, Counter[Tile]]:
    """Add single rack tiles to table sets where they fit; returns the table and what is left."""
    sets = [list(tile_set) for tile_set in table]
    left = Counter(rack)
    placed = True
    while placed:
        placed = False
        for tile in list(left.elements()):
            fits = next((s for s in sets if is_valid_set((*s, tile), ruleset)), None)
            if fits is not None:
                fits.append(tile)
                left[tile] -= 1
                placed = True
    return tuple(tuple(s) for s in sets), left


def candidate_actions(state: GameState) -> Iterator[Action]:
    seat = state.current_player
    rack = state.racks[seat]
    if state.initial_meld_done[seat]:
        table, left = _extend(state.table, rack, state.ruleset)
        yield Play((*table, *rack_sets(left.elements())))
    else:
        yield Play((*state.table, *rack_sets(rack)))
    if state.ruleset.draw_mode == "river":
        for index in reversed(range(max(0, len(state.river) - 3), len(state.river))):
            key = state.river[index]
            with_key = [s for s in rack_sets((*rack, key)) if key in s]
            if with_key:
                yield TakeFromRiver(index, (*state.table, with_key[0]))
            if state.initial_meld_done[seat]:
                extended, left = _extend(state.table, (key,), state.ruleset)
                if not left[key]:
                    yield TakeFromRiver(index, extended)


def choose_action(state: GameState, rng: random.Random) -> Action:
    if state.pending_draw:
        return Discard(rng.choice(state.pending_draw))
    if rng.random() < 0.03:
        return Timeout(changed=rng.random() < 0.5)
    if rng.random() < 0.85:
        for action in candidate_actions(state):
            try:
                apply(state, action, state.current_player)
            except IllegalMove:
                continue
            return action
    return Draw() if state.pool else Pass()


def play_game(
    ruleset: Ruleset, seed: int, rng: random.Random
) -> tuple[list[GameState], list[tuple[int, Action]]]:
    state = new_game(ruleset, seed)
    states: list[GameState] = [state]
    moves: list[tuple[int, Action]] = []
    while not state.is_over:
        assert len(moves) < MAX_ACTIONS, "the game did not end"
        seat = state.current_player
        action = choose_action(state, rng)
        assert action.type in legal_action_types(state, seat) | {"timeout"}
        state = apply(state, action, seat)
        states.append(state)
        moves.append((seat, action))
    return states, moves


# --- strategies --------------------------------------------------------------------------

rulesets = st.builds(
    Ruleset,
    players=st.integers(2, 4),
    rack_size=st.sampled_from([14, 16]),
    draw_mode=st.sampled_from(["single", "river"]),
    pool_empty_end=st.sampled_from(["play_until_blocked", "one_more_round", "immediate"]),
    direction=st.sampled_from(["clockwise", "counter_clockwise"]),
    score_mode=st.sampled_from(["zero_sum", "penalty_only"]),
    pool_empty_scoring=st.sampled_from(["difference", "face", "winner_difference"]),
    pool_empty_winner=st.sampled_from(["lowest_value", "fewest_tiles"]),
    allow_wrap=st.booleans(),
    initial_meld_min=st.sampled_from([0, 30]),
    overtime_penalty_draw=st.integers(0, 2),
)
seeds = st.integers(0, 2**32)
GAME_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _redeal_hidden(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """The same position with everything ``viewer`` may not see shuffled among its places."""
    revealed = state.is_over
    hidden_seats = [] if revealed else [s for s in range(state.players) if s != viewer]
    pending_hidden = viewer != state.current_player
    hidden = list(state.pool)
    for seat in hidden_seats:
        hidden.extend(state.racks[seat])
    if pending_hidden:
        hidden.extend(state.pending_draw)
    rng.shuffle(hidden)
    racks = list(state.racks)
    for seat in hidden_seats:
        size = len(racks[seat])
        racks[seat], hidden = tuple(sorted(hidden[:size])), hidden[size:]
    pending = state.pending_draw
    if pending_hidden:
        pending, hidden = tuple(hidden[: len(pending)]), hidden[len(pending) :]
    return GameState(
        **{
            **{name: getattr(state, name) for name in GameState.__dataclass_fields__},
            "racks": tuple(racks),
            "pending_draw": pending,
            "pool": tuple(hidden),
        }
    )


# --- the properties ---------------------------------------------------------------------


@GAME_SETTINGS
@given(ruleset=rulesets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_games_end_conserve_tiles_and_replay_exactly(
    ruleset: Ruleset, seed: int, choices: random.Random
) -> None:
    states, moves = play_game(ruleset, seed, choices)
    for state in states:
        assert state.all_tiles() == FULL_SET
        assert all(list(rack) == sorted(rack) for rack in state.racks)
    final = states[-1]
    assert replay(ruleset, seed, moves) == final
    stored = json.loads(json.dumps([[seat, action.to_dict()] for seat, action in moves]))
    assert replay(ruleset, seed, [(seat, action_from_dict(a)) for seat, a in stored]) == final
    assert GameState.from_dict(json.loads(json.dumps(final.to_dict()))) == final
    turn_numbers = [state.turn_number for state in states]
    assert turn_numbers == sorted(turn_numbers)


@GAME_SETTINGS
@given(ruleset=rulesets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_random_games_score_as_the_scoring_module_says(
    ruleset: Ruleset, seed: int, choices: random.Random
) -> None:
    final = play_game(ruleset, seed, choices)[0][-1]
    outcome = final.outcome
    assert outcome is not None
    out = outcome.termination is Termination.WENT_OUT
    if out:
        assert outcome.winner is not None and final.racks[outcome.winner] == ()
    else:
        assert final.pool == ()
    # Ties for the win go to the player who would have moved next (engine.scoring takes
    # the first rack listed), so list the racks in that order.
    order = [final.next_player(final.current_player)]
    while len(order) < final.players:
        order.append(final.next_player(order[-1]))
    racks = {seat: final.racks[seat] for seat in order}
    expected = score_game("out" if out else "pool_empty", racks, outcome.winner, ruleset)
    assert outcome.winner == expected.winner
    assert outcome.rack_values == tuple(expected.rack_values[s] for s in range(final.players))
    assert outcome.scores == tuple(expected.scores[s] for s in range(final.players))
    if ruleset.score_mode == "zero_sum" and (
        out or ruleset.pool_empty_scoring != "winner_difference"
    ):
        assert sum(outcome.scores) == 0
    if ruleset.score_mode == "penalty_only":
        assert outcome.winner is not None and outcome.scores[outcome.winner] == 0
        # With fewest_tiles the winner may hold more points than a loser, and a negative
        # difference then scores below zero; otherwise nobody scores below zero.
        if out or ruleset.pool_empty_winner == "lowest_value":
            assert min(outcome.scores) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=rulesets, seed=seeds, choices=st.randoms(use_true_random=False))
def test_views_never_depend_on_hidden_tiles(
    ruleset: Ruleset, seed: int, choices: random.Random
) -> None:
    states, _ = play_game(ruleset, seed, choices)
    shuffler = random.Random(seed)
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        for seat in range(state.players):
            view = view_for(state, seat)
            twin = _redeal_hidden(state, seat, shuffler)
            assert view_for(twin, seat) == view
            assert json.dumps(view_for(twin, seat).to_dict()) == json.dumps(view.to_dict())
        assert spectator_view(_redeal_hidden(state, None, shuffler)) == spectator_view(state)


@settings(max_examples=30, deadline=None)
@given(ruleset=rulesets, seed=seeds)
def test_a_view_shows_the_own_rack_and_counts_only(ruleset: Ruleset, seed: int) -> None:
    state = new_game(ruleset, seed)
    for seat in range(state.players):
        data = view_for(state, seat).to_dict()
        assert data["rack"] == [str(tile) for tile in state.racks[seat]]
        assert data["rack_sizes"] == [len(rack) for rack in state.racks]
        assert data["pool_size"] == len(state.pool)
        assert set(data) >= {"table", "river", "current_player", "turn_number"}
        assert "pool" not in data and "racks" not in data
