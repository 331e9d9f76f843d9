"""Who played each seat of a game: the game's record of its seats, never the table's
seat as it is now (:class:`~games.models.SeatOccupancy`).

:func:`player_at` answers "who played seat S at move N"; :func:`game_players` reads a
game's whole record once, for the pages that name every seat and move (the game page,
its move log and replay, a case's evidence, a notice, a league's fixtures and exports):
"Frank" for the games Frank played, "Hank for Frank" from the move a substitute took the
seat, "Bot (normal) for Gina" from the move a bot did.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q

from games.models import Game, Move, Seat, SeatOccupancy


@dataclass(frozen=True)
class SeatPlayer:
    """One seat's player from move ``from_move`` on."""

    seat: int
    from_move: int
    member_id: int | None
    name: str

    @property
    def is_bot(self) -> bool:
        return self.member_id is None


@dataclass(frozen=True)
class GamePlayers:
    """A game's record of its seats: each seat's players in the order they sat."""

    seats: tuple[tuple[SeatPlayer, ...], ...]

    def at(self, seat: int, move: int) -> SeatPlayer:
        """Who played ``seat`` at move ``move`` (a seq; past the last move: who plays it now)."""
        players = self.seats[seat]
        return next((p for p in reversed(players) if p.from_move <= move), players[0])

    def names_at(self, move: int) -> list[str]:
        """Each seat's name, by number, at move ``move``."""
        return [self.at(seat, move).name for seat in range(len(self.seats))]

    @property
    def names(self) -> list[str]:
        """Each seat's name, by number: who plays it now, or who played it last."""
        return [players[-1].name for players in self.seats]

    @property
    def members(self) -> dict[int, int]:
        """The member of each seat who plays it now or played it last (bots left out)."""
        return {
            seat: players[-1].member_id
            for seat, players in enumerate(self.seats)
            if players[-1].member_id is not None
        }

    @property
    def everyone(self) -> set[int]:
        """Every member who played a seat of the game, at any move."""
        return {p.member_id for players in self.seats for p in players if p.member_id is not None}

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays now or played last in the game, if any."""
        return next((seat for seat, member in self.members.items() if member == user_id), None)


Names = Sequence[str] | GamePlayers
"""Each seat's name: fixed (a list), or as a game's record has it move by move."""


def names_at(names: Names, move: int) -> Sequence[str]:
    """Each seat's name at move ``move`` (a seq)."""
    return names.names_at(move) if isinstance(names, GamePlayers) else names


def table_seat_names(table_id: int) -> list[str]:
    """Each seat of a table named by everyone who played it in its round, in order
    ("Frank, then Hank for Frank"); a round not started yet names the seats as they are."""
    rounds = tables_players([table_id])[table_id]
    if not rounds:
        seats = Seat.objects.filter(table_id=table_id).select_related(
            "user", "replaced_user", "plays_for"
        )
        return [seat.occupant_name for seat in seats.order_by("number")]
    return round_names(rounds)


def tables_players(table_ids: Iterable[int]) -> dict[int, list[GamePlayers]]:
    """The record of every game of each table, in the round's order, in two queries."""
    ids = list(table_ids)
    games = Game.objects.filter(table_id__in=ids).order_by("table_id", "number")
    pairs = list(games.values_list("table_id", "pk"))
    records = games_players(game_id for _, game_id in pairs)
    rounds: dict[int, list[GamePlayers]] = {table_id: [] for table_id in ids}
    for table_id, game_id in pairs:
        rounds[table_id].append(records[game_id])
    return rounds


def round_names(rounds: Sequence[GamePlayers]) -> list[str]:
    """Each seat named by everyone who played it in ``rounds`` (a table's games), in order."""
    names: list[list[str]] = [[] for _ in rounds[0].seats]
    for players in rounds:
        for seat, seat_players in enumerate(players.seats[: len(names)]):
            names[seat].extend(player.name for player in seat_players)
    return [", then ".join(dict.fromkeys(seat_names)) for seat_names in names]


def game_players(game: Game | int, seats: int | None = None) -> GamePlayers:
    """The record of ``game`` (a game or its id), in one query. ``seats``: how many the
    game has, if known (a seat without a record, a game started before it was kept and
    not filled in, is named by the table's seat)."""
    game_id = game if isinstance(game, int) else game.pk
    rows = SeatOccupancy.objects.filter(game_id=game_id).select_related("member", "plays_for")
    return _without_idle({game_id: _seated(game_id, rows, seats)})[game_id]


def games_players(game_ids: Iterable[int]) -> dict[int, GamePlayers]:
    """:func:`game_players` of many games, in one query."""
    ids = list(game_ids)
    rows = SeatOccupancy.objects.filter(game_id__in=ids).select_related("member", "plays_for")
    by_game: dict[int, list[SeatOccupancy]] = {game_id: [] for game_id in ids}
    for row in rows:
        by_game[row.game_id].append(row)
    return _without_idle(
        {game_id: _seated(game_id, rows, None) for game_id, rows in by_game.items()}
    )


def player_at(game: Game | int, seat: int, move: int) -> SeatPlayer:
    """Who played ``seat`` of ``game`` at move ``move`` (its seq)."""
    return game_players(game).at(seat, move)


def seat_names(game: Game | int) -> list[str]:
    """Each seat of ``game`` named as it was played: who plays it now, or played it last."""
    return game_players(game).names


def _seated(game_id: int, rows: Iterable[SeatOccupancy], seats: int | None) -> GamePlayers:
    """Everyone the record seats, in order, before :func:`_without_idle`."""
    by_seat: dict[int, list[SeatPlayer]] = {}
    for row in sorted(rows, key=lambda row: (row.seat, row.from_move, row.pk)):
        players = by_seat.setdefault(row.seat, [])
        _sit(players, SeatPlayer(row.seat, row.from_move, row.member_id, row.name))
    if seats is None and by_seat:
        seats = max(by_seat) + 1
    if seats is None or len(by_seat) < seats:
        seats = _fill_from_table(game_id, by_seat, seats)
    return GamePlayers(tuple(tuple(by_seat[seat]) for seat in range(seats)))


def _sit(players: list[SeatPlayer], player: SeatPlayer) -> None:
    """Seat ``player`` after ``players`` (one seat's, in order)."""
    if players and players[-1].from_move == player.from_move:
        # Handed on again before anyone moved: the earlier player played nothing.
        players.pop()
    if players and (players[-1].member_id, players[-1].name) == (player.member_id, player.name):
        return  # the same player goes on
    players.append(player)


PLAYED = (Move.By.USER, Move.By.ORDER, Move.By.BOT, Move.By.TIMEOUT)
"""The moves a seat's player makes (or lets the clock make): a ruling's are no one's."""


def _without_idle(records: dict[int, GamePlayers]) -> dict[int, GamePlayers]:
    """The records without the players who sat but made no move in the game: before the
    next one took the seat (a bot seated for a suspension that was undone before its turn
    came, across a ruling's moves), or to its end (a substitute seated after the seat's
    player resigned, or once the game was over: the seat is its player's for the whole
    game). In two queries, asked only of seats handed on. Who sits now in a seat still in
    play stays, moved or not: their move comes."""
    spans = {
        (game_id, players[index].seat, players[index].from_move): (
            players[index + 1].from_move if index + 1 < len(players) else None
        )
        for game_id, record in records.items()
        for players in record.seats
        if len(players) > 1
        for index in range(len(players))
    }
    if not spans:
        return records
    asked = reduce(
        or_,
        (
            Q(game_id=game_id, seat=seat, seq__gte=start) & (Q() if end is None else Q(seq__lt=end))
            for (game_id, seat, start), end in spans.items()
        ),
    )
    moves = Move.objects.filter(asked, by__in=PLAYED).values_list("game_id", "seat", "seq")
    played = {
        (game_id, seat, start)
        for game_id, seat, seq in moves.order_by()
        for (g, s, start), end in spans.items()
        if (g, s) == (game_id, seat) and start <= seq and (end is None or seq < end)
    }
    out = _out_of_play(records, {game_id for game_id, _, _ in spans})
    return {
        game_id: _kept(game_id, record, spans, played, out.get(game_id, set()))
        for game_id, record in records.items()
    }


def _out_of_play(records: dict[int, GamePlayers], game_ids: set[int]) -> dict[int, set[int]]:
    """The seats of each of ``game_ids`` that will make no move again: every seat of a
    game that is over, the seats that dropped out (resigned, forfeited) of one in play."""
    games = Game.objects.filter(pk__in=game_ids).values_list("pk", "status", "state__dropped")
    return {
        game_id: (
            set(range(len(records[game_id].seats)))
            if status == Game.Status.FINISHED
            else set(dropped or ())
        )
        for game_id, status, dropped in games
    }


def _kept(
    game_id: int,
    record: GamePlayers,
    spans: dict[tuple[int, int, int], int | None],
    played: set[tuple[int, int, int]],
    out: set[int],
) -> GamePlayers:
    seats: list[tuple[SeatPlayer, ...]] = []
    for players in record.seats:
        kept: list[SeatPlayer] = []
        for player in players:
            key = (game_id, player.seat, player.from_move)
            last = player is players[-1]
            if key in spans and key not in played and (not last or player.seat in out):
                continue  # sat, and made no move in the game before the seat was handed on
            _sit(kept, player)
        seats.append(tuple(kept or players[:1]))
    return GamePlayers(tuple(seats))


def _fill_from_table(game_id: int, by_seat: dict[int, list[SeatPlayer]], seats: int | None) -> int:
    """Seats the record lacks are named by the table's seat as it is now; returns how
    many seats the game has (``seats``, or the table's)."""
    table_seats: Sequence[Seat] = list(
        Seat.objects.filter(table__games=game_id)
        .select_related("user", "replaced_user", "plays_for")
        .order_by("number")
    )
    count = len(table_seats) if seats is None else seats
    for seat in table_seats:
        if seat.number < count and seat.number not in by_seat:
            member = seat.user_id if seat.kind == Seat.Kind.PLAYER else None
            by_seat[seat.number] = [SeatPlayer(seat.number, 1, member, seat.occupant_name)]
    for number in range(count):
        by_seat.setdefault(number, [SeatPlayer(number, 1, None, f"Seat {number + 1}")])
    return count
