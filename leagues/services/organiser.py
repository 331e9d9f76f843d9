"""Organisers' tools: a later deadline, a fixture moved, a substitute seated (a score
adjusted: :mod:`leagues.services.adjustments`). Each takes the organiser and their
reason, which go into the history of the rows it changes (pghistory's context), and each
is one transaction with the rows it changes locked.

Who may use them is the views' question (the club's organisers); these check that the
change makes sense, and that the organiser does not decide a fixture they play in
(:mod:`leagues.conflicts`).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.models import Seat, Table
from games.services.lobby import replace_seat_player
from leagues.conf import ensure_may_take_part
from leagues.conflicts import (
    ANOTHER_ORGANISER,
    extension_conflicts,
    fixture_conflicts,
    refuse_conflicts,
    substitution_conflicts,
)
from leagues.errors import Conflict, LeaguesError, NotAllowed
from leagues.models import Entry, Fixture, FixtureSeat, Matchday, Membership, Season
from leagues.notices import LeagueNotice
from leagues.services.deadlines import (
    UNFINISHED,
    audited,
    deadline_text,
    matchday_ends,
    notify_players,
    when,
)
from leagues.services.locks import lock_fixture, lock_matchday, lock_season
from leagues.services.season_end import ordinal
from leagues.services.seasons import season_path
from leagues.signals import announce, fixtures_changed, player_substituted
from notifications.lines import Line
from notifications.services import notices


def _reason(reason: str) -> str:
    if not reason.strip():
        raise LeaguesError("Give the reason: it is kept in the season's history.")
    return reason.strip()


def extend_deadline(matchday: Matchday, deadline: datetime, by: User, reason: str) -> Matchday:
    """Move an open matchday's deadline later; its players with unfinished fixtures are
    told, and reminded again before the new deadline."""
    why = _reason(reason)
    with transaction.atomic(), audited(why, by):
        _, locked = lock_matchday(matchday.pk)
        if locked.status != Matchday.Status.OPEN:
            raise Conflict("Only an open matchday's deadline can be extended.")
        if deadline <= locked.deadline:
            raise LeaguesError(
                f"The new deadline must be later than the present one, {when(locked.deadline)}."
            )
        # The new deadline gives the fixtures without their own more time: an organiser
        # who plays one would grant it to themself.
        refuse_conflicts(extension_conflicts(by, locked), ANOTHER_ORGANISER)
        locked.deadline, locked.reminded_at = deadline, None
        locked.save(update_fields=["deadline", "reminded_at"])
        fixtures = locked.fixtures.filter(
            status=Fixture.Status.PLAYING, deadline=None, table__status=Table.Status.PLAYING
        ).select_related("table", "matchday__season__league")
        for fixture in fixtures:
            notify_players(
                fixture,
                _extended_text(fixture, deadline),
                deadline,
                key=f"league-extended:fixture-{fixture.pk}",
            )
        announce(
            fixtures_changed,
            Fixture,
            locked.season_id,
            matchday_id=locked.pk,
            fixture_ids=list(locked.fixtures.filter(deadline=None).values_list("pk", flat=True)),
        )
    return locked


def _extended_text(fixture: Fixture, deadline: datetime) -> Line:
    return deadline_text(fixture, deadline) + " The deadline was extended."


def _rescheduled_text(fixture: Fixture, deadline: datetime) -> Line:
    assert fixture.table is not None
    return matchday_ends(fixture, deadline) + (
        f" for your fixture at table {fixture.table.pk}: it was rescheduled."
    )


def overlap_warning(matchday: Matchday, deadline: datetime) -> str:
    """A sentence when ``deadline`` comes after the next matchday of the season opens:
    its players would play the two at once; ``""`` when it does not."""
    following = matchday.season.matchdays.filter(number=matchday.number + 1).first()
    if following is None or deadline <= following.opens_at:
        return ""
    opens = "opened" if following.status != Matchday.Status.SCHEDULED else "opens"
    return (
        f"Matchday {following.number} {opens} {when(following.opens_at)}, before this "
        f"deadline: until then its players play matchdays {matchday.number} and "
        f"{following.number} at once."
    )


def reschedule_fixture(fixture: Fixture, deadline: datetime, by: User, reason: str) -> Fixture:
    """Give one unfinished fixture a deadline of its own (later or earlier than its
    matchday's, but in the future); its players are told."""
    why = _reason(reason)
    if deadline <= timezone.now():
        raise LeaguesError("The new deadline must be in the future.")
    with transaction.atomic(), audited(why, by):
        held = lock_fixture(fixture.pk)
        matchday, locked = held.matchday, held.fixture
        if matchday.status == Matchday.Status.CLOSED or locked.status not in UNFINISHED:
            raise Conflict("Only an unfinished fixture of a matchday not yet closed can be moved.")
        refuse_conflicts(fixture_conflicts(by, locked))
        if deadline <= matchday.opens_at:
            raise LeaguesError("The new deadline must come after the matchday opens.")
        locked.deadline = deadline
        locked.note = f"Rescheduled to {when(deadline)}: {why}"
        locked.save(update_fields=["deadline", "note"])
        if locked.table is not None and locked.table.status == Table.Status.PLAYING:
            notify_players(
                locked,
                _rescheduled_text(locked, deadline),
                deadline,
                key=f"league-rescheduled:fixture-{locked.pk}",
            )
        announce(
            fixtures_changed,
            Fixture,
            matchday.season_id,
            matchday_id=matchday.pk,
            fixture_ids=[locked.pk],
        )
    return locked


def replace_player(entry: Entry, substitute: User, by: User, reason: str) -> Entry:
    """Seat ``substitute`` for ``entry`` from now on: its fixtures still to be created
    seat them (fixtures seat entries, and an entry's player is its substitute), and the
    seats of its fixtures being played are handed over. Results already played stay the
    entry's, as every result does (standings count seats through their entries)."""
    why = _reason(reason)
    _check_organiser_free(entry, substitute, by)
    with transaction.atomic(), audited(why, by):
        # The season's lock serialises substitutions in it: two organisers seating the
        # same member for two entries at once would both find them free.
        season = lock_season(entry.season_id)
        assert season is not None  # an entry's season is never deleted without it
        locked = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("user", "substitute")
            .get(pk=entry.pk)
        )
        _check_substitute(season, locked, substitute)
        ensure_may_take_part(substitute, season.league.club_id, "substitute")
        previous = locked.player
        locked.substitute = substitute
        locked.save(update_fields=["substitute"])
        for seat in _seats_in_play(locked, previous):
            lock_fixture(seat.fixture_id)  # its matchday and fixture before its table
            assert seat.fixture.table_id is not None
            replace_seat_player(seat.fixture.table_id, seat.number, substitute)
        announce(
            player_substituted,
            Entry,
            season.pk,
            entry_id=locked.pk,
            substitute_id=substitute.pk,
            previous_id=previous.pk,
        )
    return locked


def tell_substitute(entry_id: int, substitute_id: int) -> None:
    """The substitute hears whom they play for, with a link to the season (after the
    substitution's commit: :data:`leagues.signals.player_substituted`); once."""
    entry = (
        Entry.objects.select_related("user", "season__league__club")
        .filter(pk=entry_id, substitute_id=substitute_id)
        .first()
    )
    if entry is None:
        return  # replaced again meanwhile: the later substitute is told
    with transaction.atomic():
        notices.create(
            substitute_id,
            LeagueNotice.LEAGUE_SEASON,
            f"You play for {entry.user} in {entry.season} from now on.",
            season_path(entry.season),
            subject=entry.season,
            key=f"league-substitute:{entry.pk}:{substitute_id}",
        )


def tell_substitutes_of_close(season_id: int) -> None:
    """A season closed (after its commit: :data:`leagues.signals.season_closed`): each
    substitute playing an entry at the close hears where the member they played for
    finished, as the member does, and whether the organisers gave them the place in the
    next season; once."""
    entries = (
        Entry.objects.filter(season_id=season_id, substitute__isnull=False)
        .select_related("user", "division", "season__league__club")
        .order_by("pk")
    )
    following = Season.objects.filter(previous_id=season_id).first()
    registered = (
        set() if following is None else set(following.entries.values_list("user_id", flat=True))
    )
    with transaction.atomic():
        for entry in entries:
            assert entry.substitute_id is not None
            season = entry.season
            if entry.final_rank is None:
                how = f"{entry.user}, whom you played for, had withdrawn: no place."
            else:
                where = f" in {entry.division.name}" if entry.division else ""
                how = (
                    f"{entry.user}, whom you played for, finished "
                    f"{ordinal(entry.final_rank)}{where}."
                )
                if following is not None and entry.substitute_id in registered:
                    how += f" You are registered for season {following.number} in their place."
            notices.create(
                entry.substitute_id,
                LeagueNotice.LEAGUE_SEASON,
                f"{season} is over: {how}",
                season_path(season),
                subject=season,
                key=f"season-end-substitute:{season.pk}:{entry.pk}",
            )


def _check_organiser_free(entry: Entry, substitute: User, by: User) -> None:
    """An organiser seats nobody for an entry whose unfinished fixtures they play in,
    and does not seat themself in a game in play (they would read its rack)."""
    fixtures = list(
        Fixture.objects.filter(
            seats__entry=entry,
            status=Fixture.Status.PLAYING,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        ).order_by("pk")
    )
    if substitute.pk == by.pk and fixtures:
        raise NotAllowed(
            f"You would take a seat in a game in play at table {fixtures[0].table_id}: "
            "another organiser seats you."
        )
    # Who plays the entry from now on plays against the others of its fixtures to come.
    refuse_conflicts(substitution_conflicts(by, entry), ANOTHER_ORGANISER)


def _check_substitute(season: Season, entry: Entry, substitute: User) -> None:
    if season.status == Season.Status.FINISHED:
        raise Conflict("The season is over.")
    if entry.status != Entry.Status.REGISTERED:
        raise Conflict("Only a registered player can be replaced.")
    if substitute.pk == entry.player.pk:
        raise LeaguesError(f"{substitute} plays this entry already.")
    if not Membership.objects.filter(club=season.league.club, user=substitute).exists():
        raise LeaguesError(f"{substitute} is not a member of the club.")
    in_season = Entry.objects.filter(season=season).filter(
        Q(user=substitute) | Q(substitute=substitute)
    )
    if in_season.exists():
        raise LeaguesError(f"{substitute} plays in this season already.")


def _seats_in_play(entry: Entry, previous: User) -> list[FixtureSeat]:
    """The entry's seats at fixture tables still being played and still the player's
    (a bot that took over an abandoned seat keeps it)."""
    seats = list(
        FixtureSeat.objects.filter(
            entry=entry,
            fixture__status=Fixture.Status.PLAYING,
            fixture__table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .select_related("fixture")
        .order_by("pk")
    )
    held = {
        (table_id, number)
        for table_id, number in Seat.objects.filter(
            table_id__in=[seat.fixture.table_id for seat in seats], user=previous
        ).values_list("table_id", "number")
    }
    return [seat for seat in seats if (seat.fixture.table_id, seat.number) in held]
