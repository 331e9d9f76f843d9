"""The ``strong`` level: the solver's best play, timed.

Against a player who lays everything at once (``normal``), these habits win (the
figures are in :mod:`engine.match`):

* **Go out** whenever the best play empties the rack.
* **Bank sets while it is safe.** A set made only of rack tiles can be laid on any
  later turn, whatever happens to the table. So when the best play lays such sets
  *and* something else (tiles worked into the table), the sets stay on the rack; when
  it lays only such sets, one goes down and the rest wait. A banked set is a turn
  without drawing later, and the rack grows by fewer drawn tiles in the end.
* **Dump value near the end.** When an opponent holds few tiles, or the pool is
  nearly empty, or the last round has begun, banking stops and the bot lays
  whichever play leaves the least penalty on its rack (most tiles or highest value).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.actions import Table
from engine.bots._plans import best_move
from engine.bots._turn import Move, Turn
from engine.scoring import rack_total
from engine.tiles import JOKER, Tile


@dataclass(frozen=True, slots=True)
class Style:
    """The strong bot's thresholds (found by experiment, see :mod:`engine.match`).

    ``danger_tiles``: an opponent holding this many tiles or fewer may go out soon.
    ``low_pool``: with this many tiles or fewer in the pool the game is near its end.
    ``bank``: whether to keep sets on the rack at all.
    """

    danger_tiles: int = 6
    low_pool: int = 4
    bank: bool = True
    slow: bool = False
    joker_slack: int | None = None


STYLE = Style()


def strong_move(turn: Turn, style: Style | None = None) -> Move | None:
    """``strong``: the best play, banking sets early and dumping value late.

    >>> from engine.ruleset import Ruleset
    >>> from engine.tiles import parse_tiles
    >>> rack = parse_tiles(["R1", "R2", "R3", "K9", "B9", "O9", "B13"])
    >>> turn = Turn(Ruleset(), (), rack, True, (14,), 40, False)
    >>> [str(t) for t in strong_move(turn).played]
    ['B9', 'K9', 'O9']
    >>> late = Turn(Ruleset(), (), rack, True, (3,), 40, False)
    >>> [str(t) for t in strong_move(late).played]
    ['R1', 'R2', 'R3', 'B9', 'K9', 'O9']
    """
    style = style or STYLE
    best = best_move(turn)
    if best is None or best.size == len(turn.rack):
        return best
    if _near_the_end(turn, style):
        return _least_left(turn, best)
    if not turn.meld_done or turn.key is not None:
        return best
    if style.joker_slack is not None and JOKER in best.played:
        best = _without_jokers(turn, best, style.joker_slack)
        if best is None:
            return None
    if not style.bank:
        return best
    if style.slow:
        return _smallest_piece(turn, best) or best
    return _banked(turn, best) or best


def _without_jokers(turn: Turn, best: Move, slack: int) -> Move | None:
    plain_rack = tuple(tile for tile in turn.rack if not tile.is_joker)
    plain = turn.from_solution(turn.solve(rack=plain_rack))
    jokers = best.played.count(JOKER)
    if plain is not None and plain.size >= best.size - jokers - slack:
        return plain
    if plain is None and best.size - jokers <= slack:
        return None
    return best


def _smallest_piece(turn: Turn, best: Move) -> Move | None:
    own, rest = _own_sets(best)
    pieces: list[Move] = []
    for index in own:
        tile_set = best.table_after[index]
        pieces.append(turn.move((*turn.table, tile_set), tile_set))
    if rest:
        kept: Counter[Tile] = Counter()
        for index in own:
            kept.update(best.table_after[index])
        played = Counter(best.played)
        played.subtract(kept)
        table = tuple(s for i, s in enumerate(best.table_after) if i not in own)
        pieces.append(turn.move(table, tuple(played.elements())))
        for tile in sorted(set(played.elements()))[:4]:
            arranged = turn.arrange(turn.table, (tile,))
            if arranged is not None:
                pieces.append(turn.move(arranged, (tile,)))
    pieces = [p for p in pieces if p.size < best.size and turn.is_legal(p)]
    if not pieces:
        return None
    return min(pieces, key=lambda p: (p.size, -_penalty(turn, p.played)))


def _near_the_end(turn: Turn, style: Style) -> bool:
    return (
        turn.final_round
        or turn.pool_size <= style.low_pool
        or min(turn.opponents, default=99) <= style.danger_tiles
    )


def _least_left(turn: Turn, best: Move) -> Move:
    """Of the most-tiles and the most-value plays, the one leaving the lower penalty."""
    by_value = turn.from_solution(turn.solve(objective="value"))
    if by_value is None or turn.penalty_left(by_value) >= turn.penalty_left(best):
        return best
    return by_value


def _banked(turn: Turn, best: Move) -> Move | None:
    """``best`` with its rack-only sets held back, or None if nothing can be held."""
    own_sets, rest = _own_sets(best)
    if not own_sets:
        return None
    if rest:
        keep = own_sets
    else:
        if len(own_sets) == 1:
            return None
        # Lay the set that would cost most if the game ended, keep the others.
        laid = max(own_sets, key=lambda index: _penalty(turn, best.table_after[index]))
        keep = [index for index in own_sets if index != laid]
    kept_tiles: Counter[Tile] = Counter()
    for index in keep:
        kept_tiles.update(best.table_after[index])
    table: Table = tuple(s for i, s in enumerate(best.table_after) if i not in keep)
    played = Counter(best.played)
    played.subtract(kept_tiles)
    move = turn.move(table, tuple(played.elements()))
    return move if move.size and turn.is_legal(move) else None


def _own_sets(best: Move) -> tuple[list[int], int]:
    """Positions of sets in ``best.table_after`` made only of tiles laid from the rack,
    and how many laid tiles are left over for the rest of the table."""
    budget = Counter(best.played)
    own: list[int] = []
    for index, tile_set in enumerate(best.table_after):
        need = Counter(tile_set)
        if all(budget[tile] >= count for tile, count in need.items()):
            own.append(index)
            budget.subtract(need)
    return own, sum(budget.values())


def _penalty(turn: Turn, tiles: tuple[Tile, ...]) -> int:
    return rack_total(tiles, turn.rules)
