"""The facts of a league, announced once each after the transaction that made them commits.

A league service that makes a fact (an entry withdrawn, a player substituted, a fixture
settled, fixtures rescheduled, a score adjusted, a season closed) announces it with
:func:`announce`, which sends the fact's signal after commit as the games app sends its
own (:func:`common.signals.send_after_commit`: never on a rollback, ``send_robust``, ids
and small values only). What follows from the fact subscribes in
:meth:`leagues.apps.LeaguesConfig.ready` (:mod:`leagues.receivers`): the service never
names its consequences, and no writer has to remember to forget a cache.

Every fact is about one season (``season_id``). Besides its own signal, the first fact
of a season in a transaction has :data:`season_changed` sent once for the whole
transaction (after its commit, like the facts): the standings cache and the live
standings pages subscribe to it, so a matchday closed with eight fixtures settled
refreshes its season once, not eight times. A fact of play (:mod:`games.signals`: a game
ended, a result superseded) comes from a games transaction and refreshes its season
through the same signal (:func:`leagues.receivers.standings_changed`).
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.dispatch import Signal

from common.signals import send_after_commit
from leagues.models import Season

entry_withdrawn = Signal()
"""A player left a season (sender: ``Entry``): their seats go on by the season's rule.

``season_id``, ``entry_id``; ``user_id``: the entry's member; ``by_id``: who withdrew
them (the player, or an organiser); ``fixture_ids``: their fixtures unfinished when they
withdrew."""

player_substituted = Signal()
"""An organiser seated a substitute for an entry from now on (sender: ``Entry``).

``season_id``, ``entry_id``; ``substitute_id``: the member who plays for it now;
``previous_id``: who played for it before."""

fixture_settled = Signal()
"""An unfinished fixture was settled by the season's deadline rule, or found finished
while settling (sender: ``Fixture``).

``season_id``, ``fixture_id``, ``matchday_id``."""

fixture_finished = Signal()
"""A fixture's table finished its round: the fixture is finished (sender: ``Fixture``).

``season_id``, ``fixture_id``."""

fixtures_changed = Signal()
"""A season's fixtures changed: a matchday's deadline was extended or one fixture was
rescheduled (sender: ``Fixture``), or the season started with its divisions and
fixtures (sender: ``Season``).

``season_id``, ``matchday_id`` (``None`` at the start); ``fixture_ids``: the fixtures
whose deadline moved (every one of the matchday's that has no deadline of its own, for
an extension; none at the start)."""

score_adjusted = Signal()
"""An organiser's score change of a fixture's game was applied (sender:
``ScoreAdjustment``). Its result rows were superseded through the games app, whose own
fact refreshes the standings; this one says who did it and why.

``season_id``, ``adjustment_id``, ``game_id``, ``seat``."""

season_closed = Signal()
"""A season was closed: its final standings stand, promotion and relegation are applied
to the next season (sender: ``Season``).

``season_id``; ``next_season_id``: the season it proposed, or ``None``."""

season_close_announced = Signal()
"""A season's close was announced for a moment after its grace period (sender:
``Season``): the beat job closes it then, unless an organiser does earlier.

``season_id``; ``closes_at``: the moment announced."""

season_changed = Signal()
"""What a season's standings read changed (sender: ``Season``): sent once per season per
transaction, after that transaction's facts of the season, and once for each fact of play
of one of its fixtures. The standings cache is forgotten and open standings pages fetch
their tables again.

``season_id``."""


class SeasonRefresh:
    """The one :data:`season_changed` of a season that a transaction owes; found again in
    the transaction's commit callbacks by :func:`_refresh_once`, so that later facts of
    the same season add none."""

    def __init__(self, season_id: int) -> None:
        self.season_id = season_id
        self.__qualname__ = f"SeasonRefresh({season_id})"

    def __call__(self) -> None:
        season_changed.send_robust(Season, season_id=self.season_id)


def announce(
    signal: Signal, sender: type, season_id: int, *, refresh: bool = True, **facts: Any
) -> None:
    """Send ``signal`` about ``season_id`` once the current transaction commits, and
    :data:`season_changed` once for the season in the transaction. ``refresh=False``
    for a fact whose rows a fact of play announces already (a score change's result rows:
    :data:`games.signals.results_superseded` refreshes the season)."""
    send_after_commit(signal, sender, season_id=season_id, **facts)
    if refresh:
        refresh_after_commit(season_id)


def refresh_after_commit(season_id: int) -> None:
    """:data:`season_changed` for ``season_id`` after commit, once per transaction.

    The commit callbacks a savepoint registered go with it when it rolls back, so the
    refresh looked for is one that will really run: a fact of the season surviving the
    rollback registered its own before it, or registers one now.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.in_atomic_block:
        # Each is (savepoint ids, callback, robust) in Django 5.
        for registered in connection.run_on_commit:
            callback = registered[1]
            if isinstance(callback, SeasonRefresh) and callback.season_id == season_id:
                return
    transaction.on_commit(SeasonRefresh(season_id), robust=True)
