"""A member's league life as their own page reads it: the seasons they play (or played),
each with its fixtures, deadlines and vacation days used."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from accounts.models import User
from games.selectors.players import tables_players
from leagues.models import Entry, Fixture, FixtureSeat, Season
from leagues.selectors.seasons import fixture_names, plays_in
from leagues.selectors.vacations import SeasonVacation, season_vacations

SEASONS_SHOWN = 50
"""The member's most recent seasons the page lists (their page stays small)."""


@dataclass(frozen=True)
class PlayerFixture:
    """One fixture of the member: when, against whom, where it is played."""

    fixture: Fixture
    matchday: int
    opens_at: datetime
    deadline: datetime
    opponents: tuple[str, ...]
    table_id: int | None

    @property
    def is_finished(self) -> bool:
        return self.fixture.status in (Fixture.Status.FINISHED, Fixture.Status.SETTLED)


@dataclass(frozen=True)
class PlayerSeason:
    """A season the member entered, with their fixtures and vacation days there."""

    entry: Entry
    fixtures: tuple[PlayerFixture, ...]
    vacation: SeasonVacation
    byes: tuple[int, ...] = ()
    """The matchdays where the member's division plays and they have no fixture."""
    plays_it: bool = True
    """The member plays the entry's fixtures: its own member, unless a substitute took
    over, or its substitute."""

    @property
    def season(self) -> Season:
        return self.entry.season

    @property
    def is_playing(self) -> bool:
        """Under way, and the member still plays it (not withdrawn, nor replaced)."""
        running = self.season.status == Season.Status.RUNNING
        return running and self.entry.status == Entry.Status.REGISTERED and self.plays_it

    @property
    def is_replaced(self) -> bool:
        """A substitute plays the member's own entry now: its fixtures to come are theirs."""
        return not self.plays_it and self.season.status == Season.Status.RUNNING

    @property
    def is_given_up(self) -> bool:
        """The member withdrew from a season under way: its fixtures to come are not theirs
        (a bot plays their seat, or they forfeit each game, as its house rules say)."""
        withdrawn = self.entry.status == Entry.Status.WITHDRAWN
        return withdrawn and self.season.status == Season.Status.RUNNING

    @property
    def may_withdraw(self) -> bool:
        """Only the entry's player withdraws themself: one replaced asks an organiser."""
        return (
            self.entry.status in (Entry.Status.PENDING, Entry.Status.REGISTERED)
            and self.season.status != Season.Status.FINISHED
            and self.entry.substitute_id is None
        )


def entries_played_by(user: User) -> QuerySet[Entry]:
    """The entries whose fixtures ``user`` sits or sat at: their own (a substitute may
    have taken over since; the fixtures they played stay theirs), and those they
    substitute in. :func:`fixtures_of` keeps the fixtures they play or played."""
    return Entry.objects.filter(Q(user=user) | Q(substitute=user))


def player_seasons(user: User) -> list[PlayerSeason]:
    """The member's seasons: those they are playing first, then the newest."""
    entries = list(
        entries_played_by(user)
        .exclude(status=Entry.Status.DECLINED)
        .select_related("season__league__club", "division", "user", "substitute")
        .order_by("season__finished_at", "-season__created_at")[:SEASONS_SHOWN]
    )
    fixtures = fixtures_of(entries, user)
    byes = byes_of(entries)
    seasons = [
        PlayerSeason(
            entry=entry,
            fixtures=tuple(fixtures.get(entry.pk, ())),
            vacation=season_vacations(entry.season, [entry.player.pk])[entry.player.pk],
            byes=byes.get(entry.pk, ()),
            plays_it=entry.player.pk == user.pk,
        )
        for entry in entries
    ]
    # Stable: within each group the newest first, as read.
    seasons.sort(key=lambda item: not item.is_playing)
    return seasons


def fixtures_of(entries: list[Entry], user: User) -> dict[int, list[PlayerFixture]]:
    """Each entry's fixtures that ``user`` plays, played or will play, in matchday order,
    with the names of who it meets (who played them, once a game is played). A fixture
    of the entry that someone else played for it (before a substitution, or after one)
    is not the member's."""
    seats = list(
        FixtureSeat.objects.filter(entry__in=entries)
        .select_related("fixture__matchday", "fixture__table")
        .order_by("fixture__matchday__number", "fixture__pk")
    )
    sitting: dict[int, list[FixtureSeat]] = defaultdict(list)
    others = FixtureSeat.objects.filter(fixture__in=[s.fixture_id for s in seats])
    for seat in others.select_related("entry__user", "entry__substitute").order_by("number"):
        sitting[seat.fixture_id].append(seat)
    played = tables_players(s.fixture.table_id for s in seats if s.fixture.table_id)
    result: dict[int, list[PlayerFixture]] = defaultdict(list)
    for seat in seats:
        fixture = seat.fixture
        entries_there = [other.entry for other in sitting[fixture.pk]]
        games = played.get(fixture.table_id or 0, [])
        if not plays_in(user.pk, fixture, entries_there, games):
            continue
        names = fixture_names(entries_there, games)
        result[seat.entry_id].append(
            PlayerFixture(
                fixture=fixture,
                matchday=fixture.matchday.number,
                opens_at=fixture.matchday.opens_at,
                deadline=fixture.due_at,
                opponents=tuple(
                    name
                    for other, name in zip(sitting[fixture.pk], names, strict=True)
                    if other.entry_id != seat.entry_id
                ),
                table_id=fixture.table_id,
            )
        )
    return result


def byes_of(entries: list[Entry]) -> dict[int, tuple[int, ...]]:
    """Each entry's byes: the matchdays with fixtures in its division but none for it
    (two queries, whatever the number of entries)."""
    divisions = {entry.division_id for entry in entries if entry.division_id}
    playing: dict[int, set[int]] = defaultdict(set)
    for division_id, number in (
        Fixture.objects.filter(division_id__in=divisions)
        .values_list("division_id", "matchday__number")
        .distinct()
    ):
        playing[division_id].add(number)
    seated: dict[int, set[int]] = defaultdict(set)
    for entry_id, number in FixtureSeat.objects.filter(entry__in=entries).values_list(
        "entry_id", "fixture__matchday__number"
    ):
        seated[entry_id].add(number)
    return {
        entry.pk: tuple(sorted(playing[entry.division_id] - seated[entry.pk]))
        for entry in entries
        if entry.division_id
    }
