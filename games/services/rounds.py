"""A table's round: starting its games one after another, and closing it.

The round's schedule is the engine's :class:`~engine.round.Round`, stored as JSON on the
table: it derives each game's seed from the table's secret round seed and rotates the
starting player. Its results are the games' result rows (:mod:`.results`), from which
the totals, standings and winner are read. These functions run inside the transaction
of the move (or the join) that triggers them; a new game and its first turn, and the
end of the round, are announced after commit (:mod:`games.signals`).
"""

from __future__ import annotations

from datetime import datetime

from common.signals import send_after_commit
from engine.round import Round
from games import signals
from games.conf import new_round_seed
from games.models import Game, Result, Seat, Table
from games.selectors.seats import table_seats
from games.services.clock import announce_turn, turn_clock_for
from games.services.occupancy import record_start


def start_round(table: Table, now: datetime) -> Game:
    """Begin the round of a full table (locked by the caller) with its first game."""
    table.round_seed = new_round_seed(table)
    round_ = Round.start(table.engine_ruleset(), table.round_seed, table.games_in_round)
    table.round = round_.to_dict()
    table.status = Table.Status.PLAYING
    table.started_at = now
    table.save()
    # Every seat starts the round with a full time bank and a clean record.
    table.seats.update(bank_seconds=table.time_bank_seconds, timeouts_in_a_row=0)
    return _start_game(table, round_, 0, None, now)


def game_recorded(
    table: Table, game: Game, now: datetime, seats: list[Seat] | None = None
) -> Game | None:
    """Go on after ``game``'s result is written: start the round's next game, or finish
    the table after its last. ``table`` is locked by the caller (after the game);
    ``seats``: its seats in order, as the move that ended the game loaded them.

    Returns the next game, or ``None`` when the round is over.
    """
    round_ = table.engine_round()
    if round_ is None:
        raise ValueError(f"table {table.pk} has no round")
    index = game.number - 1
    if not round_.is_last(index):
        return _start_game(table, round_, index + 1, game.starting_seat, now, seats)
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.save(update_fields=["status", "finished_at"])
    send_after_commit(
        signals.round_finished,
        Table,
        table_id=table.pk,
        winner_seat=Result.objects.counting().of_table(table).winner(table),
    )
    return None


def _start_game(
    table: Table,
    round_: Round,
    index: int,
    previous_starter: int | None,
    now: datetime,
    seats: list[Seat] | None = None,
) -> Game:
    state = round_.game(index, previous_starter)
    game = Game(
        table=table,
        number=index + 1,
        ruleset=state.ruleset.to_dict(),
        seed=round_.game_seed(index),
        starting_seat=state.starting_player,
        start_drawn=index == 0,
        state=state.to_dict(),
        version=0,
        turn_number=state.turn_number,
        current_seat=state.current_player,
    )
    if seats is None:
        seats = table_seats(game)
    seat = next((s for s in seats if s.number == game.current_seat), None)
    turn_clock_for(game, seat, now)
    game.save(force_insert=True)
    record_start(game)
    signals.send_about_game(signals.game_started, game, number=game.number)
    turn = game.turn_number
    signals.game_dealing.send(sender=Game, game=game, table=table, seats=seats)
    # A forfeit that passed the turn on, or ended the game, announced what follows.
    if not game.is_over and game.turn_number == turn:
        announce_turn(game, seat)
    return game
