"""Computer players at three levels, built on the solver.

A bot decides from what its seat may know, a :class:`~engine.views.PlayerView`: its
own rack, the table, the River and how many tiles everyone holds; never the pool
order or another rack.

>>> import random
>>> from engine.game import apply, new_game
>>> from engine.ruleset import Ruleset
>>> state = new_game(Ruleset(players=2), seed=3, starting_player=0)
>>> action = choose_for(state, 0, "normal", random.Random(1))
>>> action
Draw()
>>> apply(state, action, 0).turn_number
2

The levels:

``easy``
    Lays new sets made from its own rack only, never touching the table (before the
    initial meld they must reach ``initial_meld_min``, as for everyone); otherwise
    draws.
``normal``
    The solver's best play every turn (most tiles, then highest value), else draws.
``strong``
    The best play, except that it will not lay tiles that let an opponent who is
    about to go out do so (it guesses their rack from the tiles it cannot see), and
    at the very end it sheds value rather than tiles (:mod:`engine.bots._strong`).

Every level takes from the River when the key tile leaves its rack smaller than its
own play (or a draw) would, discards the less useful of two drawn tiles, and passes
when the pool is empty and nothing can be played. Every play is checked with the turn
verdict before it is returned; should the solver ever propose an illegal play, the
bot warns (:class:`RejectedPlayWarning`) and falls back to a simpler legal choice.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Literal

from engine.actions import Action, Discard, Draw, Pass, Play, TakeFromRiver
from engine.bots._forced import PlayCheck, check_for_play, has_play
from engine.bots._plans import best_move, new_sets_move
from engine.bots._strong import strong_move
from engine.bots._turn import BotTurn, Candidate
from engine.solver import Budget
from engine.state import GameState
from engine.tiles import Tile
from engine.views import PlayerView, view_for

__all__ = [
    "BOT_STEPS",
    "LEVELS",
    "Level",
    "PlayCheck",
    "RejectedPlayWarning",
    "check_for_play",
    "choose_action",
    "choose_discard",
    "choose_for",
    "has_play",
]

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

BOT_STEPS: dict[Level, int] = {"easy": 200_000, "normal": 500_000, "strong": 1_500_000}
"""The solver's steps for a whole move, by level (:class:`~engine.solver.Budget`): about
as long on a quiet machine as a player's hint takes, less for ``easy`` (new sets only)
and more for ``strong``, which asks the solver several times."""

Planner = Callable[[BotTurn, random.Random], Candidate | None]

_PLANNERS: dict[Level, Planner] = {
    "easy": lambda turn, rng: new_sets_move(turn),
    "normal": lambda turn, rng: best_move(turn),
    "strong": strong_move,
}

_RIVER_LOOKBACK = 8
"""How many of the newest River positions a bot considers: an older key tile brings
a long plunder of tiles that cannot be played this turn."""


class RejectedPlayWarning(UserWarning):
    """The solver proposed a play that the turn verdict refuses; the bot did not use it."""


def choose_action(
    view: PlayerView, level: Level, rng: random.Random, budget: Budget | None = None
) -> Action:
    """The action a bot of ``level`` takes in ``view``; it is always legal.

    ``rng`` breaks ties where the bot has no preference, so a seeded game replays.
    ``budget`` bounds all the solver work of the choice together (None: no bound, and
    the choice is the same on every machine); past it the bot plays the best it
    found, or draws (passes when the pool is empty) if it found nothing.

    >>> from engine.game import new_game
    >>> from engine.ruleset import Ruleset
    >>> state = new_game(Ruleset(players=2), seed=7, starting_player=1)
    >>> action = choose_action(view_for(state, 1), "strong", random.Random(0))
    >>> [[str(tile) for tile in tile_set] for tile_set in action.table_after]
    [['R1', 'B1', 'K1'], ['B12', 'K12', 'J']]
    >>> choose_action(view_for(state, 0), "easy", random.Random(0))
    Traceback (most recent call last):
    ...
    ValueError: it is not player 0's turn
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if view.player is None or view.rack is None:
        raise ValueError("a spectator has no turn")
    if not view.actions:
        raise ValueError(f"it is not player {view.player}'s turn")
    if "discard" in view.actions:
        assert view.pending_draw is not None
        return Discard(choose_discard(view.pending_draw, view.rack, rng))
    turn = BotTurn.from_view(view, budget)
    move = _checked(turn, _PLANNERS[level](turn, rng), level)
    if "take_from_river" in view.actions:
        river = _river_choice(view, turn, level)
        if river is not None and river[1].net > (move.net if move is not None else -1):
            return TakeFromRiver(river[0], river[1].table_after)
    if move is not None:
        return Play(move.table_after)
    return Draw() if "draw" in view.actions else Pass()


def choose_for(
    state: GameState,
    seat: int,
    level: Level,
    rng: random.Random,
    budget: Budget | None = None,
) -> Action:
    """:func:`choose_action` for ``seat``, seeing only that seat's view of ``state``.

    >>> from engine.game import new_game
    >>> from engine.ruleset import Ruleset
    >>> state = new_game(Ruleset(players=3), seed=12, starting_player=2)
    >>> type(choose_for(state, 2, "easy", random.Random(0))).__name__
    'Play'
    """
    return choose_action(view_for(state, seat), level, rng, budget)


def choose_discard(drawn: tuple[Tile, ...], rack: tuple[Tile, ...], rng: random.Random) -> Tile:
    """River: which of the two tiles just drawn to discard (the other joins the rack).

    The kept tile is the one with more partners on the rack (same number in other
    colours, neighbours in its colour); a joker is always kept; on a tie the higher
    number goes, as it would cost more if left on the rack at the end, and ``rng``
    settles the rest.

    >>> from engine.tiles import parse_tiles
    >>> rack = parse_tiles(["R5", "R6", "K9"])
    >>> choose_discard(parse_tiles(["R7", "B2"]), rack, random.Random(0))
    Tile('B2')
    >>> choose_discard(parse_tiles(["J", "K10"]), rack, random.Random(0))
    Tile('K10')
    """
    if len(drawn) != 2:
        raise ValueError(f"a discard chooses between two drawn tiles, got {len(drawn)}")
    keys = [(_usefulness(tile, rack), -_penalty_order(tile), rng.random()) for tile in drawn]
    return drawn[0] if keys[0] < keys[1] else drawn[1]


# --- the River -------------------------------------------------------------------------


def _river_choice(view: PlayerView, turn: BotTurn, level: Level) -> tuple[int, Candidate] | None:
    """The best take from the River, or None.

    For each distinct key tile among the newest positions (its newest copy, for the
    smallest plunder), the level's planner runs with the key tile on the rack; only
    plays that lay the key tile count. Strong plays its plain best here: the key tile
    must go down now, so there is nothing to bank.
    """
    best: tuple[int, Candidate] | None = None
    seen: set[Tile] = set()
    first = max(0, len(view.river) - _RIVER_LOOKBACK)
    for index in range(len(view.river) - 1, first - 1, -1):
        key = view.river[index]
        if key in seen:
            continue
        seen.add(key)
        keyed = turn.with_key(key, plunder=len(view.river) - index - 1)
        planner = new_sets_move if level == "easy" else best_move
        move = _with_key_laid(keyed, _checked(keyed, planner(keyed), level), level)
        if move is not None and (best is None or move.net > best[1].net):
            best = (index, move)
    return best


def _with_key_laid(turn: BotTurn, move: Candidate | None, level: Level) -> Candidate | None:
    """``move`` if it lays the key tile; else, after the initial meld and above the
    easy level, the same play with the key tile worked into the table, if possible."""
    assert turn.key is not None
    if move is not None and turn.key in move.played:
        return move
    if level == "easy" or not turn.meld_done:
        return None
    table = move.table_after if move is not None else turn.table
    played = move.played if move is not None else ()
    arranged = turn.arrange(table, (turn.key,))
    if arranged is None:
        return None
    extended = turn.move(arranged, (*played, turn.key))
    return extended if turn.is_legal(extended) else None


def _checked(turn: BotTurn, move: Candidate | None, level: Level) -> Candidate | None:
    """``move`` if the verdict accepts it; otherwise a warning and a fallback."""
    if move is None or turn.is_legal(move, require_key=False):
        return move
    warnings.warn(
        RejectedPlayWarning(
            f"{level} bot: the verdict refused {move.describe()} on {turn.describe()}"
            f" (meld done: {turn.meld_done}; rules: {turn.rules.differences()})"
        ),
        stacklevel=3,
    )
    fallback = new_sets_move(turn) if level != "easy" else None
    return fallback if fallback is not None and turn.is_legal(fallback) else None


# --- the discard -----------------------------------------------------------------------


def _usefulness(tile: Tile, rack: tuple[Tile, ...]) -> int:
    """A rough count of the rack tiles ``tile`` could make a set with."""
    if tile.is_joker:
        return 1000
    numbered = {other for other in rack if not other.is_joker}
    colours = {other.colour for other in numbered if other.number == tile.number}
    score = 2 * len(colours - {tile.colour})
    for other in numbered:
        if other.colour == tile.colour:
            gap = abs(other.number - tile.number)
            score += 2 if gap == 1 else 1 if gap == 2 else 0
    if tile in numbered:
        score -= 1  # a second copy seldom helps as much as a new tile
    return score


def _penalty_order(tile: Tile) -> int:
    return 100 if tile.is_joker else tile.number
