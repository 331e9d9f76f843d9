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

Context (from :func:`game_context`): ``game``
(:class:`~games.selectors.rows.PublicGame`), ``view`` (the
engine's :class:`~engine.views.PlayerView` for a seated player, its spectator view for
anyone else), ``seats`` (:class:`SeatInfo` per seat), ``me`` (the viewer's seat or
``None``), ``draft`` (:class:`~games.selectors.drafts.DraftView` of the viewer's turn,
or ``None``), ``clock`` (:class:`~games.selectors.clock.GameClock`: the time control,
each seat's bank, vacation and timeouts in a row, whether the turn's clock stands
still), ``log`` (:class:`~games.selectors.move_log.MoveLog`: the moves so far as the
viewer may know them, the tiles they just drew, the last play's tiles), ``user``,
``oob``, ``forced_offer`` (the turn to name when the viewer is offered the standing
order for forced turns: :func:`~games.selectors.forced.standing_order_offer`). The game
model itself is never put in a context: its cached state holds every
rack and the pool, and a template can reach any attribute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from engine.views import PlayerView, spectator_view, view_for
from games.models import Game, Result, Seat, Table
from games.selectors.chat import table_chat
from games.selectors.clock import game_clock
from games.selectors.drafts import DraftView, read_draft
from games.selectors.forced import standing_order_offer
from games.selectors.move_log import move_log
from games.selectors.players import GamePlayers, game_players
from games.selectors.rows import public_game
from games.selectors.seats import table_seats
from games.selectors.sight import may_see

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


def game_context(game: Game, user: User | None, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The context of the game page and of its partials, for ``user`` (a member), or for
    any spectator (``None``: what a member without a seat sees). ``seats``:
    :func:`~games.selectors.seats.table_seats`, if already loaded."""
    state = game.engine_state()
    if seats is None:
        seats = table_seats(game)
    record = game_players(game, len(seats))
    me = None if user is None else _my_seat(game, user, seats, record)
    view = spectator_view(state) if me is None else view_for(state, me)
    draft: DraftView | None = None
    if user is not None and me is not None and not game.is_over and game.current_seat == me:
        draft = read_draft(game, user, me)
    totals = round_totals(game)
    return {
        "game": public_game(game, user, seats, record),
        "view": view,
        "seats": _seats(game, view, record, me, totals),
        "me": me,
        "draft": draft,
        "clock": game_clock(game, timezone.now(), state.dropped, seats),
        "log": move_log(game, record, me, None if user is None else user.pk),
        "forced_offer": None if user is None or me is None else standing_order_offer(game, user),
        "user": user,
        "oob": False,
    }


def round_totals(game: Game) -> tuple[int, ...]:
    """Each seat's score in the round so far. Results are written when a game ends, so
    while the round's first game is in play there is nothing to read (every page of a
    one-game table, and every push of its moves, is spared the query)."""
    if game.number == 1 and not game.is_over:
        return (0,) * game.engine_state().ruleset.players
    return Result.objects.counting().of_table(game.table_id).totals(game.table)


def render_live_fragments(game: Game, user: User | None, seats: list[Seat] | None = None) -> str:
    """The live partials for ``user`` (``None``: any spectator), concatenated, ready for
    out-of-band swaps. ``seats``: :func:`~games.selectors.seats.table_seats`, if already loaded."""
    context = {**game_context(game, user, seats), "oob": True}
    return "".join(render_to_string(f"{TEMPLATE}#{name}", context) for name in LIVE_PARTIALS)


def render_building_notice(game: Game, seat: int) -> str:
    """The out-of-band notice that ``seat`` is building a move."""
    record = game_players(game)
    view = spectator_view(game.engine_state())
    infos = _seats(game, view, record, None, (0,) * len(record.seats))
    info = next((s for s in infos if s.number == seat), None)
    if info is None:
        return ""
    return render_to_string(f"{TEMPLATE}#{BUILDING_PARTIAL}", {"building": info, "oob": True})


def _my_seat(game: Game, user: User, seats: list[Seat], record: GamePlayers) -> int | None:
    """The seat ``user`` plays in ``game`` in play (the table's seat they sit in now), or
    played to the end of it once it is over (whoever sits there now)."""
    if game.is_over:
        return record.seat_of(user.pk)
    return next(
        (s.number for s in seats if s.kind == Seat.Kind.PLAYER and s.user_id == user.pk), None
    )


def _seats(
    game: Game, view: PlayerView, record: GamePlayers, me: int | None, totals: tuple[int, ...]
) -> list[SeatInfo]:
    """The seats as ``me`` sees them, named by who played them (``record``); ``totals``:
    the round's totals by seat (the building notice shows none)."""
    return [
        SeatInfo(
            number=number,
            name=players[-1].name,
            is_bot=players[-1].is_bot,
            is_me=number == me,
            is_current=number == game.current_seat,
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
