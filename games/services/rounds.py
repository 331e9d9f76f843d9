"""A table's round: starting its games one after another and keeping the score.

The round is the engine's :class:`~engine.round.Round`, stored as JSON on the table:
it derives each game's seed from the table's secret round seed, rotates the starting
player, adds up the scores and names the winner. These functions run inside the
transaction of the move (or the join) that triggers them; a new game and its first turn
are announced after commit (:mod:`games.signals`).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from engine.round import Round
from engine.state import GameState
from games import signals
from games.models import Game, Table
from games.services.clock import announce_turn, start_turn_clock


def start_round(table: Table, now: datetime) -> Game:
    """Begin the round of a full table (locked by the caller) with its first game."""
    table.round_seed = secrets.token_hex(16)
    round_ = Round.start(table.engine_ruleset(), table.round_seed, table.games_in_round)
    table.round = round_.to_dict()
    table.status = Table.Status.PLAYING
    table.started_at = now
    table.save()
    # Every seat starts the round with a full time bank and a clean record.
    table.seats.update(bank_seconds=table.time_bank_seconds, timeouts_in_a_row=0)
    return _start_game(table, round_, now)


def record_finished_game(game: Game, state: GameState, now: datetime) -> Game | None:
    """Add a finished game to its round; start the next game, or close the table.

    Returns the next game, or ``None`` when the round is over.
    """
    # The table row is locked after the game row, the order every writer follows, so
    # two writers never wait on each other in a cycle.
    table = Table.objects.select_for_update().get(pk=game.table_id)
    # The game carries its table as this move leaves it (the answer shows the round).
    game.table = table
    round_ = Round.from_dict(table.round or {}).record(state)
    table.round = round_.to_dict()
    if not round_.is_over:
        table.save()
        return _start_game(table, round_, now)
    totals, wins = round_.totals, round_.wins
    table.standings = [
        {"seat": seat, "total": totals[seat], "wins": wins[seat]} for seat in round_.standings
    ]
    table.winner_seat = round_.winner
    table.status = Table.Status.FINISHED
    table.finished_at = now
    table.save()
    return None


def _start_game(table: Table, round_: Round, now: datetime) -> Game:
    index = len(round_.results)
    state = round_.next_game()
    game = Game(
        table=table,
        number=index + 1,
        ruleset=state.ruleset.to_dict(),
        seed=round_.game_seed(index),
        starting_seat=state.starting_player,
        start_drawn=round_.next_starting_player() is None,
        state=state.to_dict(),
        version=0,
        turn_number=state.turn_number,
        current_seat=state.current_player,
    )
    start_turn_clock(game, now)
    game.save(force_insert=True)
    signals.send_after_commit(
        signals.game_started, Game, game_id=game.pk, table_id=table.pk, number=game.number
    )
    announce_turn(game)
    return game
