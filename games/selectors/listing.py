"""What the lobby and the table pages list: tables, and games as :class:`GameRow`.

Pages get these dataclasses, never the models: a table's row holds the round's secret
seed and a game's row every rack and the pool, and a template can reach any attribute
of what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from accounts.models import User
from engine.round import Tally
from engine.ruleset import Ruleset
from games.models import Game, Result, Seat, Table, TableQuerySet
from games.selectors.rows import GameRow, game_rows
from games.selectors.rules_summary import RulesSummary, rules_summary
from games.selectors.seats import in_seat_order
from games.selectors.sight import belongs_to_for

LIST_LIMIT = 20


@dataclass(frozen=True)
class SeatSummary:
    number: int
    name: str
    kind: str
    is_me: bool
    is_bot: bool
    is_filled: bool
    takeable: bool
    """The viewer may sit here now (an open seat, or the one kept for them)."""


@dataclass(frozen=True)
class TableSummary:
    id: int
    status: str
    status_label: str
    preset_label: str
    rules: RulesSummary
    """Every rule in words, the house rules marked."""
    turn_seconds: int
    clock: str
    time_bank_seconds: int
    timeouts_to_forfeit: int
    on_forfeit_label: str
    games_in_round: int
    seats: tuple[SeatSummary, ...]
    creator_name: str
    created_at: datetime
    finished_at: datetime | None
    is_member: bool
    can_join: bool
    winner_name: str | None
    current_game_id: int | None
    belongs_to: str
    """What the table is part of (a league fixture), with a path to it: ``belongs_to_link``."""
    belongs_to_link: str
    is_creator: bool = False
    """The viewer set the table up (and may call it off while it waits)."""
    weekend_pause: bool = False
    """Its correspondence clocks stand still at weekends, in the mover's zone."""

    @property
    def turn_label(self) -> str:
        return turn_label(self.turn_seconds)

    @property
    def is_correspondence(self) -> bool:
        return self.clock == Table.Clock.CORRESPONDENCE

    @property
    def bank_label(self) -> str:
        return turn_label(self.time_bank_seconds) if self.time_bank_seconds else ""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def free_seats(self) -> int:
        return sum(1 for seat in self.seats if not seat.is_filled)


def table_summary(table: Table, user: User, tally: Tally | None = None) -> TableSummary:
    """``table`` as ``user`` sees it in a list or on its page (seats prefetched or not).
    ``tally``: the round's, if already read (a list reads all its tables' at once)."""
    seats = in_seat_order(table)
    seated = any(s.user_id == user.pk and s.kind == Seat.Kind.PLAYER for s in seats)
    may_sit = table.status == Table.Status.OPEN and not seated
    summaries = tuple(_seat(seat, user, may_sit) for seat in seats)
    winner = None
    if table.status == Table.Status.FINISHED:
        if tally is None:
            tally = Result.objects.counting().of_table(table).tally(table)
        winner = next((s.name for s in summaries if s.number == tally.winner), None)
    belongs_to, belongs_to_link = belongs_to_for(table, user)
    return TableSummary(
        id=table.pk,
        status=table.status,
        status_label=table.get_status_display(),
        preset_label=table.get_preset_display(),
        rules=rules_summary(Ruleset.from_dict(table.ruleset), table.preset),
        turn_seconds=table.turn_seconds,
        clock=table.clock,
        time_bank_seconds=table.time_bank_seconds,
        weekend_pause=table.weekend_pause,
        timeouts_to_forfeit=table.timeouts_to_forfeit,
        on_forfeit_label=table.get_on_forfeit_display(),
        games_in_round=table.games_in_round,
        seats=summaries,
        creator_name=str(table.creator),
        created_at=table.created_at,
        finished_at=table.finished_at,
        is_member=any(s.user_id == user.pk for s in seats),
        can_join=any(s.takeable for s in summaries),
        winner_name=winner,
        current_game_id=_latest_game_id(table),
        belongs_to=belongs_to,
        belongs_to_link=belongs_to_link,
        is_creator=table.creator_id == user.pk,
    )


def _latest_game_id(table: Table) -> int | None:
    """The table's latest game: annotated by a list (:meth:`TableQuerySet.with_latest_game`,
    no query), else asked."""
    if hasattr(table, "latest_game_id"):
        return table.latest_game_id  # type: ignore[no-any-return]
    return current_game_id(table.pk)


def current_game_id(table_id: int) -> int | None:
    """The table's latest game: the one being played, or the last one played."""
    games = Game.objects.filter(table_id=table_id).order_by("-number")
    return games.values_list("pk", flat=True).first()


def open_tables(user: User) -> list[TableSummary]:
    """Tables waiting for players where ``user`` may take a seat."""
    return _summaries(Table.objects.joinable_by(user).visible_to(user), user)


def waiting_tables(user: User) -> list[TableSummary]:
    """Tables where ``user`` sits, still waiting for others."""
    return _summaries(Table.objects.open().filter(_seated(user)), user)


def invitations(user: User) -> list[TableSummary]:
    """Tables waiting for ``user`` to take the seat kept for them, oldest first."""
    return _summaries(Table.objects.inviting(user).order_by("created_at"), user)


def finished_tables(user: User) -> list[TableSummary]:
    """Rounds ``user`` played that are over, newest first."""
    tables = Table.objects.finished().filter(_seated(user)).order_by("-finished_at")
    return _summaries(tables, user)


def _seated(user: User) -> Q:
    return Q(seats__user=user, seats__kind=Seat.Kind.PLAYER)


def _summaries(tables: TableQuerySet, user: User) -> list[TableSummary]:
    listed = list(tables.with_seats().with_latest_game().select_related("creator")[:LIST_LIMIT])
    finished = [table for table in listed if table.status == Table.Status.FINISHED]
    tallies = Result.objects.counting().tallies(finished) if finished else {}
    return [table_summary(table, user, tallies.get(table.pk)) for table in listed]


def my_games(user: User) -> list[GameRow]:
    """The games ``user`` is playing, those awaiting their move first.

    Read from the member's own seats: their tables' ids first (one query on the seats'
    member index), then the games in play at those tables. Asked in one query, the
    planner walked the deadline index of every game in play on the site to find the
    member's few (130 ms at 100,000 games in play, for a member with 100)."""
    tables = Seat.objects.filter(user=user, kind=Seat.Kind.PLAYER).exclude(
        table__status=Table.Status.FINISHED
    )
    games = Game.objects.active().filter(
        table_id__in=list(tables.values_list("table_id", flat=True))
    )
    games = games.order_by("turn_deadline", "pk")
    return sorted(game_rows(games, user, LIST_LIMIT), key=lambda game: not game.my_turn)


def my_lists(user: User) -> dict[str, object]:
    """What the "Your games" section shows (the lobby's ``my-games`` partial): the home page
    renders it with the page, so nothing moves under the reader when it loads, and htmx
    reads it again on each push (the ``games:mine`` fragment)."""
    return {
        "my_games": my_games(user),
        "invitations": invitations(user),
        "waiting": waiting_tables(user),
    }


def games_to_watch(user: User) -> list[GameRow]:
    """Games in play at tables where ``user`` has no seat; never a private table's: the
    newest turns first, read from the head of the ``games_game_latest_turn`` index."""
    mine = Table.objects.filter(seats__user=user).values("pk")
    games = Game.objects.active().on_public_tables().exclude(table__in=mine)
    games = games.order_by("-turn_started_at")
    return game_rows(games, user, LIST_LIMIT)


def turn_label(seconds: int) -> str:
    """A turn's time in words: "45 s", "2 min", "1 day"."""
    if seconds % 86400 == 0 and seconds:
        days = seconds // 86400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def _seat(seat: Seat, user: User, may_sit: bool) -> SeatSummary:
    reserved_for_me = seat.kind == Seat.Kind.RESERVED and seat.user_id == user.pk
    return SeatSummary(
        number=seat.number,
        name=seat.occupant_name,
        kind=seat.kind,
        is_me=seat.user_id == user.pk and seat.kind == Seat.Kind.PLAYER,
        is_bot=seat.kind == Seat.Kind.BOT,
        is_filled=seat.is_filled,
        takeable=may_sit and (seat.kind == Seat.Kind.OPEN or reserved_for_me),
    )
