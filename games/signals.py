"""The facts of play, announced once each after the transaction that made them commits.

A service that makes a fact (a move, a turn, a game, a round, a seat handed to a bot, a
vacation, a notification) sends its signal through
:func:`~common.signals.send_after_commit` (a fact of a game through
:func:`send_about_game`, which adds the game's ids); what follows from
the fact - pushes to the pages, the clock's and the bots' tasks, the notifications, and
later the leagues' and moderation's bookkeeping - subscribes in its app's
``AppConfig.ready()`` (the games app's own in :mod:`games.receivers`). A service
therefore never names its consequences, and an app lower down never imports one above
it.

Why after commit, ``send_robust``, and ids rather than rows as the facts' arguments:
:mod:`common.signals`, whose :func:`~common.signals.send_after_commit` every app uses.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

from common.signals import send_after_commit
from games.models import Game

move_committed = Signal()
"""A move was applied to a game and logged (sender: ``Game``).

``game_id``, ``table_id``; ``version``: the game's version after the move (its number in
the move log); ``seat``: the seat that moved; ``turn_number``: the turn it was made in;
``by``: who made it (a :class:`~games.models.Move.By` value: user, bot, timeout);
``page``: the id of the game page a member made it from (its own answer shows it, so
that page's socket is not sent it again), empty when no page made it."""

turn_ended = Signal()
"""A turn of a game is over: a move finished it, or finished the game (sender: ``Game``).

``game_id``, ``table_id``; ``turn_number``: the turn that ended; ``seat``: whose turn it
was; ``ended_at``: the moment of the move that ended it; ``clock``: the table's kind of
clock (``Table.Clock``: only correspondence turns have notifications to settle);
``member_id``: the member who played the turn (``None``: a bot's seat)."""

turn_started = Signal()
"""A turn began: after the previous one ended, or as the first of a new game
(sender: ``Game``). Not sent when a game ends.

``game_id``, ``table_id``, ``turn_number``; ``seat``: whose turn it is; ``deadline`` and
``reminder_at``: its clock as it started (datetimes, or ``None``); ``clock``: the table's
kind of clock (``Table.Clock``: only a correspondence player is told); who plays it, as
the move that started it loaded the seat: ``kind`` (a ``Seat.Kind`` value: a bot's turn
is queued for the bot), ``member_id`` (the member, ``None`` for a bot) and
``wants_proof`` (whether the bots' queue is to prove that the turn has a play:
:func:`games.selectors.forced.proof_wanted`)."""

turn_reclocked = Signal()
"""The clock of the turn in progress changed without a move: a vacation of its player
began, ended or was called off (sender: ``Game``).

``game_id``, ``turn_number``; ``deadline`` and ``reminder_at``: its clock now."""

game_started = Signal()
"""A game of a table's round was dealt (sender: ``Game``); its first turn's
:data:`turn_started` follows.

``game_id``, ``table_id``; ``number``: the game's number in the round, from 1."""

game_dealing = Signal()
"""A game of a table's round is being dealt, sent *inside* the deal's transaction (not
after its commit), before its first turn is announced (sender: ``Game``): the seats
that forfeit every game of the round forfeit this one here
(:func:`games.services.abandonment.forfeit_at_the_deal`). The round's service cannot
call the move's service itself: a move ends a game through the round, so the two would
import each other.

``game`` and ``table``: the rows, locked by the deal; ``seats``: the table's seats in
order, read by the deal (the forfeits move from them: no read of their own)."""

game_finished = Signal()
"""A game ended: someone went out, the pool ran dry, or every other player left
(sender: ``Game``).

``game_id``, ``table_id``, ``number``; ``winner_seat``: the winning seat, or ``None``."""

round_finished = Signal()
"""The last game of a table's round ended; the table is finished (sender: ``Table``).

``table_id``; ``winner_seat``: the seat that won the round, or ``None``."""

results_superseded = Signal()
"""A ruling (a moderator's, a league's adjudication) replaced result rows of a finished
game (sender: ``Result``); the round's totals, standings and winner, read from the
current rows, follow from it. The game's moves and state are unchanged.

``game_id``, ``table_id``; ``seats``: the seats whose rows were replaced; ``source``:
the new rows' source (a :class:`~games.models.Result.Source` value)."""

seat_handed_to_bot = Signal()
"""A bot took a member's seat for the rest of the round (sender: ``Seat``): the player
forfeited by running out of time too often, or an authority above the table (a league
whose player withdrew) handed the seat over.

``game_id``: the game in play when it happened, ``table_id``, ``seat``; ``user_id``: the
member who left the seat."""

seat_given_back = Signal()
"""The member a bot had replaced sits in their seat again (sender: ``Seat``): an
authority above the table (a suspension undone) gave it back while the round runs.

``game_id``: the game in play, ``table_id``, ``seat``; ``user_id``: the member."""

vacation_changed = Signal()
"""A member's vacations changed: one was planned, ended early or called off
(sender: ``Vacation``). Their correspondence clocks must be computed again.

``user_id``."""

opponent_sought = Signal()
"""A member asked to play now and sat down at a new table to wait for an opponent
(sender: ``Table``): if nobody comes in time, a bot takes the seat.

``table_id``."""

draft_saved = Signal()
"""A player saved the turn they are building (sender: ``Game``): the table is unchanged,
but the others may see that the seat is at work (never what it builds).

``game_id``, ``seat``; ``page``: the id of the game page the edit was sent from (its
answer shows the draft), empty when none."""


chat_changed = Signal()
"""A table's chat changed: a message was said, or hidden or shown again by a moderator
(sender: ``ChatMessage``). Pages showing the chat render it again for their own user.

``table_id``, ``message_id``, ``user_id`` (who said it, or hid it)."""


def send_about_game(signal: Signal, game: Game, sender: type = Game, **facts: Any) -> None:
    """:func:`send_after_commit` for a fact of ``game``, with the ids that every such fact
    carries: ``game_id`` and ``table_id``, then its own ``facts``.

    The sender is ``Game`` unless the fact is about another row of the game (its
    ``Result`` rows, a ``Seat``).
    """
    send_after_commit(signal, sender, game_id=game.pk, table_id=game.table_id, **facts)
