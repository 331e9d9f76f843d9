"""The counts a game page's socket compares when it connects (:mod:`games.consumers`).

A game page says what it shows: the game's ``version`` (its moves), its
``live_version`` (every other change its live parts show: a clock moved, a hold, a seat
handed over, a result corrected) and its table's ``chat_version``. A socket that
reconnects is sent only what its page lacks, so each of these changes bumps its count
here, in the change's transaction: a page rendered after the commit shows the new count
with the new state, and one that missed the push meanwhile is found behind.

``version`` is not one of them: the moves count it, and a player's move is refused as
stale by it; a clock that moves must never make a move stale.
"""

from __future__ import annotations

from django.db.models import F

from games.models import Game, Table


def game_shown_anew(game: Game) -> None:
    """``game`` (locked by the caller) changed without a move in what its pages show."""
    Game.objects.filter(pk=game.pk).update(live_version=F("live_version") + 1)
    game.live_version += 1


def round_shown_anew(table_id: int) -> None:
    """Every game of the table shows something new (the round's totals, after a ruling)."""
    Game.objects.filter(table_id=table_id).update(live_version=F("live_version") + 1)


def chat_shown_anew(table_id: int) -> None:
    """The table's chat changed: a message said, hidden or shown again."""
    Table.objects.filter(pk=table_id).update(chat_version=F("chat_version") + 1)
