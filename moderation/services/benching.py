"""A suspended member's running games: each seat in the suspension's scope is handled by
its table's rule, and the other players are told.

A league fixture follows its season's house rule (``Season.on_suspension``): a bot takes
the seat for the rest of the fixture (:func:`games.services.abandonment.hand_seat_to_bot`,
as a table's forfeit rule does), or the member forfeits the game in play by the engine's
forfeit (:func:`games.services.abandonment.forfeit_seat`, scored by
:func:`engine.round.forfeit`) and each later game of the fixture as it starts, while the
suspension holds. A table of no club always gets a bot: nobody chose otherwise, and the
others play on against it. A site suspension reaches every running table; a club's, only
that club's fixtures.

:func:`bench` runs when the suspension begins, inside its ruling's transaction;
:func:`bench_at_game_start` when a game of a round is dealt (a matchday opening a
suspended member's fixture, the next game of a round under the forfeit rule), after
that commit. Each seat handled is a :class:`~moderation.models.BenchedSeat`.

A seat at a table still waiting for players (nothing dealt yet) is taken at once
(:func:`unseat_waiting`): the seat is open again for someone else, and the table's
creator is told. It is not given back when the suspension is undone: the table may
have filled since, and the member may simply sit down again.

Undoing the suspension (:func:`give_back`) gives each bot's seat back to the member while
its round runs: the bot's moves stand, and the member plays on from where the bot
left the game. A forfeited game stays forfeited (the game went on without them; a
ruling on that game may change its result).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse

from games.models import Game, Seat, Table
from games.services import GameFinished, InvalidMove, TableError
from games.services.abandonment import forfeit_seat, give_seat_back, hand_seat_to_bot
from games.services.lobby import free_waiting_seat
from leagues.models import Fixture, OnSuspension
from moderation.models import BenchedSeat, Suspension
from moderation.notices import ModerationNotice
from moderation.policies import suspension_at
from notifications.services import notices


def rule_for(table_id: int) -> str:
    """What becomes of a suspended member's seat at ``table_id``: its season's rule, or a
    bot at a table of no league."""
    rule = (
        Fixture.objects.filter(table_id=table_id)
        .values_list("matchday__season__on_suspension", flat=True)
        .first()
    )
    return rule or OnSuspension.BOT


def seats_in_scope(suspension: Suspension) -> list[Seat]:
    """The member's seats at running tables that ``suspension`` keeps them from."""
    seats = Seat.objects.filter(
        user_id=suspension.user_id, kind=Seat.Kind.PLAYER, table__status=Table.Status.PLAYING
    )
    return list(_in_scope(suspension, seats).order_by("table_id"))


def _in_scope(suspension: Suspension, seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """A site suspension reaches every table; a club's, only that club's fixtures."""
    if suspension.club_id is None:
        return seats
    return seats.filter(
        table_id__in=Fixture.objects.filter(
            division__season__league__club_id=suspension.club_id
        ).values("table_id")
    )


def bench(suspension: Suspension, now: datetime) -> list[int]:
    """Handle each of the suspended member's running seats by its table's rule; returns
    the :class:`BenchedSeat` ids. Runs in the suspension's transaction: undone with it,
    and the notices wait for its commit."""
    benched = []
    for seat in seats_in_scope(suspension):
        row = _handle(suspension, seat.table_id, seat.number, _game_in_play(seat.table_id), now)
        if row is not None:
            benched.append(row.pk)
    return benched


def unseat_waiting(suspension: Suspension) -> list[int]:
    """Take the suspended member's seats at tables of the suspension's scope that are
    still waiting for players; returns those tables' ids. (A fixture's table is dealt as
    it is set up, so only a site suspension finds any in practice.)"""
    seats = Seat.objects.filter(
        user_id=suspension.user_id, kind=Seat.Kind.PLAYER, table__status=Table.Status.OPEN
    )
    freed = []
    for table_id in _in_scope(suspension, seats).values_list("table_id", flat=True):
        if free_waiting_seat(table_id, suspension.user_id):
            freed.append(table_id)
            _tell_the_creator(suspension, table_id)
    return freed


def _tell_the_creator(suspension: Suspension, table_id: int) -> None:
    creator = Table.objects.filter(pk=table_id).values_list("creator_id", flat=True).first()
    if creator is None or creator == suspension.user_id:
        return
    notices.create(
        creator,
        ModerationNotice.MODERATION_OUTCOME,
        f"{suspension.user} may not play for now: their seat at your table is open again.",
        reverse("games:table", args=[table_id]),
        key=f"unseated:{suspension.pk}:{table_id}",
    )


def bench_at_game_start(game_id: int, table_id: int, now: datetime) -> list[int]:
    """A game of ``table_id`` was dealt: each member seated there whom a suspension
    keeps from the table is handled by the table's rule (nearly always nobody is)."""
    benched = []
    seats = Seat.objects.filter(table_id=table_id, kind=Seat.Kind.PLAYER).select_related(
        "user", "table"
    )
    for seat in seats:
        assert seat.user is not None  # a player's seat has its member
        suspension = suspension_at(seat.user, seat.table, now)
        if suspension is None:
            continue
        with transaction.atomic():
            row = _handle(suspension, table_id, seat.number, game_id, now)
        if row is not None:
            benched.append(row.pk)
    return benched


def give_back(suspension_ids: Iterable[int], now: datetime) -> list[int]:
    """The suspensions are undone: each seat a bot took under them goes back to its
    member while the round runs. Returns the :class:`BenchedSeat` ids given back."""
    rows = BenchedSeat.objects.filter(
        suspension_id__in=list(suspension_ids), how=BenchedSeat.How.BOT, returned_at=None
    ).select_related("suspension__user")
    returned = []
    for row in rows:
        member = row.suspension.user
        if give_seat_back(row.table_id, row.seat, member.pk):
            row.returned_at = now
            row.save(update_fields=["returned_at"])
            returned.append(row.pk)
            _tell_the_others(row, f"{member} has their seat back: they play on from here.")
    return returned


def _game_in_play(table_id: int) -> int | None:
    return (
        Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
        .values_list("pk", flat=True)
        .first()
    )


def _handle(
    suspension: Suspension, table_id: int, seat: int, game_id: int | None, now: datetime
) -> BenchedSeat | None:
    member = suspension.user
    if rule_for(table_id) == OnSuspension.FORFEIT:
        if game_id is None:
            return None  # between games: the next one is forfeited as it starts
        try:
            forfeit_seat(game_id, seat)
        except (GameFinished, InvalidMove):
            return None  # over already, or they had left it
        how = BenchedSeat.How.FORFEIT
        told = f"{member} may not play for now: they forfeit this game, which goes on without them."
    else:
        try:
            if not hand_seat_to_bot(table_id, seat):
                return None
        except TableError:
            return None
        how = BenchedSeat.How.BOT
        told = f"{member} may not play for now: a bot plays their seat for the rest of the round."
    row = BenchedSeat.objects.create(
        suspension=suspension, table_id=table_id, seat=seat, game_id=game_id, how=how, at=now
    )
    _tell_the_others(row, told)
    return row


def _tell_the_others(row: BenchedSeat, text: str) -> None:
    """The other members seated at the table hear of it (never why: the suspension is
    between the member and the moderators)."""
    others = (
        Seat.objects.filter(table_id=row.table_id, kind=Seat.Kind.PLAYER)
        .exclude(user_id=row.suspension.user_id)
        .values_list("user_id", flat=True)
    )
    link = reverse("games:table", args=[row.table_id])
    for user_id in others:
        notices.create(
            user_id,
            ModerationNotice.MODERATION_OUTCOME,
            text,
            link,
            key=f"benched-seat:{row.pk}:{'back' if row.returned_at else 'out'}",
        )
