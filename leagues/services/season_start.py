"""Starting a season: a preview with its warnings, then one transaction.

:func:`preview_start` places the registered players in divisions, schedules each
division (:func:`leagues.scheduling.schedule_season`, seeded from the season's id, so
the preview and the start give the same schedule) and says what an organiser should know
first. :func:`start_season` does it: divisions, each entry's division and seed, the
matchdays with their fixtures and seats, then opens matchday 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pghistory
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from common import moments
from games.models.table_settings import TableSettings
from leagues.divisions import division_names, equal_lengths, split
from leagues.errors import Conflict, LeaguesError
from leagues.house_rules import MAX_DIVISION_SIZE
from leagues.models import Division, Entry, Fixture, FixtureSeat, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.permissions import ensure_staff
from leagues.promotion import moves
from leagues.scheduling import Schedule, ScheduleError, default_matchdays, schedule_season
from leagues.selectors.roles import organisers
from leagues.services.matchdays import open_matchday
from leagues.services.seasons import NOT_STARTED, season_path
from leagues.signals import announce, fixtures_changed
from notifications.services import notices


@dataclass(frozen=True)
class DivisionPlan:
    """One division as it would start: its players in seed order and their schedule."""

    level: int
    name: str
    entries: tuple[Entry, ...]
    schedule: Schedule[int] | None
    """``None`` when the division cannot be scheduled: ``problem`` says why."""
    problem: str = ""

    @property
    def players(self) -> list[str]:
        return [str(entry.player) for entry in self.entries]

    @property
    def fixtures_per_matchday(self) -> int:
        return len(self.schedule.matchdays[0].fixtures) if self.schedule else 0

    @property
    def byes_per_matchday(self) -> int:
        return len(self.schedule.matchdays[0].byes) if self.schedule else 0

    def player_lines(self) -> list[tuple[int, str, int, int, int]]:
        """(seed, name, fixtures, byes, games started) for each player."""
        if self.schedule is None:
            return [(seed, str(e.player), 0, 0, 0) for seed, e in enumerate(self.entries, 1)]
        fixtures = self.schedule.fixture_counts()
        byes, starts = self.schedule.bye_counts(), self.schedule.start_counts()
        return [
            (seed, str(e.player), fixtures[e.pk], byes[e.pk], starts[e.pk])
            for seed, e in enumerate(self.entries, start=1)
        ]


@dataclass(frozen=True)
class PlannedDivisionDay:
    """One division's part of a planned matchday: its fixtures (players' names in
    seat order) and who has a bye."""

    name: str
    fixtures: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class PlannedMatchday:
    """A matchday as starting now would schedule it: its dates and who meets whom."""

    number: int
    opens_at: datetime
    deadline: datetime
    divisions: tuple[PlannedDivisionDay, ...]


@dataclass(frozen=True)
class StartPreview:
    """What starting the season now would do, and what to know first."""

    season: Season
    divisions: tuple[DivisionPlan, ...]
    matchdays: int
    lengths: tuple[int, ...]
    """The season lengths the organiser may choose: those that give every player of a
    division the same number of fixtures, up to twice the usual length, and the usual
    length."""
    fair_lengths: tuple[int, ...]
    starts_at: datetime
    matchday_days: int
    games_per_fixture: int
    warnings: tuple[str, ...]
    """Things an organiser should know; starting is still possible."""
    problems: tuple[str, ...]
    """Reasons the season cannot start as it is."""

    @property
    def can_start(self) -> bool:
        return not self.problems

    @property
    def first_deadline(self) -> datetime:
        return self.starts_at + timedelta(days=self.matchday_days)

    @property
    def last_deadline(self) -> datetime:
        return self.starts_at + timedelta(days=self.matchdays * self.matchday_days)

    @property
    def players(self) -> int:
        return sum(len(division.entries) for division in self.divisions)

    def matchday_dates(self, number: int) -> tuple[datetime, datetime]:
        """When matchday ``number`` would open, and its deadline."""
        days = timedelta(days=self.matchday_days)
        return self.starts_at + (number - 1) * days, self.starts_at + number * days

    @property
    def planned_matchdays(self) -> list[PlannedMatchday]:
        """Each matchday's dates and fixtures, as :func:`_write` would make them."""
        plans = [plan for plan in self.divisions if plan.schedule is not None]
        names = {plan.level: {e.pk: str(e.player) for e in plan.entries} for plan in plans}
        return [
            PlannedMatchday(
                number,
                *self.matchday_dates(number),
                divisions=tuple(
                    PlannedDivisionDay(
                        name=plan.name,
                        fixtures=tuple(
                            tuple(names[plan.level][p] for p in fixture.players)
                            for fixture in plan.schedule.matchdays[number - 1].fixtures
                        ),
                        byes=tuple(
                            names[plan.level][p] for p in plan.schedule.matchdays[number - 1].byes
                        ),
                    )
                    for plan in plans
                    if plan.schedule is not None
                ),
            )
            for number in range(1, self.matchdays + 1)
        ]

    @property
    def fair(self) -> bool:
        """Whether every player of each division plays as many fixtures as the others."""
        return self.matchdays in self.fair_lengths


def preview_start(
    season: Season,
    ranking: Sequence[int] | None = None,
    now: datetime | None = None,
    matchdays: int | None = None,
) -> StartPreview:
    """What :func:`start_season` would do now (nothing is written).

    ``ranking``: user ids in seed order; without it, the seeds the closing of the
    previous season gave the players it carried over (its final standings after
    promotion and relegation), or else the previous season's divisions and seeds.
    Players not ranked come after, in the order they registered. Divisions are cut even
    between a table and a maximum, keeping the previous close's promotions
    (:func:`leagues.divisions.split`). ``matchdays``: the season's length, one of the
    preview's ``lengths``; without it the first that is fair to every player, if any,
    else the usual length (:func:`leagues.scheduling.default_matchdays`).
    """
    return _preview(season, _plan_divisions(season, ranking, matchdays), now or timezone.now())


def cached_preview(
    season: Season, now: datetime | None = None, matchdays: int | None = None
) -> StartPreview:
    """:func:`preview_start` for the start page. Scheduling a big season takes seconds,
    so its divisions and their schedules are computed once per version of the season's
    registrations and house rules and kept in Django's cache; the dates and warnings,
    which move with the clock, are worked out afresh. The start itself never reads the
    cache: it plans again under the season's lock."""
    key = f"leagues:start-plan:{season.pk}:{_plan_version(season)}:{matchdays}"
    plan: _Plan | None = cache.get(key)
    if plan is None:
        plan = _plan_divisions(season, None, matchdays)
        cache.set(key, plan, PLAN_SECONDS)
    return _preview(season, plan, now or timezone.now())


PLAN_SECONDS = 24 * 3600
"""How long a cached plan is kept; a change of registrations or rules makes a new key
before then."""


@dataclass(frozen=True)
class _Plan:
    """The costly part of a preview: the divisions with their schedules."""

    divisions: tuple[DivisionPlan, ...]
    matchdays: int
    lengths: tuple[int, ...]
    fair_lengths: tuple[int, ...]
    games_per_fixture: int
    notes: tuple[str, ...]
    """What the cut of the divisions says (:meth:`leagues.divisions.Split.notes`)."""


def _plan_version(season: Season) -> str:
    """Changes whenever what the plan is made of changes: every insert and update of the
    season's entries and of the season itself (its house rules) is a history event with
    a new, higher id (django-pghistory)."""
    entry_events = Entry.pgh_event_model.objects.filter(season_id=season.pk)  # type: ignore[attr-defined]
    season_events = Season.pgh_event_model.objects.filter(pgh_obj_id=season.pk)  # type: ignore[attr-defined]
    entries = entry_events.aggregate(last=Max("pgh_id"))["last"]
    rules = season_events.aggregate(last=Max("pgh_id"))["last"]
    return f"{entries}-{rules}"


def _plan_divisions(
    season: Season, ranking: Sequence[int] | None, matchdays: int | None = None
) -> _Plan:
    entries = list(
        season.entries.filter(status=Entry.Status.REGISTERED)
        .select_related("user", "substitute")
        .order_by("registered_at", "pk")
    )
    carried = _carried_order(entries) if ranking is None else []
    if ranking is None:
        ranking = carried or _previous_order(season)
    ordered = _seeded(entries, list(ranking))
    # The previous close's promotions hold only for the seeding that close made.
    promoted, relegated = _last_moves(season, entries) if carried else ({}, {})
    cut = split(ordered, season.seats, season.division_size, promoted, relegated)
    groups = cut.divisions
    games = TableSettings.from_dict(season.table_settings).games_for(season.seats)
    usual = _matchdays(groups, season.seats)
    fair = tuple(equal_lengths(map(len, groups), season.seats, 2 * usual)) if usual else ()
    lengths = tuple(sorted({usual, *fair}))
    # Twice the usual length always holds a fair one at least as long as the usual, if
    # any is fair: the first such is the season's unless the organiser chooses.
    fairer = next((days for days in fair if days >= usual), usual)
    days = fairer if matchdays is None else matchdays
    if days not in lengths:
        raise LeaguesError(
            f"A season of {days} matchdays is not offered: choose {', '.join(map(str, lengths))}."
        )
    plans = tuple(
        _plan(season, level, group, days, games, len(groups))
        for level, group in enumerate(groups, start=1)
    )
    notes = tuple(cut.notes(lambda entry: str(entry.player), season.seats))
    return _Plan(plans, days, lengths, fair, games, notes)


def _last_moves(season: Season, entries: list[Entry]) -> tuple[dict[Entry, int], dict[Entry, int]]:
    """This season's entries of the players the previous season's close promoted and
    relegated, each with the level they moved to: its final order (``final_rank`` in
    each division) run through the same promotion as at the close."""
    if season.previous_id is None:
        return {}, {}
    previous = Season.objects.get(pk=season.previous_id)
    placed = Entry.objects.filter(
        season=previous, division__isnull=False, final_rank__isnull=False
    ).order_by("division__level", "final_rank", "pk")
    final: dict[int, list[int]] = {}
    for level, user_id in placed.values_list("division__level", "user_id"):
        final.setdefault(level, []).append(user_id)
    up, down = moves([final[level] for level in sorted(final)], previous.promotion)
    by_user = {entry.user_id: entry for entry in entries}
    return (
        {by_user[user]: level for user, level in up.items() if user in by_user},
        {by_user[user]: level for user, level in down.items() if user in by_user},
    )


def _preview(season: Season, plan: _Plan, now: datetime) -> StartPreview:
    problems, warnings = _findings(season, plan, now)
    return StartPreview(
        season=season,
        divisions=plan.divisions,
        matchdays=plan.matchdays,
        lengths=plan.lengths,
        fair_lengths=plan.fair_lengths,
        starts_at=now,
        matchday_days=season.matchday_days,
        games_per_fixture=plan.games_per_fixture,
        warnings=warnings,
        problems=problems,
    )


def start_season(
    season: Season,
    by: Any,
    reason: str = "",
    ranking: Sequence[int] | None = None,
    matchdays: int | None = None,
) -> Season:
    """Start ``season`` as :func:`preview_start` shows it, in one transaction, and open
    its first matchday; ``by``: the organiser, or ``None`` for the beat job at the
    season's ``starts_at``; ``matchdays``: the length chosen in the preview. Raises
    :class:`LeaguesError` (nothing is written)."""
    if by is not None:
        ensure_staff(by, season)
    user = None if by is None else by.pk
    with transaction.atomic(), pghistory.context(user=user, reason=reason or "season started"):
        # The season's row is locked first: registrations wait for the start, and a
        # second start (a double click, another organiser) finds the season running.
        locked = Season.objects.select_for_update(of=("self",)).select_related("league__club")
        season = locked.get(pk=season.pk)
        if season.status not in NOT_STARTED:
            raise Conflict("The season has started already.")
        preview = preview_start(season, ranking, matchdays=matchdays)
        if not preview.can_start:
            raise Conflict(" ".join(preview.problems))
        _write(season, preview)
        season.status, season.started_at = Season.Status.RUNNING, preview.starts_at
        season.start_failed_at, season.start_failure = None, ""
        # A length that leaves some players more fixtures than others: totals would
        # compare unequal numbers of games, so the standings go per game.
        season.per_game = not preview.fair
        season.save(
            update_fields=["status", "started_at", "per_game", "start_failed_at", "start_failure"]
        )
        # Registrations nobody approved in time do not play.
        season.entries.filter(status=Entry.Status.PENDING).update(status=Entry.Status.DECLINED)
        _announce(season, preview)
        open_matchday(season.matchdays.get(number=1))
        # Its divisions and fixtures are what the standings read from now on.
        announce(fixtures_changed, Season, season.pk, matchday_id=None, fixture_ids=[])
    return season


def mark_start_failed(season: Season, failure: str, now: datetime) -> bool:
    """The beat job could not start ``season`` at its time: the season keeps the reason
    and is left to its organisers, who are told (the season's page says why and what to
    do; starting it from the preview clears the mark). Returns whether it was marked:
    not when it started meanwhile (another run, an organiser) or was marked already."""
    with transaction.atomic(), pghistory.context(reason="the season could not start at its time"):
        locked = Season.objects.select_for_update(of=("self",)).select_related("league__club")
        season = locked.get(pk=season.pk)
        if season.status not in NOT_STARTED or season.start_failed_at is not None:
            return False
        season.start_failed_at, season.start_failure = now, failure
        season.save(update_fields=["start_failed_at", "start_failure"])
        for organiser in organisers(season.league.club):
            notices.create(
                organiser.pk,
                LeagueNotice.LEAGUE_SEASON,
                f"{season} could not start at its time: {failure} "
                "Start it from its start page once it can.",
                season_path(season),
                subject=season,
                key=f"league-season-{season.pk}-start-failed",
            )
    return True


def _carried_order(entries: list[Entry]) -> list[int]:
    """User ids of the entries a closed season carried into this one, in the seed order
    it gave them (its final standings after promotion and relegation)."""
    seeded = sorted(
        (entry for entry in entries if entry.seed is not None), key=lambda e: e.seed or 0
    )
    return [entry.user_id for entry in seeded]


def _previous_order(season: Season) -> list[int]:
    """User ids of the previous season's players by division, then seed."""
    if season.previous_id is None:
        return []
    placed = Entry.objects.filter(season_id=season.previous_id, division__isnull=False)
    return list(placed.order_by("division__level", "seed", "pk").values_list("user_id", flat=True))


def _seeded(entries: list[Entry], ranking: list[int]) -> list[Entry]:
    """``entries`` with the ranked players first, in ranking order, then the others as
    they came."""
    place = {user_id: index for index, user_id in enumerate(ranking)}
    return sorted(entries, key=lambda entry: place.get(entry.user_id, len(place)))


def _matchdays(groups: list[list[Entry]], seats: int) -> int:
    """One season length for every division: the longest any division needs."""
    lengths = [
        default_matchdays(len(group), seats)
        for group in groups
        if seats <= len(group) <= MAX_DIVISION_SIZE
    ]
    return max(lengths, default=0)


def _plan(
    season: Season, level: int, group: list[Entry], days: int, games: int, count: int
) -> DivisionPlan:
    name = division_names(count)[level - 1]
    players = len(group)
    if players > MAX_DIVISION_SIZE:
        # Not scheduled at all: the search's work grows fast with the division, and
        # such a season (dozens of matchdays) is no season anyone wants.
        problem = (
            f"{name} has {players} players; a division holds at most {MAX_DIVISION_SIZE}. "
            "Give the league a division size."
        )
        return DivisionPlan(level, name, tuple(group), schedule=None, problem=problem)
    try:
        schedule = schedule_season(
            [entry.pk for entry in group],
            seats=season.seats,
            matchdays=days,
            games_per_fixture=games,
            seed=f"season-{season.pk}-division-{level}",
        )
    except ScheduleError:
        problem = (
            f"{name} has {players} player{'s' * (players != 1)}, "
            f"fewer than a table of {season.seats}."
        )
        return DivisionPlan(level, name, tuple(group), schedule=None, problem=problem)
    return DivisionPlan(level, name, tuple(group), schedule)


def _findings(
    season: Season, plan: _Plan, now: datetime
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    problems = [division.problem for division in plan.divisions if division.problem]
    if not plan.divisions:
        problems.append("Nobody is registered yet.")
    warnings = [*plan.notes, *_unequal(plan)]
    pending = season.entries.filter(status=Entry.Status.PENDING).count()
    if pending:
        warnings.append(
            f"{pending} registration{'s' * (pending != 1)} still await{'s' * (pending == 1)} "
            "approval: starting declines them."
        )
    if season.starts_at and season.starts_at > now:
        warnings.append(
            f"The season was to start on {moments.when(season.starts_at)}; "
            "starting now opens matchday 1 at once."
        )
    return tuple(problems), tuple(warnings)


def _unequal(plan: _Plan) -> list[str]:
    """Divisions whose players would play different numbers of fixtures: their score
    totals would add up unequal numbers of games."""
    warnings = []
    for division in plan.divisions:
        counts = {fixtures for _, _, fixtures, _, _ in division.player_lines()}
        if division.schedule is not None and len(counts) > 1:
            fair = (
                f"{' or '.join(map(str, plan.fair_lengths))} matchdays give everyone the same"
                if plan.fair_lengths
                else "no season up to twice the usual length gives everyone the same"
            )
            warnings.append(
                f"With {plan.matchdays} matchdays the players of {division.name} play "
                f"{min(counts)} or {max(counts)} fixtures, so the standings rank by points "
                f"per game played; {fair}."
            )
    return warnings


def _write(season: Season, preview: StartPreview) -> None:
    """The divisions, entries' places, matchdays, fixtures and seats of ``preview``."""
    matchdays = Matchday.objects.bulk_create(
        Matchday(
            season=season,
            number=number,
            opens_at=preview.matchday_dates(number)[0],
            deadline=preview.matchday_dates(number)[1],
        )
        for number in range(1, preview.matchdays + 1)
    )
    for plan in preview.divisions:
        assert plan.schedule is not None  # a preview with a problem never starts
        division = Division.objects.create(season=season, level=plan.level, name=plan.name)
        for seed, entry in enumerate(plan.entries, start=1):
            entry.division, entry.seed = division, seed
        Entry.objects.bulk_update(plan.entries, ["division", "seed"])
        seats: list[FixtureSeat] = []
        for matchday, scheduled in zip(matchdays, plan.schedule.matchdays, strict=True):
            fixtures = Fixture.objects.bulk_create(
                Fixture(matchday=matchday, division=division) for _ in scheduled.fixtures
            )
            seats += [
                FixtureSeat(fixture=fixture, number=number, entry_id=entry_id)
                for fixture, planned in zip(fixtures, scheduled.fixtures, strict=True)
                for number, entry_id in enumerate(planned.players)
            ]
        FixtureSeat.objects.bulk_create(seats)


def _announce(season: Season, preview: StartPreview) -> None:
    several = len(preview.divisions) > 1
    for plan in preview.divisions:
        # A league of one division has no division to name ("you play in Division").
        where = f"you play in {plan.name}, " if several else ""
        for entry in plan.entries:
            notices.create(
                entry.player.pk,
                LeagueNotice.LEAGUE_SEASON,
                f"{season} has started: {where}"
                f"{preview.matchdays} matchdays of {season.matchday_days} days.",
                season_path(season),
                subject=season,
                key=f"league-season-{season.pk}-started",
            )
