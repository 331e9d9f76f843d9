"""Scoring a finished game (RULES.md §8-9).

Every player's rack value ``L`` is the sum of :func:`engine.sets.rack_value` over the
tiles left on the rack (R9.1). The game ends one of two ways:

``"out"`` — a player emptied the rack (R9.2). Under ``score_mode: "zero_sum"`` each
loser scores ``-L`` and the winner the sum of the losers' ``L``; under
``"penalty_only"`` the winner scores 0 and each loser ``+L`` penalty points.

``"pool_empty"`` — the pool ran out and nobody went out (R9.3). The winner is the
player with the lowest rack value ``W`` (``pool_empty_winner: "lowest_value"``) or
with the fewest tiles (``"fewest_tiles"``). Under ``zero_sum``:

* ``"difference"``: each loser ``-(L - W)``, the winner the sum of those differences;
* ``"face"``: each loser ``-L``, the winner the sum of the losers' ``L``;
* ``"winner_difference"``: each loser ``-L``, the winner the sum of ``L - W``.

Two choices the rules leave open, made here:

* **Ties for the win when the pool is empty** (R9.4 says no source covers them). Among
  the players tied on the deciding measure, the one with fewer tiles wins under
  ``lowest_value`` and the one with the lower rack value under ``fewest_tiles``; if
  they are still tied, the player listed first in ``racks`` wins. The game module
  lists racks in seat order starting from the player who would have moved next, so
  the tie goes to the player who would have played soonest.
* **``penalty_only`` when the pool is empty** (R9.2 defines it only for ``"out"``).
  The winner scores 0 and each loser scores as penalty points exactly what
  ``zero_sum`` would take from them: ``L - W`` under ``"difference"``, ``L`` under
  ``"face"`` and ``"winner_difference"``. The tied loser of a tie-break scores 0.

>>> from engine.tiles import parse_tiles
>>> s = score_game("out", {"A": (), "B": parse_tiles(["B12", "J"])}, winner="A")
>>> s.winner, s.rack_values, s.scores
('A', {'A': 0, 'B': 42}, {'A': 42, 'B': -42})
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from engine.ruleset import Ruleset
from engine.sets import rack_value
from engine.tiles import Tile

Ending = Literal["out", "pool_empty"]
ENDINGS: tuple[Ending, ...] = ("out", "pool_empty")

PlayerKey = TypeVar("PlayerKey", bound=Hashable)


class ScoringError(ValueError):
    """Racks and ending that do not describe a finished game (no such winner, etc.)."""


@dataclass(frozen=True, slots=True)
class GameScore(Generic[PlayerKey]):
    """The result of a game: who won, each rack's value and each player's score.

    ``rack_values`` and ``scores`` list the players in the order of the racks given.
    """

    winner: PlayerKey
    rack_values: dict[PlayerKey, int]
    scores: dict[PlayerKey, int]


def rack_total(tiles: Sequence[Tile], ruleset: Ruleset | None = None) -> int:
    """The value ``L`` of the tiles left on one rack (R9.1).

    >>> from engine.tiles import parse_tiles
    >>> rack_total(parse_tiles(["R1", "K10", "J"])), rack_total(parse_tiles(["R1", "K10", "J"]),
    ...                                                         Ruleset(score_values="house"))
    (41, 50)
    """
    rules = ruleset if ruleset is not None else Ruleset()
    return sum(rack_value(tile, rules) for tile in tiles)


def score_game(
    ending: Ending,
    racks: Mapping[PlayerKey, Sequence[Tile]],
    winner: PlayerKey | None = None,
    ruleset: Ruleset | None = None,
    contenders: Collection[PlayerKey] | None = None,
) -> GameScore[PlayerKey]:
    """Score a finished game. ``winner`` is required for ``"out"`` and ignored otherwise.

    ``contenders`` are the players who may win when the pool is empty (all of them if
    ``None``); the others dropped out of the game and score as losers whatever their
    racks, never better than even (a difference below zero counts as zero).

    >>> from engine.tiles import parse_tiles
    >>> racks = {"A": parse_tiles(["R2", "R3"]), "B": parse_tiles(["K1"]),
    ...          "C": parse_tiles(["B7", "J"])}
    >>> score_game("pool_empty", racks).scores
    {'A': -4, 'B': 40, 'C': -36}
    >>> score_game("pool_empty", racks, ruleset=Ruleset(score_mode="penalty_only")).scores
    {'A': 4, 'B': 0, 'C': 36}
    >>> score_game("pool_empty", racks, contenders=["A", "C"]).scores
    {'A': 32, 'B': 0, 'C': -32}
    """
    rules = ruleset if ruleset is not None else Ruleset()
    if len(racks) < 1:
        raise ScoringError("a game needs at least one rack to score")
    values = {player: rack_total(tiles, rules) for player, tiles in racks.items()}
    if ending == "out":
        winner = _check_out_winner(racks, winner)
        losses = {player: value for player, value in values.items() if player != winner}
        winner_gain = sum(losses.values())
    elif ending == "pool_empty":
        winner = _pool_empty_winner(racks, values, rules, contenders)
        low = values[winner]
        differences = {p: value - low for p, value in values.items() if p != winner}
        if contenders is not None:
            differences = {
                p: difference if p in contenders else max(difference, 0)
                for p, difference in differences.items()
            }
        if rules.pool_empty_scoring == "difference":
            losses = differences
        else:
            losses = {p: value for p, value in values.items() if p != winner}
        if rules.pool_empty_scoring == "face":
            winner_gain = sum(losses.values())
        else:
            winner_gain = sum(differences.values())
    else:
        raise ScoringError(f"the ending must be 'out' or 'pool_empty', got {ending!r}")
    if rules.score_mode == "penalty_only":
        scores = {p: 0 if p == winner else losses[p] for p in racks}
    else:
        scores = {p: winner_gain if p == winner else -losses[p] for p in racks}
    return GameScore(winner, values, scores)


def _check_out_winner(
    racks: Mapping[PlayerKey, Sequence[Tile]], winner: PlayerKey | None
) -> PlayerKey:
    if winner is None:
        raise ScoringError("a game that ended with a player going out needs its winner")
    if winner not in racks:
        raise ScoringError(f"the winner {winner!r} has no rack in this game")
    if racks[winner]:
        raise ScoringError(f"the winner {winner!r} went out, so their rack must be empty")
    return winner


def _pool_empty_winner(
    racks: Mapping[PlayerKey, Sequence[Tile]],
    values: Mapping[PlayerKey, int],
    rules: Ruleset,
    contenders: Collection[PlayerKey] | None,
) -> PlayerKey:
    """The lowest by the deciding measure, then by the other one, then the first listed."""
    order = {player: i for i, player in enumerate(racks)}
    candidates = [p for p in racks if contenders is None or p in contenders]
    if not candidates:
        raise ScoringError("nobody left in the game can win it")

    def standing(player: PlayerKey) -> tuple[int, int, int]:
        tiles, value = len(racks[player]), values[player]
        if rules.pool_empty_winner == "fewest_tiles":
            return tiles, value, order[player]
        return value, tiles, order[player]

    return min(candidates, key=standing)
