"""Help on your turn: the solver's hint, "arrange for me" and playing from the River.

These build on :mod:`games.services.drafts`: whatever they compute ends as a saved draft
(``save_draft``, which checks every tile against the rack and the table) or as a move
committed through :mod:`games.services.move`, so they cannot put a tile anywhere the
player could not have put it by hand.

The solver runs on a worker, never in the web process: the page's request checks what
it can at once (``*_asked``) and a task on the "solver" queue does the rest
(:mod:`games.solver_tasks`), whose answer is pushed to the page (:mod:`common.answers`).
The solver never runs under the game's row lock: it works on a snapshot, and what it
found is written under the lock only if the turn is still the one it saw (the version
the page asked at). Each call has a budget of search steps (``GAMES_HELP_STEPS``;
``GAMES_HELP_SECONDS`` is only a last stop), each member one computation at a time.

The solver only ever sees the player's own rack and the table: a hint is the best play
*for that rack*, never a peek at anyone else's.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from engine import game as engine
from engine.actions import Layout, table_to_json
from engine.solver import Budget, OutOfBudget, arrange, solve
from engine.tiles import Tile, bag, format_tiles
from engine.verdict import judge_turn
from games.conf import help_seconds, help_steps
from games.errors import (
    DraftError,
    GameActionError,
    InvalidMove,
    NoArrangement,
    NotFound,
    NotYourTurn,
    StaleVersion,
    TimeUp,
)
from games.models import Game, HelpAsked, Move
from games.selectors.drafts import DraftView, working_table
from games.selectors.replay import ShownSet, mark_new
from games.selectors.seats import seat_of
from games.services.drafts import save_draft, tiles_named
from games.services.locking import LockedTurn, lock_game
from games.services.move import load_for_player, make_move

_HINT_CACHE_SECONDS = 3600
"""A hint is kept while its game version could still be the current one."""


@dataclass(frozen=True)
class Hint:
    """The best play for the player's rack on the table as the turn began.

    ``played`` is empty when there is no legal play (then ``sets`` is the table as it is).
    ``table`` is the whole table after the play, in notation, ready for ``save_draft``.
    ``exact`` is False when the solver ran out of its budget: the play is legal and the
    best it found, but not proven best (or, empty, it found none). ``cut_short``: the
    wall-time last stop ended the search (a busy server), not its budget of steps.
    ``value`` is the solver's measure (face values, a joker 0); ``meld_value``, for an
    initial meld, what the turn verdict will say it is worth (a joker counts as the tile
    it stands for, RULES.md R5.3): the page shows that one, so hint and verdict agree.
    """

    played: tuple[str, ...]
    value: int
    sets: tuple[ShownSet, ...]
    table: tuple[tuple[str, ...], ...]
    exact: bool = True
    meld_value: int | None = None
    cut_short: bool = False

    @property
    def found(self) -> bool:
        return bool(self.played)

    @property
    def table_json(self) -> str:
        """The table after the play as JSON (what "use this" sends back)."""
        return json.dumps([list(tile_set) for tile_set in self.table])


def hint_asked(game_id: int, user: User) -> tuple[int, Hint | None]:
    """A hint asked on the page (the web process): the game version it is for, and the
    hint if it was worked out before for this position (else a worker works it out:
    :func:`hint`). Only on the player's own turn.

    A read: no lock is taken, so the turn clock and the other players never wait. The
    answer depends only on the position, so it is kept in the cache for that game
    version and asked again for free.
    """
    turn = _read_own_turn(game_id, user)
    if turn.state.pending_draw:
        raise InvalidMove("Keep one of the two tiles you drew first: discard the other.")
    note_help(turn, HelpAsked.Kind.HINT)
    cached = cache.get(_hint_key(turn))
    return turn.game.version, cached if isinstance(cached, Hint) else None


def hint(game_id: int, user: User, version: int) -> Hint:
    """The solver's best play for ``user``'s rack at game ``version`` (a worker's job).

    Refused with :class:`StaleVersion` when the game has moved on since it was asked
    for: a hint for a turn that has ended is no help.
    """
    turn = _read_own_turn(game_id, user)
    if turn.game.version != version:
        raise _stale()
    key = _hint_key(turn)
    cached = cache.get(key)
    if isinstance(cached, Hint):
        return cached
    state, seat = turn.state, turn.seat
    solution = solve(
        state.table,
        state.racks[seat],
        state.initial_meld_done[seat],
        state.ruleset,
        budget=help_budget(),
    )
    meld_value = None
    if solution.played and not state.initial_meld_done[seat]:
        meld_value = judge_turn(
            state.table, state.racks[seat], solution.table_after, False, state.ruleset
        ).initial_meld_value
    found = Hint(
        played=tuple(format_tiles(solution.played)),
        value=solution.value,
        sets=mark_new(state.table, solution.table_after, Counter(solution.played), state.ruleset),
        table=tuple(tuple(format_tiles(s)) for s in solution.table_after),
        exact=solution.exact,
        meld_value=meld_value,
        cut_short=solution.cut_short,
    )
    if not found.cut_short:  # another ask, on a quieter server, may finish the work
        cache.set(key, found, _HINT_CACHE_SECONDS)
    return found


def hint_is_current(game_id: int, user: User, version: int) -> bool:
    """Whether a hint for game ``version`` is still for ``user``'s turn (the page shows
    a hint only while it is)."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.version != version:
        return False
    try:
        _own_turn(game, user)
    except GameActionError:
        return False
    return True


def note_help(turn: LockedTurn, kind: str) -> None:
    """Remember that the player asked the solver for help in this turn (a case's
    evidence shows it): one row per turn and kind, counting the askings."""
    where = {
        "game_id": turn.game.pk,
        "turn_number": turn.game.turn_number,
        "seat": turn.seat,
        "kind": kind,
    }
    if not HelpAsked.objects.filter(**where).update(times=F("times") + 1):
        # Two askings at once may both find no row: the second waits for the first's
        # insert under the unique constraint and counts itself again.
        _, created = HelpAsked.objects.get_or_create(**where, defaults={"first_at": timezone.now()})
        if not created:
            HelpAsked.objects.filter(**where).update(times=F("times") + 1)


def arrange_asked(game_id: int, user: User, picked: Sequence[str]) -> int:
    """ "Arrange for me" asked on the page (the web process): the picks checked against
    the rack at once, the asking noted; returns the game version a worker then arranges
    for (:func:`arrange_for_me`)."""
    turn, _, _ = _picked_on_turn(game_id, user, picked)
    note_help(turn, HelpAsked.Kind.ARRANGE)
    return turn.game.version


def _picked_on_turn(
    game_id: int, user: User, picked: Sequence[str]
) -> tuple[LockedTurn, Layout, list[Tile]]:
    """The turn as it is now, its working table, and the tiles to lay: those put out
    this turn and the ``picked`` ones (each checked to be on the rack)."""
    chosen = tiles_named(picked)
    if not chosen:
        raise DraftError("Pick the tiles of your rack you want to lay first.")
    turn = _read_own_turn(game_id, user)
    working = working_table(turn.game, turn.state, turn.seat)
    already = _put_out(working, turn.state.table)
    left = Counter(turn.state.racks[turn.seat]) - already
    missing = Counter(chosen) - left
    if missing:
        raise DraftError(f"{min(missing)} is not on your rack.")
    return turn, working, [*already.elements(), *chosen]


def arrange_for_me(
    game_id: int, user: User, picked: Sequence[str], version: int | None = None, *, page: str = ""
) -> DraftView:
    """Lay the ``picked`` rack tiles, with those already put out this turn, on the table
    (a worker's job; ``version``: the game version it was asked at, refused as stale
    when the game has moved on since).

    The solver lays out the table as it was when the turn began plus those tiles, keeping
    sets as they are where it can. Raises :class:`NoArrangement` when no legal table holds
    them (before the initial meld: when they do not make new sets worth enough), or when
    the solver found none in its time.

    The solver works on a snapshot read without a lock; the result is written under
    the lock only if the turn is still as the snapshot saw it (see :func:`_recheck`).
    """
    turn, working, to_play = _picked_on_turn(game_id, user, picked)
    if version is not None and turn.game.version != version:
        raise _stale()
    table = _arranged(turn, to_play)
    if table is None:
        names = " ".join(format_tiles(sorted(to_play)))
        raise NoArrangement(f"There is no way to lay {names} on the table this turn.")
    with transaction.atomic():
        _recheck(turn, lock_game(game_id), working)
        return save_draft(game_id, user, table_to_json(table), page=page)


def river_take_asked(game_id: int, user: User, version: int, index: int) -> None:
    """A River take asked on the page (the web process): refused at once when the page
    is behind or there is no such tile; a worker then lays and plays it
    (:func:`take_from_river_arranged`)."""
    turn = _read_own_turn(game_id, user)
    if turn.game.version != version:
        raise _stale()
    if not 0 <= index < len(turn.state.river):
        raise InvalidMove("There is no such tile in the River.")


def take_from_river_arranged(
    game_id: int, user: User, version: int, index: int, *, page: str = ""
) -> Game:
    """River: take the tile at ``index`` (and the newer ones) and play it.

    The key tile cannot go into a draft (it is not on the rack), so the solver lays it,
    with the tiles the player has put out this turn, onto the table as it was when the
    turn began. The engine then judges the play like any other. As for "arrange for
    me", the solver runs on a snapshot and the move is committed under the lock only
    if nothing changed meanwhile.
    """
    turn = _read_own_turn(game_id, user)
    if turn.game.version != version:
        raise _stale()
    state = turn.state
    if not 0 <= index < len(state.river):
        raise InvalidMove("There is no such tile in the River.")
    key = state.river[index]
    working = working_table(turn.game, turn.state, turn.seat)
    already = _put_out(working, state.table)
    to_play = [*already.elements(), key]
    table = _arranged(turn, to_play)
    if table is None:
        names = " ".join(format_tiles(sorted(to_play)))
        raise NoArrangement(
            f"{key} cannot be played this turn: there is no way to lay {names} on the table."
        )
    with transaction.atomic():
        load, seat = load_for_player(game_id, user, version)
        _recheck(turn, load.game, working)
        action = engine.TakeFromRiver(index, table)
        return make_move(load, seat, action, Move.By.USER, user, page=page)


# --- helpers -----------------------------------------------------------------------


def _own_turn(game: Game, user: User) -> LockedTurn:
    seat = seat_of(game, user)
    if game.is_over or seat != game.current_seat:
        raise NotYourTurn("It is not your turn: the solver helps on your turn.")
    return LockedTurn(game, game.engine_state(), seat)


def _read_own_turn(game_id: int, user: User) -> LockedTurn:
    """The player's turn as it is now, read without a lock: what the solver works on."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        raise NotFound("There is no such game.")
    return _own_turn(game, user)


def _recheck(snapshot: LockedTurn, game: Game, working: Layout) -> None:
    """Refuse to write what the solver computed if the turn moved on while it worked.

    ``game`` is the row just locked. The lock is taken only now, so anything may have
    happened since the snapshot: a move (the version), a draft edit from another tab
    (the working table), or the clock running out (the deadline, which the timeout
    owns once passed). The same version means the same state, so the snapshot's state
    stands for the locked game's.
    """
    if game.version != snapshot.game.version:
        raise _stale()
    if game.turn_deadline is not None and timezone.now() > game.turn_deadline:
        raise TimeUp("Your time for this turn ran out while the solver was working.")
    if working_table(game, snapshot.state, snapshot.seat) != working:
        raise DraftError("Your turn changed while the solver was working: ask again.")


def _stale() -> StaleVersion:
    return StaleVersion(
        "The game has changed since your page was loaded. Nothing was done: look at the "
        "table again."
    )


def _arranged(turn: LockedTurn, to_play: Sequence[Tile]) -> Layout | None:
    """The solver's legal table with ``to_play`` laid, or None; outside any lock."""
    state = turn.state
    try:
        return arrange(
            state.table,
            to_play,
            state.initial_meld_done[turn.seat],
            state.ruleset,
            budget=help_budget(),
        )
    except OutOfBudget as out:
        names = " ".join(format_tiles(sorted(to_play)))
        if out.cut_short:
            raise NoArrangement(
                f"The solver was cut short (the server is busy) before it found a way "
                f"to lay {names}: ask again in a moment, or lay them by hand."
            ) from None
        raise NoArrangement(
            f"The solver found no way to lay {names} within its budget of work: lay "
            "them by hand, or pick fewer tiles."
        ) from None


def help_busy_key(user: User) -> str:
    """The member's mark while a worker works out help for them (a hint, "arrange for
    me", a River take): one at a time, across every process (:mod:`common.answers`)."""
    return f"games:help-busy:{user.pk}"


def help_busy_seconds() -> float:
    """How long the mark lasts at most: the solver's last stop, three times over for the
    wait in the queue; a task lost or killed frees the member after it."""
    return help_seconds() * 3 + 5


def help_budget() -> Budget:
    """The solver's budget for a player's help: steps, so that the same position gets
    the same answer whatever the load; the seconds are only a last stop."""
    return Budget(steps=help_steps(), seconds=help_seconds())


def _hint_key(turn: LockedTurn) -> str:
    """The cache key of a hint: the game version and seat, and a digest of the position
    (so a reused game id can never be answered with another game's hint)."""
    state, seat = turn.state, turn.seat
    position = repr(
        (state.table, sorted(state.racks[seat]), state.initial_meld_done[seat], state.ruleset)
    )
    digest = hashlib.sha256(position.encode()).hexdigest()[:16]
    return f"games:hint:{turn.game.pk}:{turn.game.version}:{seat}:{digest}"


def _put_out(working: Layout, table: Layout) -> Counter[Tile]:
    """The tiles the player has put out this turn: on the working table, not on the table."""
    return bag(chain.from_iterable(working)) - bag(chain.from_iterable(table))
