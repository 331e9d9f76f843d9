"""What a player can do on a turn, and the errors for doing it wrong.

Actions are small immutable values, like moves in a chess library. Each one turns
into a JSON-ready dict with a ``"type"`` key and back, so a game can be stored as
its seed plus a list of actions and replayed (:func:`engine.game.replay`).

>>> play = Play.from_notation([["R7", "R8", "R9"]])
>>> play.to_dict()
{'type': 'play', 'table_after': [['R7', 'R8', 'R9']]}
>>> action_from_dict({"type": "discard", "tile": "K3"})
Discard(tile=Tile('K3'))
>>> action_from_dict({"type": "take_from_river", "index": 2, "table_after": []}).index
2

Errors come in two families, kept apart as in python-chess: :class:`InvalidAction`
for actions that are malformed or impossible in the current state (a pass while the
pool still has tiles, a discard without a pending draw), and :class:`IllegalMove` for
a well-formed play that breaks the rules (its ``reason`` is a RULES.md §11.1 code and
``detail`` a sentence the web shows the player). :class:`OutOfTurn` and
:class:`GameOver` say why nobody may act at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.tiles import NotationError, Tile, format_tiles, parse_tile, parse_tiles

Layout = tuple[tuple[Tile, ...], ...]
"""The sets on the table (RULES.md's "table"), each a tuple of tiles in the order the
player laid them. Named a layout in types, so that ``Table`` only ever means the
``games.models.Table`` model: the seats and the round of games played at them."""


class GameError(Exception):
    """Base class of every error raised when applying an action."""


class InvalidAction(GameError, ValueError):
    """The action is malformed or cannot be taken in this state (not a rules question).

    >>> raise InvalidAction("you can only pass when the pool is empty")
    Traceback (most recent call last):
    ...
    engine.actions.InvalidAction: you can only pass when the pool is empty
    """


class IllegalMove(GameError):
    """A well-formed play that breaks the rules.

    ``reason`` is the rule's code (RULES.md §11.1, plus ``key_tile_not_played`` for the
    River); ``detail`` is a sentence for the player.

    >>> err = IllegalMove("no_tile_played", "You must play at least one tile from your rack.")
    >>> err.reason, str(err)
    ('no_tile_played', 'You must play at least one tile from your rack.')
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class OutOfTurn(GameError):
    """A player acted while it was someone else's turn."""


class GameOver(GameError):
    """An action was sent to a game that has already ended."""


def table_to_json(table: Layout) -> list[list[str]]:
    """The notation of a table, set by set.

    >>> table_to_json(parse_table([["R1", "R2", "R3"]]))
    [['R1', 'R2', 'R3']]
    """
    return [format_tiles(tile_set) for tile_set in table]


def parse_table(sets: Iterable[Iterable[str]]) -> Layout:
    """Read a table from lists of tile notations; raises :class:`InvalidAction` if malformed.

    >>> parse_table([["K5", "B5", "O5"], ["J", "R1", "R2"]])[1]
    (Tile('J'), Tile('R1'), Tile('R2'))
    >>> parse_table([["R5", "X1"]])
    Traceback (most recent call last):
    ...
    engine.actions.InvalidAction: 'X1' is not a tile: the colour must be one of R, B, K, O, ...
    """
    if isinstance(sets, str | bytes) or not isinstance(sets, Iterable):
        raise InvalidAction(f"a table must be a list of sets, got {sets!r}")
    table = []
    for tile_set in sets:
        if isinstance(tile_set, str | bytes) or not isinstance(tile_set, Iterable):
            raise InvalidAction(f"a set must be a list of tiles, got {tile_set!r}")
        try:
            table.append(parse_tiles(tile_set))
        except NotationError as err:
            raise InvalidAction(str(err)) from None
    return tuple(table)


def _as_table(sets: Sequence[Sequence[Tile]]) -> Layout:
    if isinstance(sets, str) or not all(
        isinstance(tile_set, Sequence) and all(isinstance(tile, Tile) for tile in tile_set)
        for tile_set in sets
    ):
        raise InvalidAction(f"a table must be a sequence of sets of tiles, got {sets!r}")
    return tuple(tuple(tile_set) for tile_set in sets)


@dataclass(frozen=True, slots=True)
class Play:
    """Lay tiles from the rack and rearrange the table; ``table_after`` is the whole table.

    >>> Play.from_notation([["B1", "B2", "B3"]]).table_after
    ((Tile('B1'), Tile('B2'), Tile('B3')),)
    """

    table_after: Layout
    type: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_after", _as_table(self.table_after))

    @classmethod
    def from_notation(cls, sets: Iterable[Iterable[str]]) -> Play:
        """A play from tile notations, set by set."""
        return cls(parse_table(sets))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"type": self.type, "table_after": table_to_json(self.table_after)}


@dataclass(frozen=True, slots=True)
class _BareAction:
    """An action that is nothing but its type, like :class:`Draw`."""

    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Draw(_BareAction):
    """Take a tile from the pool (with the River: take two, then :class:`Discard` one).

    >>> Draw().to_dict()
    {'type': 'draw'}
    """

    type: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Pass(_BareAction):
    """Let the turn go by without drawing; only when the pool is empty.

    >>> Pass().to_dict()
    {'type': 'pass'}
    """

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn clock ran out; ``changed`` says whether the player had moved anything.

    The engine never saw the unfinished work, so table and rack stay as they were; the
    player draws ``failed_turn_penalty_draw`` tiles if ``changed`` else
    ``overtime_penalty_draw`` (R4.6).

    >>> Timeout(changed=True).to_dict()
    {'type': 'timeout', 'changed': True}
    """

    changed: bool
    type: ClassVar[str] = "timeout"

    def __post_init__(self) -> None:
        if not isinstance(self.changed, bool):
            raise InvalidAction(f"timeout 'changed' must be true or false, got {self.changed!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"type": self.type, "changed": self.changed}


@dataclass(frozen=True, slots=True)
class Resign(_BareAction):
    """A player gives up the game; any seat still in play may, on anyone's turn.

    The seat drops out: its rack stays as it is and is scored as a loser's when the game
    ends, and play skips it. When one seat is left in play, that seat wins.

    >>> Resign().to_dict()
    {'type': 'resign'}
    """

    type: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class Forfeit(_BareAction):
    """A seat is put out of the game for abandoning it (the web layer decides when: after
    so many turns in a row ran out of time). It drops out exactly like :class:`Resign`.

    >>> Forfeit().to_dict()
    {'type': 'forfeit'}
    """

    type: ClassVar[str] = "forfeit"


@dataclass(frozen=True, slots=True)
class Adjudicate(_BareAction):
    """The game is stopped before its end and scored as it stands, by an authority above
    the table (a league's matchday deadline, a moderator), not by a player: allowed on
    anyone's turn, logged against the seat whose turn it was.

    Scored as if the pool had run empty (R8.2, :mod:`engine.scoring`): the seat in play
    with the lowest rack wins, unless that is tied.

    >>> Adjudicate().to_dict()
    {'type': 'adjudicate'}
    """

    type: ClassVar[str] = "adjudicate"


@dataclass(frozen=True, slots=True)
class Discard:
    """River variant: put one of the two tiles just drawn face-up at the end of the River.

    >>> Discard(parse_tile("O9")).to_dict()
    {'type': 'discard', 'tile': 'O9'}
    """

    tile: Tile
    type: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        if not isinstance(self.tile, Tile):
            raise InvalidAction(f"a discard needs a tile, got {self.tile!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"type": self.type, "tile": str(self.tile)}


@dataclass(frozen=True, slots=True)
class TakeFromRiver:
    """River variant: take the River tile at ``index`` (the key tile) and every newer one.

    The key tile must be played in ``table_after``; the newer tiles (the plunder) go to
    the rack and cannot be played this turn.

    >>> TakeFromRiver(0, ()).to_dict()
    {'type': 'take_from_river', 'index': 0, 'table_after': []}
    """

    index: int
    table_after: Layout
    type: ClassVar[str] = "take_from_river"

    def __post_init__(self) -> None:
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise InvalidAction(f"a river index must be a whole number, got {self.index!r}")
        object.__setattr__(self, "table_after", _as_table(self.table_after))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "type": self.type,
            "index": self.index,
            "table_after": table_to_json(self.table_after),
        }


@dataclass(frozen=True, slots=True)
class Rewind:
    """The game goes back to the start of turn ``turn``, by a moderator's ruling (a bug
    decided what followed): every move since is undone and play resumes from there,
    racks and table as they were.

    With a ``seed`` the undrawn pool is shuffled afresh from it: the undone turns showed
    tiles (a draw named to its drawer, the next tiles of the old order), and with the old
    order kept a player would know their next draw. The seed is a secret like the game's
    own; a rewind without one (older logs) keeps the pool as it was.

    The log keeps the undone moves and this action after them, so the game still
    replays exactly from its seed and its log: :func:`engine.game.replay` remembers the
    state at the start of each turn and goes back to it. :func:`engine.game.apply`
    alone, with no history, refuses it.

    >>> Rewind(3).to_dict()
    {'type': 'rewind', 'turn': 3}
    >>> Rewind(3, seed="5eed").to_dict()
    {'type': 'rewind', 'turn': 3, 'seed': '5eed'}
    """

    turn: int
    seed: str | None = None
    type: ClassVar[str] = "rewind"

    def __post_init__(self) -> None:
        if isinstance(self.turn, bool) or not isinstance(self.turn, int) or self.turn < 1:
            raise InvalidAction(f"a rewind goes back to a turn from 1, got {self.turn!r}")
        if self.seed is not None and (not isinstance(self.seed, str) or not self.seed):
            raise InvalidAction(f"a rewind's seed is a text, got {self.seed!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        seed = {} if self.seed is None else {"seed": self.seed}
        return {"type": self.type, "turn": self.turn, **seed}


@dataclass(frozen=True, slots=True)
class Restore(_BareAction):
    """A moderator takes back the rewind just logged (a later ruling supersedes it, and
    nobody has moved since): the game is again exactly as it was just before the rewind,
    turn, current player and all.

    Like :class:`Rewind`, it needs the game's history (:class:`engine.game.Timeline`),
    and it is valid only as the very next action after a rewind.

    >>> Restore().to_dict()
    {'type': 'restore'}
    """

    type: ClassVar[str] = "restore"


Action = (
    Play
    | Draw
    | Pass
    | Timeout
    | Discard
    | TakeFromRiver
    | Resign
    | Forfeit
    | Adjudicate
    | Rewind
    | Restore
)
InHistory = Rewind | Restore
"""The actions that move in the game's history rather than play on (a moderator's)."""
DropOut = Resign | Forfeit
"""The actions that take a seat out of the game (allowed on anyone's turn)."""
_FIELDS: dict[str, set[str]] = {
    "play": {"table_after"},
    "draw": set(),
    "pass": set(),
    "timeout": {"changed"},
    "discard": {"tile"},
    "take_from_river": {"index", "table_after"},
    "resign": set(),
    "forfeit": set(),
    "adjudicate": set(),
    "rewind": {"turn"},
    "restore": set(),
}
_OPTIONAL_FIELDS: dict[str, set[str]] = {"rewind": {"seed"}}
ACTION_TYPES: tuple[str, ...] = tuple(_FIELDS)


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Read an action from its dict form; raises :class:`InvalidAction` if malformed.

    >>> action_from_dict({"type": "timeout", "changed": False})
    Timeout(changed=False)
    >>> action_from_dict({"type": "jump"})
    Traceback (most recent call last):
    ...
    engine.actions.InvalidAction: unknown action type 'jump'; the types are play, draw, ...
    """
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action must be an object, got {data!r}")
    kind = data.get("type")
    if kind not in _FIELDS:
        raise InvalidAction(
            f"unknown action type {kind!r}; the types are {', '.join(ACTION_TYPES)}"
        )
    fields = _FIELDS[kind]
    if not fields | {"type"} <= set(data) <= fields | _OPTIONAL_FIELDS.get(kind, set()) | {"type"}:
        expected = ", ".join(sorted(fields)) or "nothing else"
        raise InvalidAction(f"a {kind} action takes {expected}; got {', '.join(sorted(data))}")
    if kind == "play":
        return Play(parse_table(data["table_after"]))
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "resign":
        return Resign()
    if kind == "forfeit":
        return Forfeit()
    if kind == "adjudicate":
        return Adjudicate()
    if kind == "rewind":
        return Rewind(data["turn"], data.get("seed"))
    if kind == "restore":
        return Restore()
    if kind == "timeout":
        return Timeout(data["changed"])
    if kind == "discard":
        try:
            return Discard(parse_tile(data["tile"]))
        except NotationError as err:
            raise InvalidAction(str(err)) from None
    return TakeFromRiver(data["index"], parse_table(data["table_after"]))
