"""The ``strong`` level: the solver's best play, minus the plays that hand the game away.

Watching ``normal`` play itself showed where games are lost: in about half of the
games won by going out, the loser's last play had made that possible, adding to the
table exactly what the winner's last tiles needed. So ``strong`` does what
``normal`` does (the most tiles the solver can lay, going out whenever it can) with
two habits on top:

* **Don't feed a player who is about to go out.** When an opponent who has melded
  holds ``deny_tiles`` tiles or fewer, the bot guesses that opponent's rack a dozen
  times from the tiles it cannot see (keeping only guesses that could not go out on
  the table as it is, since the opponent has not) and counts how often each candidate
  play would let the guessed rack go out. The best play goes down if that risk is at
  most ``deny_risk``; otherwise the largest candidate that is safe enough (new sets
  from the rack only, the most valuable play, or the best play without its new
  sets), and if none is, the bot draws instead of playing.
* **Dump value at the very end.** With the pool nearly empty or in the last round,
  the bot lays whichever play leaves the lower penalty on its rack: the most tiles
  or the most value.

Tried and dropped, each within noise of ``normal`` or worse over 200 games: keeping
rack-only sets back while the game is young (49%), laying the smallest piece of the
best play each turn (40-44%), keeping jokers on the rack (49-50%), always playing for
value (49%). The figures for the final choice are in :mod:`engine.match`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.actions import Layout
from engine.bots._plans import best_move, new_sets_move
from engine.bots._turn import BotTurn, Candidate
from engine.tiles import JOKER, Tile


@dataclass(frozen=True, slots=True)
class Style:
    """The strong bot's thresholds, found by experiment (:mod:`engine.match`).

    ``deny_tiles``: an opponent holding this many tiles or fewer may go out soon.
    ``guesses``: how many racks to guess for such an opponent.
    ``deny_risk``: the share of guessed racks a play may let go out and still be made.
    ``low_pool``: with this many tiles or fewer in the pool the game is at its end.
    """

    deny_tiles: int = 6
    guesses: int = 12
    deny_risk: float = 0.2
    low_pool: int = 4


STYLE = Style()


def strong_move(turn: BotTurn, rng: random.Random, style: Style = STYLE) -> Candidate | None:
    """``strong``: the best play unless it lets an opponent go out; value at the end.

    ``rng`` draws the guesses of opponents' racks.

    >>> from engine.ruleset import Ruleset
    >>> from engine.tiles import parse_tiles
    >>> table = (parse_tiles(["R5", "R6", "R7"]),)
    >>> rack = parse_tiles(["R8", "K1", "B4", "O12"])
    >>> early = BotTurn(Ruleset(), table, rack, True, (9,), 40, False)
    >>> [str(t) for t in strong_move(early, random.Random(0)).played]
    ['R8']

    Laying R8 lets an opponent holding just an R9 go out. A bot that takes no risk
    at all (and guesses a hundred racks, some holding an R9) draws instead:

    >>> late = BotTurn(Ruleset(), table, rack, True, (1,), 40, False)
    >>> strong_move(late, random.Random(0), Style(guesses=100, deny_risk=0.0)) is None
    True
    """
    best = best_move(turn)
    if best is None or best.size == len(turn.rack):
        return best
    if not turn.meld_done or turn.key is not None:
        return best
    if any(size <= style.deny_tiles for size in turn.melded_opponents()):
        return _denying(turn, best, rng, style)
    if turn.final_round or turn.pool_size <= style.low_pool:
        return _least_left(turn, best)
    return best


def _denying(turn: BotTurn, best: Candidate, rng: random.Random, style: Style) -> Candidate | None:
    """The largest play whose risk of letting a short-handed opponent go out is
    acceptable; None (draw) if every candidate is too risky."""
    racks = _guess_racks(turn, rng, style)
    if not racks:
        return best

    allowed = int(style.deny_risk * len(racks))

    def safe(move: Candidate) -> bool:
        out = 0
        for rack in racks:
            out += _goes_out(turn, move.table_after, rack)
            if out > allowed:
                return False
        return True

    if safe(best):
        return best
    return next((move for move in _smaller_plays(turn, best) if safe(move)), None)


def _smaller_plays(turn: BotTurn, best: Candidate) -> list[Candidate]:
    """Other plays to try when the best one is too risky, largest first."""
    plays = [
        new_sets_move(turn),
        turn.from_solution(turn.solve(objective="value")),
        _table_part(turn, best),
    ]
    return sorted((move for move in plays if move is not None), key=lambda move: -move.size)


def _guess_racks(turn: BotTurn, rng: random.Random, style: Style) -> list[tuple[Tile, ...]]:
    """Racks the short-handed opponents might hold: drawn from the unseen tiles, and
    kept only if they could not go out on the table as it stands (else the opponent
    would have done so already, or will whatever this player does).

    That test looks only at the table sets near the guessed tiles: several times
    faster on a full table, and it misses only long chains of rearrangement."""
    unseen = turn.unseen()
    racks: list[tuple[Tile, ...]] = []
    for size in turn.melded_opponents():
        if size > style.deny_tiles or size > len(unseen):
            continue
        wanted = len(racks) + style.guesses
        for _ in range(3 * style.guesses):
            rack = tuple(rng.sample(unseen, size))
            if not _goes_out(turn, _near(turn.table, rack), rack):
                racks.append(rack)
                if len(racks) == wanted:
                    break
    return racks


def _goes_out(turn: BotTurn, table: Layout, rack: tuple[Tile, ...]) -> bool:
    return turn.goes_out(table, rack)


def _near(table: Layout, rack: tuple[Tile, ...]) -> Layout:
    """The sets of ``table`` that share a number with a tile of ``rack``, or hold a tile
    of its colour at most two numbers away, or a joker (all of them if ``rack`` holds
    a joker)."""
    if JOKER in rack:
        return table
    return tuple(
        tile_set
        for tile_set in table
        if any(
            tile.is_joker
            or any(
                tile.number == other.number
                or (tile.colour == other.colour and abs(tile.number - other.number) <= 2)
                for other in rack
            )
            for tile in tile_set
        )
    )


def _least_left(turn: BotTurn, best: Candidate) -> Candidate:
    """Of the most-tiles and the most-value plays, the one leaving the lower penalty."""
    by_value = turn.from_solution(turn.solve(objective="value"))
    if by_value is None or turn.penalty_left(by_value) >= turn.penalty_left(best):
        return best
    return by_value


def _table_part(turn: BotTurn, best: Candidate) -> Candidate | None:
    """``best`` without the new sets made only of rack tiles: just what it works into
    the table sets, or None if that is nothing (or not a legal play on its own)."""
    budget = Counter(best.played)
    own: list[int] = []
    for index, tile_set in enumerate(best.table_after):
        need = Counter(tile_set)
        if all(budget[tile] >= count for tile, count in need.items()):
            own.append(index)
            budget.subtract(need)
    if not own or not budget.total():
        return None
    table = tuple(tile_set for i, tile_set in enumerate(best.table_after) if i not in own)
    move = turn.move(table, tuple(budget.elements()))
    return move if turn.is_legal(move) else None
