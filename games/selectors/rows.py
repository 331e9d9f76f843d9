"""A game as a row: the one shape in which pages list games, and its builder.

The lobby's lists (the member's games, the games to watch), the home page's list, "your
move" and the game page's own heading all show a game through :class:`GameRow`, built by
:func:`game_row` alone. Pages get these plain values, never the model: a game's row holds
every rack and the pool, and a template can reach any attribute of what it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime

from accounts.models import User
from games.models import Game, GameQuerySet, Seat, Table
from games.selectors.players import GamePlayers, game_players, games_players
from games.selectors.results import GameResult, game_result
from games.selectors.seats import in_seat_order
from games.selectors.sight import belongs_to_for


@dataclass(frozen=True)
class GameRow:
    """A game as ``me`` (the viewer's seat, ``None`` for anyone without one) sees it in
    a list: whose turn it is, until when, and who plays."""

    id: int
    table_id: int
    number: int
    games_in_round: int
    is_over: bool
    turn_number: int
    current_seat: int | None
    turn_started_at: datetime
    turn_deadline: datetime | None
    held: bool
    """A moderator paused the game while a case is looked into: nobody moves, no clock runs."""
    clock: str
    clock_label: str
    players: tuple[str, ...]
    """What everyone sees of each seat, by seat number."""
    me: int | None
    belongs_to: str
    """What the table is part of (a league fixture), with a path to it: ``belongs_to_link``."""
    belongs_to_link: str
    settles_at: datetime | None
    """When the table's round is settled whatever the clocks say (a league fixture's
    deadline), if it is."""

    @property
    def settled_first(self) -> bool:
        """Whether the round is settled before this turn's deadline: the page shows that
        moment (:attr:`due`) instead."""
        if self.is_over or self.settles_at is None:
            return False
        return self.turn_deadline is None or self.settles_at < self.turn_deadline

    @property
    def due(self) -> datetime | None:
        """The moment the countdown counts to: the turn's deadline, or the round's
        settling when it comes first."""
        return self.settles_at if self.settled_first else self.turn_deadline

    @property
    def turn_name(self) -> str:
        """Who is to play ("" once the game is over)."""
        if self.is_over or self.current_seat is None:
            return ""
        return self.players[self.current_seat]

    @property
    def my_turn(self) -> bool:
        return not self.is_over and self.me is not None and self.current_seat == self.me

    @property
    def opponents(self) -> tuple[str, ...]:
        """The other seats' names, in seat order."""
        return tuple(name for seat, name in enumerate(self.players) if seat != self.me)

    @property
    def is_correspondence(self) -> bool:
        return self.clock == Table.Clock.CORRESPONDENCE


@dataclass(frozen=True)
class PublicGame(GameRow):
    """The game page's heading: the row, with what the page follows (the version pushed,
    the count of its other changes, the time per turn) and the game's result once it is
    over."""

    version: int
    live_version: int
    turn_seconds: int
    result: GameResult | None


def game_row(
    game: Game,
    viewer: User | None,
    seats: Sequence[Seat] | None = None,
    players: GamePlayers | None = None,
) -> GameRow:
    """``game`` (with its table) as ``viewer`` sees it in a list (``None``: a spectator).
    ``seats``: the table's seats in order, if already loaded; else the prefetched ones
    (:func:`game_rows`) or one query. ``players``: the game's record of who played, if
    already read. A game is named by who played it, and a viewer who sits at the table
    now but did not play a finished game is a spectator of it."""
    seats = in_seat_order(game.table) if seats is None else seats
    players = game_players(game, len(seats)) if players is None else players
    table = game.table
    belongs_to, belongs_to_link = belongs_to_for(table, viewer)
    return GameRow(
        id=game.pk,
        table_id=game.table_id,
        number=game.number,
        games_in_round=table.games_in_round,
        is_over=game.is_over,
        turn_number=game.turn_number,
        current_seat=game.current_seat,
        turn_started_at=game.turn_started_at,
        turn_deadline=game.turn_deadline,
        held=game.held_at is not None,
        clock=table.clock,
        clock_label=table.get_clock_display(),
        players=tuple(players.names),
        me=None if viewer is None else _seat_of(viewer, seats, game, players),
        belongs_to=belongs_to,
        belongs_to_link=belongs_to_link,
        settles_at=table.settles_at,
    )


def game_rows(
    games: GameQuerySet, viewer: User, limit: int | None = None, offset: int = 0
) -> list[GameRow]:
    """The rows of ``games`` in their order (``limit`` of them from ``offset``), with the
    tables and seats read in three queries whatever the list's length. A row needs
    neither the game's state nor the round's schedule: those columns (kilobytes a game)
    stay in the database."""
    listed = (
        games.select_related("table")
        .defer("state", "table__round")
        .prefetch_related(
            "table__seats__user", "table__seats__replaced_user", "table__seats__plays_for"
        )
    )
    if limit is not None:
        listed = listed[offset : offset + limit]
    elif offset:
        listed = listed[offset:]
    games_list = list(listed)
    records = games_players(game.pk for game in games_list)
    return [game_row(game, viewer, players=records[game.pk]) for game in games_list]


def public_game(
    game: Game, viewer: User | None, seats: Sequence[Seat], players: GamePlayers | None = None
) -> PublicGame:
    """The game page's heading for ``viewer``; ``seats``: the table's, in order;
    ``players``: the game's record of who played, if already read."""
    row = game_row(game, viewer, seats, players)
    return PublicGame(
        **{field.name: getattr(row, field.name) for field in fields(GameRow)},
        version=game.version,
        live_version=game.live_version,
        turn_seconds=game.table.turn_seconds,
        result=game_result(game),
    )


def _seat_of(viewer: User, seats: Sequence[Seat], game: Game, players: GamePlayers) -> int | None:
    if game.is_over:
        return players.seat_of(viewer.pk)
    return next(
        (s.number for s in seats if s.kind == Seat.Kind.PLAYER and s.user_id == viewer.pk), None
    )
