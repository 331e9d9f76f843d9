"""A player who leaves a season: their entry is withdrawn, their fixtures go on.

The games they finished stay as played. What becomes of the rest is the season's rule
(``Season.on_withdrawal``):

* ``BOT``: a bot takes their seat at every fixture table that is open, at once and for
  the rest of its round (:func:`games.services.hand_seat_to_bot`), and the tables of
  matchdays still to open seat a bot in their place (:func:`seat_plan_for`, which
  opening a matchday asks for each seat).
* ``FORFEIT``: the fixtures are played without them, and they score as forfeiting. At
  each open fixture table they forfeit the game in play and every later game of its
  round as it is dealt (:func:`games.services.forfeit_for_the_round`, rulings); the
  tables of matchdays still to open keep their seat for them, forfeiting every game at
  its deal (:func:`seat_plan_for`). The forfeit is part of the deal's transaction: no
  turn of theirs is ever announced or clocked, and nobody waits for them, whatever
  happens after the commit. Their seat stays theirs, so that each forfeit counts for
  their entry as the standings read it; they are not told of those matchdays.

Either way the seat's results count for the entry, as any result of the fixture's seat
does; the standings read them.
"""

from __future__ import annotations

import pghistory
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.services import SeatPlan, forfeit_for_the_round, hand_seat_to_bot
from leagues.conflicts import ANOTHER_ORGANISER, refuse_conflicts, withdrawal_conflicts
from leagues.errors import Conflict, LeaguesError, NotAllowed
from leagues.models import WITHDRAWN_SEAT_BOT_LEVEL, Entry, FixtureSeat, OnWithdrawal, Season
from leagues.notices import LeagueNotice
from leagues.services.deadlines import UNFINISHED
from leagues.services.locks import lock_fixture, lock_season
from leagues.signals import announce, entry_withdrawn
from notifications.services import notices

PLAYER_WITHDREW = "The player withdrew."


def withdraw(entry: Entry, by: User, reason: str = "") -> Entry:
    """Withdraw ``entry`` from its season, by its player or (with a ``reason``) by an
    organiser; returns the entry, withdrawn. The caller has checked that ``by`` may.

    Raises :class:`LeaguesError` for an entry withdrawn already or declined, a
    season that is over, an organiser who gives no reason, or one who plays in one of
    the entry's unfinished fixtures (:func:`leagues.conflicts.withdrawal_conflicts`).
    """
    reason = reason.strip()
    if by.pk != entry.user_id and not reason:
        raise LeaguesError("Say why you withdraw this player.")
    if by.pk == entry.user_id:
        # A player's own reason is private (their form says so): the history shows it to
        # the club's organisers only (leagues.selectors.history), everyone else reads
        # that they withdrew.
        context = pghistory.context(
            user=by.pk, reason=PLAYER_WITHDREW, **({"private_reason": reason} if reason else {})
        )
    else:
        context = pghistory.context(user=by.pk, reason=reason)
    with context, transaction.atomic():
        # The season first (the close's order, leagues.services.locks): a close waits for
        # the withdrawal, or the withdrawal finds the season over. Then the entry: a second
        # withdrawal waits here and is then told it is too late, and a matchday opening
        # meanwhile reads the final status.
        lock_season(entry.season_id)
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("season__league", "user", "substitute")
            .get(pk=entry.pk)
        )
        _check_may_withdraw(entry)
        if by.pk == entry.user_id and entry.substitute_id is not None:
            # Their substitute plays the fixtures to come: the organisers decide.
            raise NotAllowed(f"{entry.substitute} plays for you now: ask an organiser.")
        # Under either rule the others of the entry's fixtures play on against a bot or
        # win by forfeit: an organiser who is one of them leaves it to another.
        refuse_conflicts(withdrawal_conflicts(by, entry), ANOTHER_ORGANISER)
        entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        # Read before the rule applies: a forfeit may end a round, and finish its fixture
        # before the others are told of the withdrawal.
        unfinished = list(
            entry.fixture_seats.filter(fixture__status__in=UNFINISHED).values_list(
                "fixture_id", flat=True
            )
        )
        for seat in _open_seats(entry):
            lock_fixture(seat.fixture_id)  # its matchday and fixture before its game
            _apply_rule(entry.season, seat)
        announce(
            entry_withdrawn,
            Entry,
            entry.season_id,
            entry_id=entry.pk,
            user_id=entry.user_id,
            by_id=by.pk,
            fixture_ids=unfinished,
        )
    return entry


def seat_plan_for(entry: Entry) -> SeatPlan:
    """How the entry's seat starts out at a fixture table being created: a bot for a
    player who withdrew under the ``BOT`` rule; under ``FORFEIT`` their seat, which
    forfeits every game as it is dealt; else their player. A bot or a substitute plays
    for the entry's member, and the game names them so ("Bot (normal) for Frank", "Hank
    for Frank"), as the standings' row of the entry does."""
    plays_for = entry.user if entry.substitute else None
    if entry.status == Entry.Status.WITHDRAWN:
        if entry.season.on_withdrawal == OnWithdrawal.BOT:
            return SeatPlan.bot(WITHDRAWN_SEAT_BOT_LEVEL, plays_for=entry.user)
        return SeatPlan.forfeiting(entry.player, plays_for=plays_for)
    return SeatPlan.taken_by(entry.player, plays_for=plays_for)


def _check_may_withdraw(entry: Entry) -> None:
    if entry.season.status == Season.Status.FINISHED:
        raise Conflict("This season is over: nobody can withdraw from it.")
    if entry.status == Entry.Status.WITHDRAWN:
        raise Conflict("This player has withdrawn from the season already.")
    if entry.status == Entry.Status.DECLINED:
        raise Conflict("This registration was declined: there is nothing to leave.")


def _open_seats(entry: Entry) -> list[FixtureSeat]:
    """The entry's seats at fixture tables whose round may still be in play."""
    return list(
        FixtureSeat.objects.filter(
            entry=entry, fixture__status__in=UNFINISHED, fixture__table__isnull=False
        ).select_related("fixture")
    )


def _apply_rule(season: Season, seat: FixtureSeat) -> None:
    table_id = seat.fixture.table_id
    assert table_id is not None  # _open_seats keeps fixtures with a table
    if season.on_withdrawal == OnWithdrawal.BOT:
        hand_seat_to_bot(table_id, seat.number)
    else:
        forfeit_for_the_round(table_id, seat.number)


def tell_the_others(entry_id: int, fixture_ids: list[int]) -> None:
    """Every player who shared an unfinished fixture (``fixture_ids``) with the withdrawn
    entry hears of it once (after the withdrawal's commit:
    :data:`leagues.signals.entry_withdrawn`)."""
    entry = Entry.objects.select_related("season__league", "user").filter(pk=entry_id).first()
    if entry is None or entry.status != Entry.Status.WITHDRAWN:
        return
    season = entry.season
    others = (
        FixtureSeat.objects.filter(fixture_id__in=fixture_ids)
        .exclude(entry=entry)
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .select_related("entry__user", "entry__substitute")
    )
    players = {seat.entry.player.pk for seat in others}
    if season.on_withdrawal == OnWithdrawal.BOT:
        what = "a bot plays their seat at your fixtures"
    else:
        what = "your fixtures go on without them (they forfeit their games)"
    with transaction.atomic():
        for user_id in sorted(players):
            notices.create(
                user_id,
                LeagueNotice.LEAGUE_SEASON,
                f"{entry.user} withdrew from {season}: {what}.",
                reverse("leagues:player"),
                subject=entry,
                key=f"league-withdrawal-{entry.pk}",
            )
