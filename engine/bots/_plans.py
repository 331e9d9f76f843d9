"""The plays of the two plain levels: new sets from the rack, and the solver's best."""

from __future__ import annotations

from engine.bots._turn import BotTurn, Candidate


def new_sets_move(turn: BotTurn) -> Candidate | None:
    """``easy``: the most rack tiles laid as new sets, the table left as it is.

    Before the initial meld the sets must reach the meld minimum (the solver applies
    the ruleset's meld rules to the rack alone).

    >>> from engine.ruleset import Ruleset
    >>> from engine.tiles import parse_tiles
    >>> turn = BotTurn(Ruleset(), (parse_tiles(["K4", "K5", "K6"]),),
    ...             parse_tiles(["K7", "R9", "B9", "O9", "B1"]), True, (14,), 40, False)
    >>> move = new_sets_move(turn)
    >>> [str(t) for t in move.played], len(move.table_after)
    (['R9', 'B9', 'O9'], 2)
    """
    solution = turn.solve(table=())
    if not solution.n:
        return None
    return turn.move((*turn.table, *solution.table_after), solution.played)


def best_move(turn: BotTurn) -> Candidate | None:
    """``normal``: the solver's best play (most tiles, then highest value), or None.

    >>> from engine.ruleset import Ruleset
    >>> from engine.tiles import parse_tiles
    >>> turn = BotTurn(Ruleset(), (parse_tiles(["K4", "K5", "K6"]),),
    ...             parse_tiles(["K7", "R9", "B9", "O9", "B1"]), True, (14,), 40, False)
    >>> [str(t) for t in best_move(turn).played]
    ['R9', 'B9', 'K7', 'O9']
    """
    return turn.from_solution(turn.solve())
