"""A simple test player: finds plain new sets on its rack, extends table sets, else draws.

Only for tests (the product's bots are engine.bots). Its plays are checked with the
verdict before they are sent, so games it plays run through every kind of move.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

from accounts.models import User
from engine.actions import Action, Discard, Draw, Layout, Pass, Play
from engine.sets import is_valid_set
from engine.state import GameState
from engine.tiles import Tile
from engine.verdict import judge_turn
from games import services
from games.models import Game, Seat


def simple_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """A legal action for ``seat``: a play when one is found (mostly), else draw or pass."""
    if state.pending_draw:
        return Discard(rng.choice(state.pending_draw))
    table = find_play(state, seat)
    if table is not None and rng.random() < 0.9:
        return Play(table)
    return Draw() if state.pool else Pass()


def find_play(state: GameState, seat: int) -> Layout | None:
    rack = list(state.racks[seat])
    new_sets: list[tuple[Tile, ...]] = []
    for candidate in _candidate_sets(rack):
        if all(rack.count(t) >= candidate.count(t) for t in candidate):
            new_sets.append(candidate)
            for tile in candidate:
                rack.remove(tile)
    table = [*state.table, *new_sets]
    if state.initial_meld_done[seat]:
        table = _extend(table, rack)
    if len(table) == len(state.table) and table == list(state.table):
        return None
    verdict = judge_turn(
        state.table, state.racks[seat], table, state.initial_meld_done[seat], state.ruleset
    )
    return tuple(table) if verdict.valid else None


def _candidate_sets(rack: list[Tile]) -> list[tuple[Tile, ...]]:
    numbered = sorted(set(t for t in rack if not t.is_joker))
    by_number: dict[int, list[Tile]] = defaultdict(list)
    by_colour: dict[object, list[Tile]] = defaultdict(list)
    for tile in numbered:
        by_number[tile.number].append(tile)
        by_colour[tile.colour].append(tile)
    sets = [tuple(tiles) for tiles in by_number.values() if len(tiles) >= 3]
    for tiles in by_colour.values():
        run: list[Tile] = []
        for tile in tiles:
            if run and tile.number != run[-1].number + 1:
                if len(run) >= 3:
                    sets.append(tuple(run))
                run = []
            run.append(tile)
        if len(run) >= 3:
            sets.append(tuple(run))
    return sets


def _extend(table: list[tuple[Tile, ...]], rack: list[Tile]) -> list[tuple[Tile, ...]]:
    table = list(table)
    for tile in list(rack):
        for index, tile_set in enumerate(table):
            if is_valid_set((*tile_set, tile)):
                table[index] = (*tile_set, tile)
                rack.remove(tile)
                break
    return table


def user_at(game: Game, seat: int) -> User:
    return Seat.objects.get(table_id=game.table_id, number=seat).user  # type: ignore[return-value]


def send(game: Game, user: User, action: Action) -> Game:
    """Send ``action`` through the service a view would call."""
    if isinstance(action, Play):
        table = [[str(t) for t in tile_set] for tile_set in action.table_after]
        return services.play(game.pk, user, game.version, table)
    if isinstance(action, Discard):
        return services.discard(game.pk, user, game.version, str(action.tile))
    if isinstance(action, Draw):
        return services.draw(game.pk, user, game.version)
    if isinstance(action, Pass):
        return services.pass_turn(game.pk, user, game.version)
    raise AssertionError(f"the test player does not send {action!r}")


def play_until_over(
    game: Game,
    rng: random.Random,
    choose: Callable[[GameState, int, random.Random], Action] = simple_action,
    max_moves: int = 1000,
) -> Game:
    """Play ``game`` to its end with ``choose`` for every seat; returns it, reloaded."""
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.is_over:
            return game
        assert game.current_seat is not None
        state = game.engine_state()
        send(game, user_at(game, game.current_seat), choose(state, game.current_seat, rng))
    raise AssertionError("the game did not end")
