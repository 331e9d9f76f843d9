"""The state of one game as an immutable value, and how it is written down.

:class:`GameState` holds everything, including the secret pool order; players only
ever see a :mod:`engine.views` projection of it. Seats are numbered ``0 .. players-1``
clockwise round the table. The pool is kept in draw order: ``pool[0]`` is the next
tile drawn. Racks are kept sorted by :attr:`engine.tiles.Tile.code`.

A state round-trips through :meth:`GameState.to_dict` for caching, but the game's seed
plus its list of actions is the source of truth (:func:`engine.game.replay`).

>>> from engine.game import new_game
>>> state = new_game(Ruleset(players=2), seed=7)
>>> GameState.from_dict(state.to_dict()) == state
True
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.actions import Layout, parse_table, table_to_json
from engine.ruleset import Ruleset
from engine.tiles import Tile, format_tiles, full_set, parse_tile, parse_tiles


class StateError(ValueError):
    """A serialised state that cannot be a real game (wrong tiles, bad seats)."""


class Termination(enum.Enum):
    """Why a game ended.

    The web layer may add its own endings (a resignation, a forfeit on time) as new
    members; :class:`Outcome` only needs a termination, a winner and scores.
    """

    WENT_OUT = "went_out"
    """A player emptied the rack (R8.1)."""
    POOL_EMPTY_BLOCKED = "pool_empty_blocked"
    """The pool was empty and every player passed in a row (``play_until_blocked``)."""
    POOL_EMPTY_IMMEDIATE = "pool_empty_immediate"
    """The pool ran empty after a draw (``pool_empty_end: "immediate"``)."""
    ONE_MORE_ROUND_ENDED = "one_more_round_ended"
    """Every player had the one more attempt after the last tile was drawn."""
    RESIGNATION = "resignation"
    """Every other player dropped out, the last of them by resigning."""
    FORFEIT = "forfeit"
    """Every other player dropped out, the last of them by forfeiting (abandonment)."""
    ADJUDICATED = "adjudicated"
    """Stopped before its end and scored as it stands (:class:`~engine.actions.Adjudicate`)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended and what everyone scored.

    ``rack_values`` and ``scores`` are indexed by seat; ``winner`` is a seat or
    ``None`` when nobody wins (a tie for lowest under pool-empty scoring, see
    :mod:`engine.scoring`).
    """

    termination: Termination
    winner: int | None
    rack_values: tuple[int, ...]
    scores: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        >>> Outcome(Termination.WENT_OUT, 1, (12, 0), (-12, 12)).to_dict()["termination"]
        'went_out'
        """
        return {
            "termination": self.termination.value,
            "winner": self.winner,
            "rack_values": list(self.rack_values),
            "scores": list(self.scores),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Read the form written by :meth:`to_dict`."""
        return cls(
            termination=Termination(data["termination"]),
            winner=data["winner"],
            rack_values=tuple(data["rack_values"]),
            scores=tuple(data["scores"]),
        )


@dataclass(frozen=True, slots=True)
class DrawnTile:
    """One tile shown in the draw for the first player."""

    player: int
    tile: Tile

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"player": self.player, "tile": str(self.tile)}


FirstPlayerDraw = tuple[tuple[DrawnTile, ...], ...]
"""The draws for the first player, one tuple per draw (ties draw again)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about one game at one moment. Never mutated: actions make new states.

    ``pending_draw`` holds the two tiles a River player has drawn and not yet sorted
    into keep and discard (it belongs to ``current_player``). ``passes_in_a_row``
    counts turns that ended without a play while the pool was empty;
    ``final_turns_left`` counts down the last round of ``one_more_round`` (``None``
    before it starts). ``turn_number`` starts at 1 and grows by one whenever a turn
    ends (a River draw awaiting its discard is still the same turn), also with the move
    that ends the game; the web layer compares it to refuse stale submissions. Once the
    game is over ``current_player`` is the player who made the last move.

    ``dropped`` lists the seats that resigned or forfeited, in the order they left. Play
    skips them; their racks stay as they were and are scored as losers' racks.
    """

    ruleset: Ruleset
    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]
    table: Layout
    river: tuple[Tile, ...]
    pending_draw: tuple[Tile, ...]
    current_player: int
    starting_player: int
    turn_number: int
    initial_meld_done: tuple[bool, ...]
    passes_in_a_row: int
    final_turns_left: int | None
    first_player_draw: FirstPlayerDraw
    outcome: Outcome | None = None
    dropped: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.racks)

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats that have not dropped out, in seat order.

        >>> from engine.game import new_game
        >>> new_game(Ruleset(players=3), seed=1, starting_player=0).in_play
        (0, 1, 2)
        """
        return tuple(seat for seat in range(self.players) if seat not in self.dropped)

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    def next_player(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play.

        >>> from engine.game import new_game
        >>> new_game(Ruleset(players=3), seed=1, starting_player=0).next_player(2)
        0
        >>> new_game(Ruleset(players=3, direction="counter_clockwise"), 1, 0).next_player(0)
        2
        """
        return seat_after(seat, self.ruleset)

    def next_in_play(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play, skipping seats that dropped out.

        >>> from dataclasses import replace
        >>> from engine.game import new_game
        >>> state = new_game(Ruleset(players=4), seed=1, starting_player=0)
        >>> replace(state, dropped=(1, 2)).next_in_play(0)
        3
        """
        following = self.next_player(seat)
        while following in self.dropped and following != seat:
            following = self.next_player(following)
        return following

    def all_tiles(self) -> Counter[Tile]:
        """Every tile in the game wherever it is; always the full 106 (R1.1).

        >>> from engine.game import new_game
        >>> new_game(Ruleset(), seed=3).all_tiles() == Counter(full_set())
        True
        """
        tiles: Counter[Tile] = Counter(self.pool)
        tiles.update(self.river)
        tiles.update(self.pending_draw)
        for rack in self.racks:
            tiles.update(rack)
        for tile_set in self.table:
            tiles.update(tile_set)
        return tiles

    def to_dict(self) -> dict[str, Any]:
        """The whole state, pool order included: for server-side caching, never for players."""
        return {
            "ruleset": self.ruleset.to_dict(),
            "racks": [format_tiles(rack) for rack in self.racks],
            "pool": format_tiles(self.pool),
            "table": table_to_json(self.table),
            "river": format_tiles(self.river),
            "pending_draw": format_tiles(self.pending_draw),
            "current_player": self.current_player,
            "starting_player": self.starting_player,
            "turn_number": self.turn_number,
            "initial_meld_done": list(self.initial_meld_done),
            "passes_in_a_row": self.passes_in_a_row,
            "final_turns_left": self.final_turns_left,
            "first_player_draw": first_player_draw_to_json(self.first_player_draw),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "dropped": list(self.dropped),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Read the form written by :meth:`to_dict`; refuses a state whose tiles are not
        exactly the full set or whose seats do not match the ruleset."""
        try:
            state = cls(
                ruleset=Ruleset.from_dict(data["ruleset"]),
                racks=tuple(parse_tiles(rack) for rack in data["racks"]),
                pool=parse_tiles(data["pool"]),
                table=parse_table(data["table"]),
                river=parse_tiles(data["river"]),
                pending_draw=parse_tiles(data["pending_draw"]),
                current_player=int(data["current_player"]),
                starting_player=int(data["starting_player"]),
                turn_number=int(data["turn_number"]),
                initial_meld_done=tuple(bool(done) for done in data["initial_meld_done"]),
                passes_in_a_row=int(data["passes_in_a_row"]),
                final_turns_left=data["final_turns_left"],
                first_player_draw=tuple(
                    tuple(DrawnTile(d["player"], parse_tile(d["tile"])) for d in draw)
                    for draw in data["first_player_draw"]
                ),
                outcome=None if data["outcome"] is None else Outcome.from_dict(data["outcome"]),
                # States cached before seats could drop out have no such key.
                dropped=tuple(int(seat) for seat in data.get("dropped", ())),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise StateError(f"not a game state: {err}") from err
        state.check()
        return state

    def check(self) -> None:
        """Raise :class:`StateError` unless the basic invariants hold."""
        if self.all_tiles() != Counter(full_set()):
            raise StateError("the tiles in the state are not exactly the 106 tiles of one game")
        if self.players != self.ruleset.players or len(self.initial_meld_done) != self.players:
            raise StateError("the number of racks does not match the ruleset's players")
        if not 0 <= self.current_player < self.players:
            raise StateError(f"no seat {self.current_player} at this table")
        if len(set(self.dropped)) != len(self.dropped) or not all(
            0 <= seat < self.players for seat in self.dropped
        ):
            raise StateError(f"the seats that dropped out are not seats here: {self.dropped}")


def first_player_draw_to_json(draw: FirstPlayerDraw) -> list[list[dict[str, Any]]]:
    """JSON-ready form of the draw for the first player."""
    return [[drawn.to_dict() for drawn in one_draw] for one_draw in draw]


def seat_after(seat: int, ruleset: Ruleset) -> int:
    """The seat after ``seat`` in the ruleset's direction of play (seats go clockwise).

    >>> seat_after(3, Ruleset(players=4)), seat_after(0, Ruleset(direction="counter_clockwise"))
    (0, 3)
    """
    step = 1 if ruleset.direction == "clockwise" else -1
    return (seat + step) % ruleset.players


def legal_action_types(state: GameState, player: int) -> frozenset[str]:
    """The kinds of action ``player`` may send now (what the UI may offer): among
    ``"play"``, ``"draw"``, ``"pass"``, ``"discard"`` and ``"take_from_river"``.

    Offering ``"play"`` does not mean a legal play exists; timeouts are sent by the
    clock, not offered. Resigning is open to every seat in play at any time, so it is not
    listed either.

    >>> from engine.game import new_game
    >>> state = new_game(Ruleset(players=2), seed=5, starting_player=0)
    >>> sorted(legal_action_types(state, 0)), sorted(legal_action_types(state, 1))
    (['draw', 'play'], [])
    """
    if state.is_over or player != state.current_player or player in state.dropped:
        return frozenset()
    if state.pending_draw:
        return frozenset({"discard"})
    types = {"play", "draw" if state.pool else "pass"}
    if state.ruleset.draw_mode == "river" and state.river:
        types.add("take_from_river")
    return frozenset(types)
