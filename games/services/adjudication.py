"""Rounds stopped before their end: what settles a league fixture at its deadline.

An authority above the table (a league's matchday deadline, later a moderator) may stop
a round: the game in play ends at once and is scored as it stands (the engine's
:class:`~engine.actions.Adjudicate`, scored like an empty pool), and the round's later
games are never played, so the round's results are the games finished plus that one.
Either the game is scored as it stands for everyone, or the player whose turn it is
forfeits it first (they ran out the deadline), and the rest is scored as it stands.

The stop is logged as moves by :attr:`~games.models.Move.By.RULING`, so the game still
replays exactly from its seed and its log, and its result rows are written the way any
ending writes them (:func:`~games.services.results.record_played`), with the round
finished and announced as usual.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from engine import game as engine
from games.errors import TableError
from games.models import Game, Move, Table
from games.services.locking import lock_table, lock_table_of
from games.services.move import LoadedGame, load_game, make_move

# A game can end between finding it and locking it (its last move races the stop); the
# round's next game is then the one in play. Each retry follows a move that ended a
# game, so a round of at most twenty games bounds the loop; three is plenty in practice.
_ATTEMPTS = 3


def stop_round(table_id: int, *, forfeit_to_move: bool = False) -> Table:
    """End the round of ``table_id`` now; returns the table, finished.

    With ``forfeit_to_move`` the player whose turn it is forfeits the game in play first
    (if they were the last but one in play, the other seat wins it outright). A round
    that is over already is left as it is. Raises :class:`~games.errors.TableError` for
    a table whose round has not started.
    """
    for _ in range(_ATTEMPTS):
        with transaction.atomic():
            in_play = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).first()
            if in_play is None:
                table = lock_table(table_id)
                if table.status == Table.Status.OPEN:
                    raise TableError("The table's round has not started.")
                if table.status == Table.Status.FINISHED:
                    return table
                continue
            # Game, then table: the lock order of every writer.
            load = load_game(in_play.pk)
            if load.game.is_over:
                continue
            _cut_round_after(load.game)
            _stop(load, forfeit_to_move)
            return Table.objects.get(pk=table_id)
    raise TableError("The round kept moving on; try again.")


def _cut_round_after(game: Game) -> None:
    """The round's schedule ends with ``game``: its end finishes the table."""
    table = lock_table_of(game)
    round_ = table.engine_round()
    if round_ is None:
        raise TableError("The table's round has not started.")
    table.round = replace(round_, games=game.number).to_dict()
    table.games_in_round = game.number
    table.save(update_fields=["round", "games_in_round"])


def _stop(load: LoadedGame, forfeit_to_move: bool) -> None:
    if forfeit_to_move:
        make_move(load, load.state.current_player, engine.Forfeit(), Move.By.RULING)
        if load.game.is_over:
            return
    # Logged against the seat to move: the stop comes on that turn.
    make_move(load, load.state.current_player, engine.Adjudicate(), Move.By.RULING)
