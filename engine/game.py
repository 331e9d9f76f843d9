"""Game flow: set up a game from a seed, apply actions, replay a stored game.

Every function is pure: :func:`apply` returns a new :class:`~engine.state.GameState`
and never changes the one it was given. Randomness enters only through the seed of
:func:`new_game`, so a game is fully described by its ruleset, its seed and the list of
``(player, action)`` pairs, and :func:`replay` rebuilds it exactly.

>>> state = new_game(Ruleset(players=2), seed=2024, starting_player=0)
>>> len(state.racks[0]), len(state.pool), state.turn_number
(14, 78, 1)
>>> state = apply(state, Draw(), player=0)
>>> len(state.racks[0]), state.current_player, state.turn_number
(15, 1, 2)
>>> apply(state, Draw(), player=0)
Traceback (most recent call last):
...
engine.actions.OutOfTurn: it is player 1's turn, not player 0's

Choices this module makes where RULES.md leaves them open:

*First player.* Each player draws a tile from the shuffled tiles; the highest number
starts. A joker has no number and counts lower than a 1. Players tied for the highest
draw again, from the tiles still face down (the tiles shown stay out until everyone has
drawn), and only they draw. Then all tiles go back, are shuffled again and each seat,
in seat order, is dealt ``ruleset.rack_size`` tiles; the rest is the pool.

*Direction.* Seats are numbered clockwise; ``clockwise`` play goes 0, 1, 2, ...,
``counter_clockwise`` goes 0, 3, 2, ... (in a game of four).

*Empty pool* (R8.2). ``play_until_blocked``: with the pool empty a player plays or
passes (a timeout then counts as a pass); the game ends when every player has passed
in a row. ``immediate``: the game ends as soon as a turn ends with the pool empty.
``one_more_round``: the draw that takes the last tile ends that player's turn as usual;
then the final round starts *with that same player* (Jumbo: "every player, starting
with the one who drew the last tile"), followed by the others in the direction of play;
after each seat has had that one turn the game ends. In every case a player who
empties the rack ends the game at once.

*Scores* come from :func:`engine.scoring.score_game` for every ending. When the pool is
empty and players tie for the win, it gives the win to the first rack listed after its
own tie-breaks (fewer tiles / lower value); the racks are listed from the player who
would have moved next, in the direction of play, so the tie goes to whoever would have
played soonest.

*Timeouts* (R4.6). The table and rack stay as they were at the start of the turn; the
player draws ``failed_turn_penalty_draw`` tiles if they had changed something, else
``overtime_penalty_draw`` (fewer if the pool holds fewer); the turn passes on. Penalty
tiles go straight to the rack, also with the River.

*Dropping out.* :class:`~engine.actions.Resign` (a player gives up) and
:class:`~engine.actions.Forfeit` (the web layer puts out a player who abandoned the game)
may be sent for any seat still in play, on anyone's turn. The seat's rack stays as it
is; a River draw it had not sorted is settled as a timeout would. Play skips the seat
from then on; if it was that seat's turn, the turn passes on (it does not count as a
pass when the pool is empty, nor does the seat need a turn of its own any more in the
final round or among the passes that block the game). When a single seat is left in
play it wins as if it had gone out (its own tiles do not count), with termination
``RESIGNATION`` or ``FORFEIT`` after the last seat to leave; if the game ends otherwise,
a seat that dropped out cannot win and is scored as a loser (never better than even
under ``difference`` scoring).

*The River* (``draw_mode: "river"``, RULES.md §10). :class:`~engine.actions.Draw` takes
the two top pool tiles into ``pending_draw`` (seen only by that player) and the turn
goes on until :class:`~engine.actions.Discard` puts one of them at the right end of the
River; the other goes to the rack. With a single tile left in the pool the player simply
takes it (nothing to discard). A timeout while two tiles are pending discards the one
drawn second and keeps the other, with no further penalty: the player had drawn
already. :class:`~engine.actions.TakeFromRiver` is judged as a turn whose rack is the
rack plus the key tile, so before the initial meld the key tile must be part of a
rack-only initial meld worth ``initial_meld_min``, and after it anything a normal play
allows; the key tile must be among the tiles played. The plunder is added to the rack
after the verdict, so it cannot be played that turn. With an empty pool the River can
still be taken from. Tiles left in the River at the end belong to nobody and are not
scored.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Literal

from engine.actions import (
    Action,
    Adjudicate,
    Discard,
    Draw,
    DropOut,
    Forfeit,
    GameError,
    GameOver,
    IllegalMove,
    InHistory,
    InvalidAction,
    Layout,
    OutOfTurn,
    Pass,
    Play,
    Resign,
    Restore,
    Rewind,
    TakeFromRiver,
    Timeout,
    action_from_dict,
)
from engine.ruleset import Ruleset
from engine.scoring import rack_total, score_game
from engine.state import (
    DrawnTile,
    FirstPlayerDraw,
    GameState,
    Outcome,
    Termination,
    legal_action_types,
)
from engine.tiles import Tile, full_set
from engine.verdict import judge_turn
from engine.views import PlayerView, spectator_view, view_for

Rack = tuple[Tile, ...]

Seed = int | str
"""A game seed: a whole number or a text; both give the same game on every machine."""

__all__ = [
    "Action",
    "Adjudicate",
    "Discard",
    "Draw",
    "Forfeit",
    "GameError",
    "GameOver",
    "GameState",
    "IllegalMove",
    "InvalidAction",
    "OutOfTurn",
    "Outcome",
    "Pass",
    "Play",
    "PlayerView",
    "Resign",
    "Restore",
    "Rewind",
    "Seed",
    "TakeFromRiver",
    "Termination",
    "Timeline",
    "Timeout",
    "action_from_dict",
    "apply",
    "legal_action_types",
    "new_game",
    "replay",
    "spectator_view",
    "view_for",
]

TurnEnd = Literal["played", "drew", "passed", "dropped"]
"""How a turn ended: a pass is a turn that ended with neither a play nor a tile drawn;
``dropped`` is a turn its player left the game in."""


def new_game(ruleset: Ruleset, seed: Seed, starting_player: int | None = None) -> GameState:
    """Shuffle, find the first player (unless given) and deal.

    >>> state = new_game(Ruleset(players=3, rack_size=16), seed=4)
    >>> [len(rack) for rack in state.racks], len(state.pool)
    ([16, 16, 16], 58)
    >>> [[f"{d.player}:{d.tile}" for d in draw] for draw in state.first_player_draw]
    [['0:B3', '1:B7', '2:R7'], ['1:O8', '2:B13']]
    >>> state.starting_player, state.current_player
    (2, 2)
    >>> new_game(Ruleset(players=2), seed=1, starting_player=1).first_player_draw
    ()
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed must be a whole number or a text, got {seed!r}")
    rng = random.Random(seed)
    players = ruleset.players
    first_player_draw: FirstPlayerDraw = ()
    if starting_player is None:
        starting_player, first_player_draw = _draw_for_first_player(rng, players)
    elif isinstance(starting_player, bool) or starting_player not in range(players):
        raise ValueError(f"no seat {starting_player!r} at a table of {players}")
    tiles = list(full_set())
    rng.shuffle(tiles)
    size = ruleset.rack_size
    racks = tuple(tuple(sorted(tiles[seat * size : (seat + 1) * size])) for seat in range(players))
    return GameState(
        ruleset=ruleset,
        racks=racks,
        pool=tuple(tiles[players * size :]),
        table=(),
        river=(),
        pending_draw=(),
        current_player=starting_player,
        starting_player=starting_player,
        turn_number=1,
        initial_meld_done=(False,) * players,
        passes_in_a_row=0,
        final_turns_left=None,
        first_player_draw=first_player_draw,
    )


def _draw_rank(tile: Tile) -> int:
    """A joker has no number: it loses to every numbered tile."""
    return 0 if tile.is_joker else tile.number


def _draw_for_first_player(rng: random.Random, players: int) -> tuple[int, FirstPlayerDraw]:
    face_down = list(full_set())
    rng.shuffle(face_down)
    contenders = list(range(players))
    draws: list[tuple[DrawnTile, ...]] = []
    while True:
        if len(face_down) < len(contenders):
            # Ties used up the tiles (absurdly unlikely): everything goes back in.
            face_down = list(full_set())
            rng.shuffle(face_down)
        one_draw = tuple(DrawnTile(seat, face_down.pop()) for seat in contenders)
        draws.append(one_draw)
        best = max(_draw_rank(drawn.tile) for drawn in one_draw)
        contenders = [drawn.player for drawn in one_draw if _draw_rank(drawn.tile) == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)


def apply(state: GameState, action: Action, player: int) -> GameState:
    """The state after ``player`` takes ``action``; ``state`` itself is unchanged.

    Raises :class:`~engine.actions.GameOver`, :class:`~engine.actions.OutOfTurn`,
    :class:`~engine.actions.InvalidAction` (malformed, or impossible in this state)
    or :class:`~engine.actions.IllegalMove` (against the rules; carries the reason code
    and a sentence for the player).

    >>> state = new_game(Ruleset(players=2), seed=11, starting_player=1)
    >>> apply(state, Pass(), 1)
    Traceback (most recent call last):
    ...
    engine.actions.InvalidAction: you can only pass when the pool is empty; draw a tile instead
    >>> apply(state, Play(()), 1)
    Traceback (most recent call last):
    ...
    engine.actions.IllegalMove: ...
    """
    if isinstance(action, InHistory):
        raise InvalidAction(f"a {action.type} moves in the game's history: replay the game with it")
    if state.outcome is not None:
        raise GameOver("the game is over")
    if not _is_seat(state, player):
        raise InvalidAction(f"no seat {player!r} at this table")
    if isinstance(action, Resign | Forfeit):
        return _drop_out(state, player, action)
    if isinstance(action, Adjudicate):
        return _finish(state, Termination.ADJUDICATED, winner=None)
    if player != state.current_player:
        raise OutOfTurn(f"it is player {state.current_player}'s turn, not player {player}'s")
    if state.pending_draw and not isinstance(action, Discard | Timeout):
        raise InvalidAction(
            "you have drawn two tiles: discard one of them to the River to end your turn"
        )
    match action:
        case Play():
            return _play(state, action)
        case Draw():
            return _draw(state)
        case Discard():
            return _discard(state, action)
        case TakeFromRiver():
            return _take_from_river(state, action)
        case Pass():
            return _pass(state)
        case Timeout():
            return _timeout(state, action)
    raise InvalidAction(f"{action!r} is not an action")


def replay(
    ruleset: Ruleset,
    seed: Seed,
    moves: Iterable[tuple[int, Action]],
    starting_player: int | None = None,
) -> GameState:
    """Rebuild a game from its seed and its ``(player, action)`` pairs, in order
    (a :class:`~engine.actions.Rewind` among them goes back in the game's history).

    >>> moves = [(0, Draw()), (1, Draw())]
    >>> state = replay(Ruleset(players=2), 99, moves, starting_player=0)
    >>> state == apply(apply(new_game(Ruleset(players=2), 99, 0), Draw(), 0), Draw(), 1)
    True
    >>> replay(Ruleset(players=2), 99, [*moves, (0, Rewind(2))], 0) == apply(
    ...     new_game(Ruleset(players=2), 99, 0), Draw(), 0)
    True
    """
    timeline = Timeline(new_game(ruleset, seed, starting_player))
    for player, action in moves:
        timeline.apply(action, player)
    return timeline.state


_TurnStart = tuple[GameState, tuple[int, ...]]
"""A turn's starting state and the actions standing then."""


class Timeline:
    """A game played forward from ``state``, remembering the state at the start of
    each of its turns, so that a :class:`~engine.actions.Rewind` can go back to one, and
    the state just before the latest rewind, so that a :class:`~engine.actions.Restore`
    right after it can take it back.

    It also knows which of the actions applied so far still stand (``standing``, their
    indexes from 0): a rewind sets aside the actions of the turns it undoes, and stands
    itself; a restore brings back what its rewind set aside. What players are told of the
    game is the standing actions; the undone ones are for moderators.

    >>> timeline = Timeline(new_game(Ruleset(players=2), 99, 0))
    >>> first = timeline.state
    >>> second = timeline.apply(Draw(), 0)
    >>> second.turn_number
    2
    >>> timeline.apply(Rewind(1), 1) == first, timeline.standing
    (True, (1,))
    >>> timeline.apply(Restore(), 1) == second, timeline.standing
    (True, (0, 1, 2))
    >>> timeline.apply(Restore(), 1)
    Traceback (most recent call last):
    ...
    engine.actions.InvalidAction: a restore only takes back a rewind, right after it
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.standing: tuple[int, ...] = ()
        self._applied = 0
        self._starts: dict[int, _TurnStart] = {state.turn_number: (state, ())}
        self._before_rewind: tuple[GameState, tuple[int, ...], dict[int, _TurnStart]] | None = None

    def apply(self, action: Action, player: int) -> GameState:
        """:func:`apply`; for a rewind the state at the start of its turn (its pool
        shuffled afresh when the rewind has a seed), for a restore the state just before
        the rewind it follows."""
        index = self._applied
        before_rewind = None
        if isinstance(action, Rewind):
            before_rewind = (self.state, self.standing, dict(self._starts))
            self.state, standing = self._rewound(action)
            self.standing = (*standing, index)
            # Played again, the turn starts from the rewound state (its new pool order).
            self._starts[action.turn] = (self.state, self.standing)
        elif isinstance(action, Restore):
            if self._before_rewind is None:
                raise InvalidAction("a restore only takes back a rewind, right after it")
            self.state, standing, self._starts = self._before_rewind
            self.standing = (*standing, index - 1, index)
        else:
            self.state = apply(self.state, action, player)
            self.standing = (*self.standing, index)
        self._applied = index + 1
        self._before_rewind = before_rewind
        self._starts.setdefault(self.state.turn_number, (self.state, self.standing))
        return self.state

    def _rewound(self, rewind: Rewind) -> _TurnStart:
        if self.state.outcome is not None:
            raise GameOver("the game is over")
        turn = rewind.turn
        if not turn < self.state.turn_number or turn not in self._starts:
            raise InvalidAction(
                f"a rewind goes back to an earlier turn than this one ({self.state.turn_number})"
            )
        # The turns after it are forgotten: played again, they start afresh.
        for later in [t for t in self._starts if t > turn]:
            del self._starts[later]
        state, standing = self._starts[turn]
        if rewind.seed is not None:
            # Sorted first, so that the new order depends on the seed and the tiles only.
            pool = sorted(state.pool)
            random.Random(rewind.seed).shuffle(pool)
            state = replace(state, pool=tuple(pool))
        return state, standing


# --- the actions -------------------------------------------------------------------


def _play(state: GameState, action: Play) -> GameState:
    seat = state.current_player
    rack = state.racks[seat]
    table_after = _without_empty_sets(action.table_after)
    played = _judge(state, rack, table_after)
    state = replace(
        state,
        table=table_after,
        racks=_with_rack(state, seat, _remove(rack, played)),
        initial_meld_done=_with_meld_done(state, seat),
    )
    return _end_turn(state, "played")


def _draw(state: GameState) -> GameState:
    if not state.pool:
        raise InvalidAction("the pool is empty: play or pass")
    if state.ruleset.draw_mode == "river" and len(state.pool) >= 2:
        return replace(state, pending_draw=state.pool[:2], pool=state.pool[2:])
    return _end_turn(_take_from_pool(state, 1), "drew")


def _discard(state: GameState, action: Discard) -> GameState:
    if not state.pending_draw:
        raise InvalidAction("there is nothing to discard: you discard only after drawing two")
    if action.tile not in state.pending_draw:
        raise InvalidAction(
            f"you can only discard one of the two tiles you drew, not {action.tile}"
        )
    return _end_turn(_keep_pending_except(state, action.tile), "drew")


def _take_from_river(state: GameState, action: TakeFromRiver) -> GameState:
    if state.ruleset.draw_mode != "river":
        raise InvalidAction("this game is not played with the River")
    if action.index not in range(len(state.river)):
        raise InvalidAction(f"the River has no tile at position {action.index}")
    seat = state.current_player
    key_tile = state.river[action.index]
    plunder = state.river[action.index + 1 :]
    rack_with_key = (*state.racks[seat], key_tile)
    table_after = _without_empty_sets(action.table_after)
    played = _judge(state, rack_with_key, table_after)
    if played[key_tile] == 0:
        raise IllegalMove(
            "key_tile_not_played",
            f"The key tile {key_tile} taken from the River must be played this turn.",
        )
    state = replace(
        state,
        table=table_after,
        river=state.river[: action.index],
        racks=_with_rack(state, seat, _remove(rack_with_key, played) + plunder),
        initial_meld_done=_with_meld_done(state, seat),
    )
    return _end_turn(state, "played")


def _pass(state: GameState) -> GameState:
    if state.pool:
        raise InvalidAction("you can only pass when the pool is empty; draw a tile instead")
    return _end_turn(state, "passed")


def _timeout(state: GameState, action: Timeout) -> GameState:
    if state.pending_draw:
        return _end_turn(_keep_pending_except(state, state.pending_draw[-1]), "drew")
    rules = state.ruleset
    penalty = rules.failed_turn_penalty_draw if action.changed else rules.overtime_penalty_draw
    if penalty and state.pool:
        return _end_turn(_take_from_pool(state, penalty), "drew")
    return _end_turn(state, "passed")


def _drop_out(state: GameState, seat: int, action: DropOut) -> GameState:
    if seat in state.dropped:
        raise InvalidAction(f"player {seat} has already left this game")
    termination = Termination.RESIGNATION if isinstance(action, Resign) else Termination.FORFEIT
    own_turn = seat == state.current_player
    if own_turn and state.pending_draw:
        state = _keep_pending_except(state, state.pending_draw[-1])
    if not own_turn:
        state = _forget_turns_of(state, seat)
    state = replace(state, dropped=(*state.dropped, seat))
    if len(state.in_play) == 1:
        return _finish(state, termination, winner=state.in_play[0])
    if own_turn:
        return _end_turn(state, "dropped")
    return state


def _forget_turns_of(state: GameState, seat: int) -> GameState:
    """``seat`` leaves on another's turn: it no longer counts among the passes in a row
    (the seats just before the current one) nor among the final round's turns still to
    come (the current seat and those after it)."""
    passes, final = state.passes_in_a_row, state.final_turns_left
    if passes and seat in _seats_walking(state, state.current_player, passes, back=True):
        passes -= 1
    if final is not None and seat in _seats_walking(state, state.current_player, final):
        final -= 1
    return replace(state, passes_in_a_row=passes, final_turns_left=final)


def _seats_walking(state: GameState, start: int, count: int, back: bool = False) -> list[int]:
    """``count`` seats in play from ``start`` onward (itself first), or the ``count``
    before it going ``back``."""
    order = [start]
    while len(order) < len(state.in_play):
        order.append(state.next_in_play(order[-1]))
    if back:
        return order[::-1][:count]
    return order[:count]


# --- helpers -----------------------------------------------------------------------


def _judge(state: GameState, rack: tuple[Tile, ...], table_after: Layout) -> Counter[Tile]:
    """The tiles played, or IllegalMove with the verdict's reason and words."""
    seat = state.current_player
    verdict = judge_turn(
        state.table, rack, table_after, state.initial_meld_done[seat], state.ruleset
    )
    if not verdict.valid:
        reason = "invalid" if verdict.reason is None else verdict.reason.value
        raise IllegalMove(reason, verdict.detail)
    return Counter(verdict.played)


def _is_seat(state: GameState, player: object) -> bool:
    return isinstance(player, int) and not isinstance(player, bool) and 0 <= player < state.players


def _without_empty_sets(table: Layout) -> Layout:
    """A play's empty sets are leftovers of editing, not sets: they are dropped before judging."""
    return tuple(tile_set for tile_set in table if tile_set)


def _remove(rack: tuple[Tile, ...], played: Counter[Tile]) -> tuple[Tile, ...]:
    left = Counter(rack)
    left.subtract(played)
    if any(count < 0 for count in left.values()):
        raise AssertionError("the verdict reported tiles played that were not on the rack")
    return tuple(left.elements())


def _with_rack(state: GameState, seat: int, tiles: tuple[Tile, ...]) -> tuple[Rack, ...]:
    racks = list(state.racks)
    racks[seat] = tuple(sorted(tiles))
    return tuple(racks)


def _with_meld_done(state: GameState, seat: int) -> tuple[bool, ...]:
    done = list(state.initial_meld_done)
    done[seat] = True
    return tuple(done)


def _take_from_pool(state: GameState, count: int) -> GameState:
    seat = state.current_player
    drawn = state.pool[:count]
    return replace(
        state,
        pool=state.pool[count:],
        racks=_with_rack(state, seat, state.racks[seat] + drawn),
    )


def _keep_pending_except(state: GameState, discarded: Tile) -> GameState:
    kept = list(state.pending_draw)
    kept.remove(discarded)
    seat = state.current_player
    return replace(
        state,
        pending_draw=(),
        river=(*state.river, discarded),
        racks=_with_rack(state, seat, state.racks[seat] + tuple(kept)),
    )


def _end_turn(state: GameState, how: TurnEnd) -> GameState:
    """Check for the end of the game, then hand the turn on."""
    seat = state.current_player
    if how == "played" and not state.racks[seat]:
        return _finish(state, Termination.WENT_OUT, winner=seat)
    next_player = state.next_in_play(seat)
    in_play = len(state.in_play)
    passes = 0
    final_turns_left = state.final_turns_left
    if not state.pool:
        if how == "passed":
            passes = state.passes_in_a_row + 1
        elif how == "dropped":
            passes = state.passes_in_a_row
        end = state.ruleset.pool_empty_end
        if end == "immediate":
            return _finish(state, Termination.POOL_EMPTY_IMMEDIATE, winner=None)
        if end == "play_until_blocked" and passes >= in_play:
            return _finish(state, Termination.POOL_EMPTY_BLOCKED, winner=None)
        if end == "one_more_round":
            if final_turns_left is None and how == "dropped":
                # The last tile went with a River draw its player left unsorted.
                final_turns_left = in_play
            elif final_turns_left is None:
                # This turn drew the last tile: the final round starts with this player.
                final_turns_left, next_player = in_play, seat
            elif final_turns_left == 1:
                return _finish(state, Termination.ONE_MORE_ROUND_ENDED, winner=None)
            else:
                final_turns_left -= 1
    return replace(
        state,
        current_player=next_player,
        turn_number=state.turn_number + 1,
        passes_in_a_row=passes,
        final_turns_left=final_turns_left,
    )


def _finish(state: GameState, termination: Termination, winner: int | None) -> GameState:
    seats = range(state.players)
    # engine.scoring breaks a tie for the win in favour of the rack listed first, so the
    # racks go in the order the players would have moved next.
    order = [state.next_player(state.current_player)]
    while len(order) < state.players:
        order.append(state.next_player(order[-1]))
    racks = {seat: state.racks[seat] for seat in order}
    rules = state.ruleset
    if termination is Termination.WENT_OUT:
        score = score_game("out", racks, winner, rules)
    elif winner is not None:
        # The last seat in play wins as if it had gone out: its own tiles do not count.
        score = score_game("out", {**racks, winner: ()}, winner, rules)
    else:
        score = score_game("pool_empty", racks, None, rules, contenders=state.in_play)
    outcome = Outcome(
        termination=termination,
        winner=score.winner,
        rack_values=tuple(rack_total(state.racks[seat], rules) for seat in seats),
        scores=tuple(score.scores[seat] for seat in seats),
    )
    return replace(state, outcome=outcome, turn_number=state.turn_number + 1)
