"""What one player, or a spectator, may see of a game.

A :class:`PlayerView` is the only thing the web layer renders. It holds the viewer's own
rack and pending River draw, but of the other players only how many tiles they hold;
of the pool only its size (never its order). At the end of the game every rack is
public, so the view then carries them all.

>>> from engine.game import new_game
>>> from engine.ruleset import Ruleset
>>> state = new_game(Ruleset(players=2), seed=8, starting_player=0)
>>> view = view_for(state, 1)
>>> len(view.rack), view.rack_sizes, view.pool_size
(14, (14, 14), 78)
>>> view.to_dict()["rack_sizes"], view.to_dict()["actions"]
([14, 14], [])
>>> spectator_view(state).rack is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Layout, table_to_json
from engine.ruleset import Ruleset
from engine.state import (
    FirstPlayerDraw,
    GameState,
    Outcome,
    first_player_draw_to_json,
    legal_action_types,
)
from engine.tiles import Tile, format_tiles


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One viewer's share of a game state. ``player`` is ``None`` for a spectator.

    ``current_player`` is ``None`` once the game is over; ``final_racks`` is ``None``
    until then. ``pending_draw`` is the viewer's own pending River draw (``None`` if it
    is not theirs); everybody sees ``pending_draw_size``. ``actions`` lists what the
    viewer may send now (see :func:`engine.state.legal_action_types`). ``dropped``
    lists the seats that resigned or forfeited.
    """

    player: int | None
    ruleset: Ruleset
    rack: tuple[Tile, ...] | None
    pending_draw: tuple[Tile, ...] | None
    pending_draw_size: int
    rack_sizes: tuple[int, ...]
    pool_size: int
    table: Layout
    river: tuple[Tile, ...]
    current_player: int | None
    starting_player: int
    turn_number: int
    initial_meld_done: tuple[bool, ...]
    passes_in_a_row: int
    final_turns_left: int | None
    first_player_draw: FirstPlayerDraw
    actions: frozenset[str]
    outcome: Outcome | None
    final_racks: tuple[tuple[Tile, ...], ...] | None
    dropped: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (tiles in notation, sorted ``actions``)."""
        return {
            "player": self.player,
            "ruleset": self.ruleset.to_dict(),
            "rack": None if self.rack is None else format_tiles(self.rack),
            "pending_draw": None if self.pending_draw is None else format_tiles(self.pending_draw),
            "pending_draw_size": self.pending_draw_size,
            "rack_sizes": list(self.rack_sizes),
            "pool_size": self.pool_size,
            "table": table_to_json(self.table),
            "river": format_tiles(self.river),
            "current_player": self.current_player,
            "starting_player": self.starting_player,
            "turn_number": self.turn_number,
            "initial_meld_done": list(self.initial_meld_done),
            "passes_in_a_row": self.passes_in_a_row,
            "final_turns_left": self.final_turns_left,
            "first_player_draw": first_player_draw_to_json(self.first_player_draw),
            "actions": sorted(self.actions),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "final_racks": (
                None if self.final_racks is None else [format_tiles(r) for r in self.final_racks]
            ),
            "dropped": list(self.dropped),
        }


def view_for(state: GameState, player: int) -> PlayerView:
    """What ``player`` may see.

    >>> from engine.game import new_game
    >>> from engine.ruleset import Ruleset
    >>> view_for(new_game(Ruleset(players=2), seed=8), 2)
    Traceback (most recent call last):
    ...
    ValueError: no seat 2 at this table
    """
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.players:
        raise ValueError(f"no seat {player!r} at this table")
    own_pending = state.pending_draw if player == state.current_player else None
    return _view(state, player, state.racks[player], own_pending)


def spectator_view(state: GameState) -> PlayerView:
    """What someone not playing may see: no rack at all, and no pending draw."""
    return _view(state, None, None, None)


def _view(
    state: GameState,
    player: int | None,
    rack: tuple[Tile, ...] | None,
    pending_draw: tuple[Tile, ...] | None,
) -> PlayerView:
    over = state.is_over
    return PlayerView(
        player=player,
        ruleset=state.ruleset,
        rack=rack,
        pending_draw=pending_draw,
        pending_draw_size=len(state.pending_draw),
        rack_sizes=tuple(len(r) for r in state.racks),
        pool_size=len(state.pool),
        table=state.table,
        river=state.river,
        current_player=None if over else state.current_player,
        starting_player=state.starting_player,
        turn_number=state.turn_number,
        initial_meld_done=state.initial_meld_done,
        passes_in_a_row=state.passes_in_a_row,
        final_turns_left=state.final_turns_left,
        first_player_draw=state.first_player_draw,
        actions=frozenset() if player is None else legal_action_types(state, player),
        outcome=state.outcome,
        final_racks=state.racks if over else None,
        dropped=state.dropped,
    )
