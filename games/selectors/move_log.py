"""What happened in a game so far, as one viewer may know it: the move log of the game
page, the tiles the viewer just drew, the tiles of the last play, and a timeout of theirs.

The moves are replayed from the game's seed (:func:`engine.game.replay` is a few
milliseconds for a whole game), because only the replay knows which tiles a draw took
from the pool. What a draw took is secret: a sentence names drawn tiles only to the
player who drew them; everyone else reads "drew a tile". Tiles are written in notation
(``R7``) and the templates show them as small tiles (``tiles_in_text``).

>>> from engine.tiles import parse_tiles
>>> tiles_text(Counter(parse_tiles(["O4", "B2", "J"])))
'B2 O4 J'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.actions import (
    Action,
    Discard,
    Draw,
    InHistory,
    Pass,
    Play,
    Restore,
    Rewind,
    TakeFromRiver,
    Timeout,
)
from engine.game import GameError, Timeline, new_game
from engine.state import GameState
from engine.tiles import Tile, format_tiles
from engine.verdict import judge_turn
from games.models import Game, Move
from games.selectors.players import GamePlayers, Names, names_at

LOG_LENGTH = 12
"""How many of the latest moves the game page lists."""


@dataclass(frozen=True)
class LogEntry:
    """One move in words for one viewer (tiles in notation inside ``words``), and when
    it was made (``at``: a correspondence game's moves are days apart)."""

    seq: int
    turn: int
    seat: int
    is_mine: bool
    kind: str
    words: str
    at: datetime


@dataclass(frozen=True)
class MoveLog:
    """The game so far as the viewer (``seat``, or ``None`` for a spectator) may know it.

    ``entries``: the latest moves, newest first. ``drawn``: the tiles the viewer's own
    latest move brought to their rack (a draw, a penalty, a River take's plunder), still
    on it. ``laid``: the rack tiles of the latest play on the table. ``timeout``: a
    sentence when the viewer's own latest move was their clock running out.
    """

    entries: tuple[LogEntry, ...] = ()
    drawn: tuple[str, ...] = ()
    laid: tuple[str, ...] = ()
    timeout: str = ""
    total: int = 0


@dataclass(frozen=True)
class ToldMove:
    """A standing move as the log tells it to any reader: ``own`` to whoever made it
    (their drawn tiles named), ``told`` to everyone else."""

    seq: int
    turn: int
    seat: int
    kind: str
    at: datetime
    own: str
    told: str
    maker: int | None
    """The member who played the seat at this move (``None``: a bot)."""
    recorded: bool = True
    """Whether ``maker`` is known (a log named by fixed names knows no member)."""

    def made_by(self, member: int | None) -> bool:
        """Whether ``member`` made this move of their seat (``None``, or no record: yes)."""
        return _made_by(self.maker, self.recorded, member)


@dataclass(frozen=True)
class OwnMove:
    """A seat's latest standing move by one member (``maker``, as :class:`ToldMove` has
    it) since the game last went back or forth in its history: the tiles it brought to
    the rack, and its words if it was the clock running out."""

    seq: int
    seat: int
    maker: int | None
    recorded: bool
    drawn: tuple[Tile, ...]
    timeout: str

    def made_by(self, member: int | None) -> bool:
        return _made_by(self.maker, self.recorded, member)


@dataclass(frozen=True)
class GameTimeline:
    """The game's moves told once for every reader (:func:`timeline`, the replay);
    :func:`log_for` picks one reader's :class:`MoveLog` from it without replaying.

    ``shown``: the latest ``LOG_LENGTH`` standing moves, oldest first; ``laid``: the rack
    tiles of the latest play; ``own``: each seat's latest move per member (see
    :class:`OwnMove`); ``total``: how many moves stand. Every seat's drawn tiles are in
    here: a timeline stays on the server (like the game row), never in a context.
    """

    shown: tuple[ToldMove, ...] = ()
    laid: tuple[str, ...] = ()
    own: tuple[OwnMove, ...] = ()
    total: int = 0


def move_log(game: Game, names: Names, viewer: int | None, member: int | None = None) -> MoveLog:
    """The move log of ``game`` for the seat ``viewer`` (``names``: each seat's name, or
    the game's record of who played each seat at each move). With the record and the
    viewer's ``member`` id, the seat's moves another member made before they took it
    over are that member's, not "You".

    It tells the moves that stand: the turns a moderator's rewind undid are left out
    (the rewind's own line says it happened), since they showed tiles that are back on a
    rack or in the pool; the case's evidence keeps them for its moderators."""
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    return log_for(timeline(game, moves, names), viewer, member, game.engine_state())


def timeline(game: Game, moves: Sequence[Move], names: Names) -> GameTimeline:
    """``moves`` (all of the game's, in order) replayed from the seed, once, and told
    for every reader (:func:`move_log` says which moves stand)."""
    if not moves:
        return GameTimeline()
    replayed = Timeline(
        new_game(game.engine_ruleset(), game.seed, None if game.start_drawn else game.starting_seat)
    )
    state = replayed.state
    steps: list[tuple[Move, Action, GameState, GameState]] = []
    for move in moves:
        before = state
        action = move.engine_action()
        try:
            state = replayed.apply(action, move.seat)
        except GameError:
            return GameTimeline()
        steps.append((move, action, before, state))
    if state != game.engine_state():
        # Only a game whose state was rewritten by hand (a test position) gets here: its
        # log would name tiles of another deal, so it says nothing.
        return GameTimeline()
    standing = [steps[index] for index in replayed.standing]
    recorded = isinstance(names, GamePlayers)
    laid: Counter[Tile] = Counter()
    own: dict[tuple[int, int | None], OwnMove] = {}
    for move, action, before, after in standing:
        if isinstance(action, InHistory):
            # The game went back (or forth) in its history: nothing was just drawn or laid.
            laid, own = Counter(), {}
            continue
        if isinstance(action, Play | TakeFromRiver):
            laid = _laid(before, after)
        maker = _maker(names, move)
        drawn = Counter(after.racks[move.seat]) - Counter(before.racks[move.seat])
        timeout = ""
        if isinstance(action, Timeout):
            timeout = _told(names, move, action, before, after).own
        own[(move.seat, maker)] = OwnMove(
            move.seq, move.seat, maker, recorded, tuple(sorted(drawn.elements())), timeout
        )
    # Only the moves shown are put in words.
    shown = [_told(names, *step) for step in standing[-LOG_LENGTH:]]
    return GameTimeline(
        shown=tuple(shown),
        laid=tuple(format_tiles(sorted(laid.elements()))),
        own=tuple(own.values()),
        total=len(standing),
    )


def log_for(
    told: GameTimeline, viewer: int | None, member: int | None, state: GameState
) -> MoveLog:
    """The move log of the seat ``viewer`` (``None``: a spectator) played by ``member``
    (see :func:`move_log`), picked from the game's :func:`timeline` without replaying;
    ``state``: the game's now (a drawn tile is named while it is on the viewer's rack)."""
    entries = []
    for t in reversed(told.shown):
        mine = t.seat == viewer and t.made_by(member)
        words = t.own if mine else t.told
        entries.append(LogEntry(t.seq, t.turn, t.seat, mine, t.kind, words, t.at))
    own = [o for o in told.own if o.seat == viewer and o.made_by(member)]
    latest = max(own, key=lambda o: o.seq, default=None)
    drawn: Counter[Tile] = Counter()
    if latest is not None and viewer is not None:
        drawn = Counter(latest.drawn) & Counter(state.racks[viewer])
    return MoveLog(
        entries=tuple(entries),
        drawn=tuple(format_tiles(sorted(drawn.elements()))),
        laid=told.laid,
        timeout="" if latest is None else latest.timeout,
        total=told.total,
    )


def _told(
    names: Names, move: Move, action: Action, before: GameState, after: GameState
) -> ToldMove:
    """``move`` in words for its maker and for everyone else."""
    who = names_at(names, move.seq)
    own = describe_for(move.seat, move.seat, action, before, after, who)
    if move.by == Move.By.ORDER:
        # The others read an ordinary draw; the player reads that it was made for them.
        own = own.replace("You drew", "No play: your standing order drew", 1)
    return ToldMove(
        seq=move.seq,
        turn=move.turn_number,
        seat=move.seat,
        kind=action.type,
        at=move.created_at,
        own=own,
        told=describe_for(None, move.seat, action, before, after, who),
        maker=_maker(names, move),
        recorded=isinstance(names, GamePlayers),
    )


def _made_by(maker: int | None, recorded: bool, member: int | None) -> bool:
    return member is None or not recorded or maker == member


def _maker(names: Names, move: Move) -> int | None:
    """The member who played ``move``'s seat at it, by the game's record (none: ``None``)."""
    return names.at(move.seat, move.seq).member_id if isinstance(names, GamePlayers) else None


def describe_for(
    viewer: int | None,
    seat: int,
    action: Action,
    before: GameState,
    after: GameState,
    names: Sequence[str],
    reveal: bool = False,
) -> str:
    """``action`` of ``seat`` in one sentence that ``viewer`` may read: drawn tiles are
    named to the drawer only, or to everyone with ``reveal`` (a finished game's replay,
    where every rack is public)."""
    mine = seat == viewer
    who = "You" if mine else names[seat]
    gained = Counter(after.racks[seat]) - Counter(before.racks[seat])
    lost = Counter(before.racks[seat]) - Counter(after.racks[seat])
    drawn = f" {tiles_text(gained)}" if (mine or reveal) and gained else ""
    out = " and went out" if not after.racks[seat] else ""
    match action:
        case Play():
            return f"{who} played {tiles_text(lost)}{_meld(before, seat, action)}{out}."
        case TakeFromRiver():
            key = before.river[action.index]
            rest = len(before.river) - action.index - 1
            plunder = f" (and {rest} newer tile{_s(rest)})" if rest else ""
            return f"{who} took {key} from the River{plunder} and played it{out}."
        case Draw() if after.pending_draw:
            pair = f": {tiles_text(Counter(after.pending_draw))}" if mine or reveal else ""
            return f"{who} drew two tiles{pair}."
        case Draw():
            return f"{who} drew{drawn}." if drawn else f"{who} drew a tile."
        case Discard():
            kept = f" and kept{drawn}" if drawn else ""
            return f"{who} put {action.tile} on the River{kept}."
        case Pass():
            return f"{who} passed."
        case Timeout():
            return _timed_out(who, mine, action, gained, drawn)
    if action.type == "resign":
        return f"{who} resigned."
    if action.type == "forfeit":
        return f"{who} left the game and forfeited it."
    if isinstance(action, Rewind):
        return f"A moderator's ruling took the game back to the start of turn {action.turn}."
    if isinstance(action, Restore):
        return (
            "A later ruling took that back: the game is again as it was just before, "
            f"at turn {after.turn_number}."
        )
    return "The game was stopped here and scored as it stands."


def tiles_text(tiles: Counter[Tile]) -> str:
    """Tiles in notation, in colour order, jokers last."""
    return " ".join(format_tiles(sorted(tiles.elements())))


def _timed_out(who: str, mine: bool, action: Timeout, gained: Counter[Tile], drawn: str) -> str:
    """A turn whose clock ran out, told as R4.6 has it: a changed table goes back and
    the penalty is drawn (``drawn``: the tiles, when the reader may see them)."""
    count = sum(gained.values())
    their = ("Your", "your", "you") if mine else (f"{who}\u2019s", "their", "they")
    tiles = f":{drawn}" if drawn else ""
    if not count:
        return f"{their[0]} time ran out: the pool is empty, so {their[2]} drew nothing."
    if action.changed:
        return (
            f"{their[0]} time ran out: {their[1]} tiles went back and {their[2]} drew "
            f"{count} penalty tile{_s(count)}{tiles}."
        )
    return f"{their[0]} time ran out: {their[2]} drew {count} tile{_s(count)}{tiles}."


def _meld(before: GameState, seat: int, action: Play) -> str:
    """' as the initial meld (worth N)', valued as the turn verdict values it."""
    if before.initial_meld_done[seat]:
        return ""
    verdict = judge_turn(
        before.table, before.racks[seat], action.table_after, False, before.ruleset
    )
    worth = f" (worth {verdict.initial_meld_value})" if verdict.initial_meld_value else ""
    return f" as the initial meld{worth}"


def _laid(before: GameState, after: GameState) -> Counter[Tile]:
    """The tiles a play put on the table: the table's tiles after less those before."""
    return Counter(t for tiles in after.table for t in tiles) - Counter(
        t for tiles in before.table for t in tiles
    )


def _s(count: int) -> str:
    return "" if count == 1 else "s"
