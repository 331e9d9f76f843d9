"""What leagues do when games announce a fact (connected in ``LeaguesConfig.ready()``).

Each idea connects its own receivers in its own function, so that they read apart.
"""

from __future__ import annotations

from typing import Any

from games import signals
from leagues.services.withdrawals import forfeit_withdrawn_seats


def forfeit_for_withdrawn_players(sender: type, game_id: int, table_id: int, **kwargs: Any) -> None:
    """A game of a fixture table was dealt: players who withdrew under the ``FORFEIT``
    rule forfeit it at once (any other table: nothing)."""
    forfeit_withdrawn_seats(game_id, table_id)


def connect_withdrawals() -> None:
    """Subscribe the receivers of withdrawals (idempotent: each has a dispatch uid)."""
    signals.game_started.connect(
        forfeit_for_withdrawn_players, dispatch_uid="leagues.receivers.forfeit_withdrawn"
    )
