"""Row locks and the checks made under them: the leaf every writing service stands on.

Writers to one game queue up on its row (``SELECT ... FOR UPDATE``). When a writer needs
more rows than the game's, it locks them in one order - the game, then its table, then
a seat - so two writers never wait on each other in a cycle. A member's own row and
their vacations are locked by the vacation and chat services alone, never while a game
is held (a move that ends a vacation updates it under the game's lock and locks nothing
more).

This module imports only the models, the errors, the settings and the engine's value
types: any service may use it, and it uses none, so the services need no imports inside
functions to reach a lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from engine.state import GameState
from games.conf import chat_policy, play_policy
from games.errors import (
    Barred,
    GameFinished,
    GameHeld,
    NotFound,
    NotYourTurn,
    StaleVersion,
    TimeUp,
)
from games.models import Game, Seat, Table, Vacation


@dataclass(frozen=True)
class LockedTurn:
    """A player's turn in a game locked (or read, for the solver) for a draft or for
    help: the game, its state and the seat whose turn it is. A move itself takes the
    loaded game and its seats (:mod:`games.services.move`)."""

    game: Game
    state: GameState
    seat: int


def lock_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends.

    ``SELECT ... FOR UPDATE`` makes writers to one game queue up: the second of two
    simultaneous moves waits here, then reads the version the first one committed and
    is refused as stale instead of applying a move to a state that no longer exists.
    Checks made before taking the lock prove nothing, so callers lock first.
    """
    try:
        return _locking().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound("There is no such game.") from None


def lock_game_if_free(game_id: int, wait: bool = True) -> Game | None:
    """The game row locked, or ``None`` if it is gone - or, with ``wait=False``, if
    another writer holds it: a sweep passes such a game by rather than queue behind a
    move that is about to end the turn anyway (the next sweep comes back if not)."""
    return _locking(skip_locked=not wait).filter(pk=game_id).first()


def lock_table(table_id: int) -> Table:
    """A table row on its own, locked (the lobby: no game of it is played yet, so
    nothing is locked before it)."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("There is no such table.") from None


def lock_table_of(game: Game) -> Table:
    """The table of a locked game, locked too (after the game: the order every writer
    follows). ``game.table`` is replaced by the locked row, so what the caller saves
    through either is what it read under the lock."""
    table = Table.objects.select_for_update().get(pk=game.table_id)
    game.table = table
    return table


def lock_seat(game: Game, number: int) -> Seat | None:
    """Seat ``number`` of a locked game's table, locked after the game (and its table,
    where the caller holds it)."""
    return Seat.objects.select_for_update().filter(table_id=game.table_id, number=number).first()


def lock_seat_of_table(table_id: int, number: int) -> tuple[Game | None, Table, Seat | None]:
    """For a write to one seat of a table at any moment: the game in play (``None``
    between rounds), the table and seat ``number`` (``None``: no such seat), locked in
    the order every writer follows. Holding the game in play makes the write wait for a
    move under way, so a move is made wholly before it or after it.

    A game that ends between finding it and locking it leaves the round's next one in
    play; the seat rows are the same for both, so the write stands either way.
    """
    in_play = (
        Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
        .values_list("pk", flat=True)
        .first()
    )
    game = None if in_play is None else lock_game(in_play)
    table = lock_table_of(game) if game is not None else lock_table(table_id)
    seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
    return game, table, seat


def lock_member(user_id: int) -> None:
    """A member's row, locked: one member's vacation requests are served one at a time,
    so two of them cannot both fit in what is left of the allowance (and their chat
    messages, so that two cannot both slip under a rate limit)."""
    User.objects.select_for_update().filter(pk=user_id).first()


def lock_vacation_in_progress(user_id: int, now: datetime) -> Vacation | None:
    """The member's vacation in progress at ``now``, locked; ``None`` if there is none."""
    return (
        Vacation.objects.select_for_update()
        .filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
        .first()
    )


def _locking(skip_locked: bool = False) -> QuerySet[Game]:
    # The table comes along (its clock settings are read on every turn) but only the
    # game row is locked: writers to other games of the table need not wait.
    return Game.objects.select_related("table").select_for_update(
        skip_locked=skip_locked, of=("self",)
    )


def ensure_may_play(user: User, table: Table) -> None:
    """:class:`Barred` if ``GAMES_PLAY_POLICY`` keeps ``user`` from sitting or moving at
    ``table`` (a suspension: moderation answers, games only asks)."""
    policy = play_policy()
    refusal = policy(user, table) if policy is not None else None
    if refusal:
        raise Barred(refusal)


def ensure_may_chat(user: User, table: Table) -> None:
    """:class:`Barred` if ``GAMES_CHAT_POLICY`` keeps ``user`` from chatting at ``table``."""
    policy = chat_policy()
    refusal = policy(user, table) if policy is not None else None
    if refusal:
        raise Barred(refusal)


def ensure_in_play(game: Game) -> None:
    """:class:`GameFinished` or :class:`GameHeld`: nobody moves in ``game`` now."""
    if game.is_over:
        raise GameFinished("This game is over.")
    if game.held_at is not None:
        raise GameHeld(
            "A moderator has paused this game while a case about it is open: the clocks "
            "are stopped and nobody moves until it resumes."
        )


def ensure_may_move(game: Game, seat: int, user: User, version: int) -> None:
    """The checks of a player's move made under the lock of ``game`` (in play: see
    :func:`ensure_in_play`), ``user`` playing ``seat`` and having seen ``version``."""
    ensure_may_play(user, game.table)
    # The version comes before the turn: a move sent twice, or from a page that missed
    # a move, is told to reload rather than that it is somebody else's turn.
    if version != game.version:
        raise StaleVersion(
            "The game has changed since your page was loaded (or this move was already "
            "sent). Nothing was done: look at the table again."
        )
    if seat != game.current_seat:
        raise NotYourTurn("It is not your turn.")
    # A clock is only fair if it is exact: once the deadline has passed the turn belongs
    # to the timeout (which may simply not have run yet), so a late move is refused
    # rather than slipped in ahead of it. At the deadline itself both may still try;
    # the row lock lets exactly one of them end the turn.
    if game.turn_deadline is not None and timezone.now() > game.turn_deadline:
        raise TimeUp(
            "Your time for this turn ran out, so this move was not played: the turn ends "
            "as the rules say for a turn out of time."
        )
