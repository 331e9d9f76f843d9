"""What a page or a websocket push shows one user of a game, and the partials it uses.

The game page, ``templates/games/game.html``, defines its parts once with
``{% partialdef <name> inline %}``. An HTMX response renders one of them as
``"games/game.html#<name>"``; a websocket push renders the live ones for the receiving
user (:func:`render_live_fragments`) with ``oob`` true, and htmx's websocket extension
swaps each in by its element id. The partials and their contract:

``status``   id ``game-status``: whose turn, turn number, deadline, the game's end.
``players``  id ``game-players``: the seats, names, rack sizes, scores of the round.
``board``    id ``game-board``: the table (for the player whose turn it is, the turn
             in progress ``draft`` with each set's validity) and the River.
``rack``     id ``game-rack``: the viewer's own rack (nothing for a spectator).
``log``      id ``game-log``: the latest moves in words (context ``log``, a
             :class:`~games.selectors.move_log.MoveLog` for the viewer).
``building`` id ``game-building``: "<name> is building a move" (context ``building``,
             a :class:`SeatInfo`); pushed alone when a player saves their draft.

Each root element carries its id and, when ``oob`` is true, ``hx-swap-oob="true"``.

The table's chat is a template of its own, ``templates/games/_chat.html``, included in
the game page and the table page; its live part ``lines`` (id ``table-chat-lines``) is
rendered for one reader by :func:`render_chat_lines`.

Context (from :func:`live_context`, for one :class:`Reader` of a game's snapshot,
:class:`~games.selectors.live.LiveGame`, with no query; :func:`game_context` reads the
snapshot afresh for a page): ``game`` (:class:`~games.selectors.rows.PublicGame`),
``view`` (the engine's :class:`~engine.views.PlayerView` for a seated player, its
spectator view for anyone else), ``seats`` (:class:`SeatInfo` per seat), ``me`` (the
viewer's seat or ``None``), ``draft`` (:class:`~games.selectors.drafts.DraftView` of the
viewer's turn, or ``None``), ``clock`` (:class:`~games.selectors.clock.GameClock`: the
time control, each seat's bank, vacation and timeouts in a row, whether the turn's clock
stands still), ``log`` (:class:`~games.selectors.move_log.MoveLog`: the moves so far as
the viewer may know them, the tiles they just drew, the last play's tiles), ``oob``,
``forced_offer`` (the turn to name when the viewer is offered the standing order for
forced turns: :func:`~games.selectors.forced.standing_order_offer`). Neither the game
model nor its snapshot is ever put in a context: they hold every rack and the pool, and
a template can reach any attribute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from engine.views import PlayerView, spectator_view, view_for
from games.models import Game, Seat, Table
from games.selectors.chat import table_chat
from games.selectors.clock import clock_at
from games.selectors.drafts import DraftView, draft_of, draft_view
from games.selectors.forced import standing_order_offer
from games.selectors.live import LiveGame, snapshot
from games.selectors.move_log import log_for
from games.selectors.players import GamePlayers, game_players
from games.selectors.sight import Sight, may_see, shown_belongs_to, table_sight

TEMPLATE = "games/game.html"
LIVE_PARTIALS = ("status", "players", "board", "rack", "log")
"""The partials a websocket push re-renders, in order."""
BUILDING_PARTIAL = "building"


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the viewer sees it."""

    number: int
    name: str
    is_bot: bool
    is_me: bool
    is_current: bool
    rack_size: int
    initial_meld_done: bool
    round_total: int


@dataclass(frozen=True)
class Reader:
    """Whom a render is for, with what of theirs the game's snapshot does not hold.

    ``user_id``: the member (``None``: any spectator, as a shared render is); ``seat``:
    the seat they play, if any; ``sight``: how much of the table they see (whether the
    league a private table belongs to is named); ``offer``: the standing order's offer
    (:func:`~games.selectors.forced.standing_order_offer`); ``draft``: their turn in
    progress, when it is theirs.
    """

    user_id: int | None = None
    seat: int | None = None
    sight: Sight = Sight.NONE
    offer: int | None = None
    draft: DraftView | None = None


SPECTATOR = Reader()
"""Anyone without a seat, as the spectators' shared render reads the game."""


def reader_of(
    live: LiveGame, user: User | None, *, table: Table | None = None, fresh_turn: bool = False
) -> Reader:
    """``user`` as a render of ``live`` reads it (``None``: :data:`SPECTATOR`). Asks the
    database only what is theirs: the offer (while they have not answered it), the draft
    of their turn in progress, and their sight of a private table that belongs to
    something (``table``: the game's, if loaded). ``fresh_turn``: their turn began with
    this version's move, so there is no draft to read (:attr:`LiveGame.turn_began`)."""
    if user is None:
        return SPECTATOR
    me = live.seat_of(user.pk)
    draft = None
    if me is not None and not live.is_over and live.current_seat == me:
        draft = _turn_in_progress(live, me, fresh_turn)
    return Reader(
        user_id=user.pk,
        seat=me,
        sight=_sight(live, user, table),
        offer=None if me is None else standing_order_offer(live.game_id, user),
        draft=draft,
    )


def _turn_in_progress(live: LiveGame, seat: int, fresh_turn: bool) -> DraftView:
    if fresh_turn:
        # Nothing built yet: the working table is the table, with no step to undo.
        state = live.state
        return draft_view(live, state, seat, state.table, editable=True, can_undo=False)
    return draft_of(live, seat)


def _sight(live: LiveGame, user: User, table: Table | None) -> Sight:
    """The reader's sight, asked only where it shows: a private table that belongs to
    something (elsewhere everyone reads the same)."""
    if not (live.private and live.row.belongs_to):
        return Sight.FULL
    table = table or Table.objects.filter(pk=live.table_id).first()
    return Sight.NONE if table is None else table_sight(user, table)


def game_context(game: Game, user: User | None, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The context of the game page and of its partials, for ``user`` (a member), or for
    any spectator (``None``: what a member without a seat sees), read afresh from the
    database. ``seats``: :func:`~games.selectors.seats.table_seats`, if already loaded."""
    live = snapshot(game, seats)
    return live_context(live, reader_of(live, user, table=game.table))


def live_context(live: LiveGame, reader: Reader) -> dict[str, Any]:
    """The context of the game's partials for ``reader`` from the game's snapshot, with
    no query: what they may see of it (a player's own rack, a spectator none), the clock
    at this moment, the moves in words as they may read them."""
    state = live.state
    me = reader.seat
    view = spectator_view(state) if me is None else view_for(state, me)
    row = live.row
    belongs_to, link = shown_belongs_to(
        row.belongs_to, row.belongs_to_link, live.private, reader.sight
    )
    now = timezone.now()
    return {
        "game": replace(row, me=me, belongs_to=belongs_to, belongs_to_link=link),
        "view": view,
        "seats": _seats(live.current_seat, view, live.players, me, live.totals),
        "me": me,
        "draft": reader.draft,
        "clock": clock_at(live.clock, live.seat_times, live.vacations, state.dropped, now),
        "log": log_for(live.timeline, me, reader.user_id, state),
        "forced_offer": reader.offer,
        "oob": False,
    }


def render_live_fragments(game: Game, user: User | None, seats: list[Seat] | None = None) -> str:
    """The live partials for ``user`` (``None``: any spectator), concatenated, ready for
    out-of-band swaps, read afresh. ``seats``: :func:`~games.selectors.seats.table_seats`,
    if already loaded."""
    live = snapshot(game, seats)
    return render_fragments(live, reader_of(live, user, table=game.table))


def render_fragments(live: LiveGame, reader: Reader) -> str:
    """The live partials of ``live`` for ``reader``, concatenated, ready for out-of-band
    swaps (no query)."""
    context = {**live_context(live, reader), "oob": True}
    return "".join(render_to_string(f"{TEMPLATE}#{name}", context) for name in LIVE_PARTIALS)


def render_building_notice(game: Game, seat: int) -> str:
    """The out-of-band notice that ``seat`` is building a move."""
    record = game_players(game)
    view = spectator_view(game.engine_state())
    infos = _seats(game.current_seat, view, record, None, (0,) * len(record.seats))
    info = next((s for s in infos if s.number == seat), None)
    if info is None:
        return ""
    return render_to_string(f"{TEMPLATE}#{BUILDING_PARTIAL}", {"building": info, "oob": True})


def _seats(
    current_seat: int | None,
    view: PlayerView,
    record: GamePlayers,
    me: int | None,
    totals: tuple[int, ...],
) -> list[SeatInfo]:
    """The seats as ``me`` sees them, named by who played them (``record``); ``totals``:
    the round's totals by seat (the building notice shows none)."""
    return [
        SeatInfo(
            number=number,
            name=players[-1].name,
            is_bot=players[-1].is_bot,
            is_me=number == me,
            is_current=number == current_seat,
            rack_size=view.rack_sizes[number],
            initial_meld_done=view.initial_meld_done[number],
            round_total=totals[number],
        )
        for number, players in enumerate(record.seats)
    ]


CHAT_TEMPLATE = "games/_chat.html"


def render_chat_lines(table_id: int, user: User) -> str:
    """The table's chat as ``user`` may read it, its times in their zone, ready for an
    out-of-band swap (empty if the table is gone, or they may no longer see it: a socket
    opened while they were a private club's member reads nothing once they are not)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not may_see(user, table):
        return ""
    context = {"chat": table_chat(table, user), "oob": True}
    # In the reader's zone, as their page has it: a push has no request whose zone is
    # active (an answer's is the same one).
    with timezone.override(user.zone):
        return render_to_string(f"{CHAT_TEMPLATE}#lines", context)
