"""Set a game to a chosen position (for tests of drafts and rendering).

The position replaces the cached state only, so such a game no longer replays from its
log; tests of the log use games played from the deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from engine.actions import parse_table
from engine.tiles import full_set, parse_tile, parse_tiles
from games.models import Game


def set_position(
    game: Game,
    table: Sequence[Sequence[str]],
    rack: Sequence[str],
    meld_done: bool = True,
) -> Game:
    """The mover gets ``rack``, the table is ``table``; the others' racks and the pool are
    filled from the remaining tiles. Saves and returns the game."""
    state = game.engine_state()
    seat = state.current_player
    sets = parse_table(table)
    mine = parse_tiles(rack)
    rest = Counter(full_set())
    for tile_set in sets:
        rest.subtract(tile_set)
    rest.subtract(mine)
    assert all(count >= 0 for count in rest.values()), "more copies than the game has"
    others = sorted(rest.elements())
    racks = []
    for number in range(state.players):
        if number == seat:
            racks.append(tuple(sorted(mine)))
        else:
            racks.append(tuple(others[:14]))
            others = others[14:]
    done = tuple(meld_done if n == seat else False for n in range(state.players))
    state = replace(
        state, table=sets, racks=tuple(racks), pool=tuple(others), initial_meld_done=done
    )
    state.check()
    game.state = state.to_dict()
    game.save(update_fields=["state"])
    return game


def put_on_the_river(game: Game, tile: str) -> Game:
    """``tile``, taken from the pool, lies on the River as if it had been discarded."""
    state = game.engine_state()
    river_tile = parse_tile(tile)
    pool = list(state.pool)
    pool.remove(river_tile)
    state = replace(state, river=(*state.river, river_tile), pool=tuple(pool))
    state.check()
    game.state = state.to_dict()
    game.save(update_fields=["state"])
    return game
