"""The end of a season: its last matchdays closed, its final standings, and the next
season proposed with promotion and relegation.

An organiser closes a season from a preview (:func:`preview_close_season`): which
matchdays are still open or never opened and what closing them does, the final order of
each division, who goes up and who goes down, the next season's divisions, and the
warnings. :func:`close_season` then applies it all in one transaction: open matchdays
are closed (their unfinished fixtures settled by the season's rule, as at a deadline),
matchdays never opened are closed with their fixtures unplayed, the season is finished,
and the next season is created on the league's house rules with every player who did
not withdraw registered again, seeded by :func:`leagues.promotion.seeding`. Its
registration is open: newcomers join it and anyone may unregister before it starts.
Players are told where they finished and where they play next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import NotificationKind
from games.services import notifications
from leagues.errors import Conflict, LeaguesError
from leagues.models import Entry, Fixture, Matchday, Season
from leagues.promotion import divisions, seeding
from leagues.selectors.standings import forget_season, season_standings
from leagues.services.deadlines import audited, close_matchday

NOT_PLAYED = "Not played: the season was closed before its matchday opened."


@dataclass(frozen=True)
class DivisionChange:
    """A player who changes division for the next season."""

    name: str
    from_level: int
    to_level: int


@dataclass
class SeasonEndPreview:
    """What closing ``season`` will do; nothing is written to make it."""

    season: Season
    open_matchdays: list[int]
    unplayed_matchdays: list[int]
    unfinished_fixtures: int
    final: list[tuple[str, list[str]]]
    """Each division's name and its players in final order (withdrawn ones left out)."""
    promoted: list[DivisionChange] = field(default_factory=list)
    relegated: list[DivisionChange] = field(default_factory=list)
    next_divisions: list[list[str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def preview_close_season(season: Season) -> SeasonEndPreview:
    """What :func:`close_season` would do now, with its warnings."""
    if season.status != Season.Status.RUNNING:
        raise Conflict("Only a season under way can be closed.")
    matchdays = list(season.matchdays.order_by("number"))
    open_days = [m.number for m in matchdays if m.status == Matchday.Status.OPEN]
    unplayed = [m.number for m in matchdays if m.status == Matchday.Status.SCHEDULED]
    unfinished = Fixture.objects.filter(
        matchday__season=season,
        matchday__status=Matchday.Status.OPEN,
        status__in=(Fixture.Status.SCHEDULED, Fixture.Status.PLAYING),
    ).count()
    final = final_order(season)
    names = _names(season)
    order = seeding([ids for _, ids in final], season.promotion)
    level_of = {entry: level for level, (_, ids) in enumerate(final, start=1) for entry in ids}
    next_levels = divisions(order, season.division_size)
    moves = [
        DivisionChange(names[entry], level_of[entry], level)
        for level, ids in enumerate(next_levels, start=1)
        for entry in ids
        if level_of[entry] != level
    ]
    preview = SeasonEndPreview(
        season=season,
        open_matchdays=open_days,
        unplayed_matchdays=unplayed,
        unfinished_fixtures=unfinished,
        final=[(name, [names[e] for e in ids]) for name, ids in final],
        promoted=[m for m in moves if m.to_level < m.from_level],
        relegated=[m for m in moves if m.to_level > m.from_level],
        next_divisions=[[names[e] for e in ids] for ids in next_levels],
    )
    preview.warnings = _warnings(preview)
    return preview


def _warnings(preview: SeasonEndPreview) -> list[str]:
    warnings = []
    if preview.unfinished_fixtures:
        warnings.append(
            f"{preview.unfinished_fixtures} fixture(s) of matchday "
            f"{', '.join(map(str, preview.open_matchdays))} are unfinished: they will be "
            "settled by the season's deadline rule."
        )
    if preview.unplayed_matchdays:
        warnings.append(
            f"Matchday {', '.join(map(str, preview.unplayed_matchdays))} never opened: "
            "its fixtures will not be played."
        )
    if preview.season.league.seasons.filter(number__gt=preview.season.number).exists():
        warnings.append("The league has a later season already; no new one will be proposed.")
    return warnings


def final_order(season: Season) -> list[tuple[str, list[int]]]:
    """Each division's name and its entries' ids in standings order, best first, without
    the players who withdrew (they are not carried into the next season)."""
    return [
        (division.name, [row.entry for row in division.standings.rows if not row.withdrawn])
        for division in season_standings(season)
    ]


def close_season(season: Season, by: User | None, reason: str) -> Season | None:
    """Close ``season`` as :func:`preview_close_season` says, in one transaction; returns
    the next season it proposes (``None`` if the league has one already)."""
    if not reason.strip():
        raise LeaguesError("Say why the season is closed.")
    now = timezone.now()
    with transaction.atomic(), audited(reason.strip(), by):
        locked = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
        if locked.status != Season.Status.RUNNING:
            raise Conflict("Only a season under way can be closed.")
        for matchday in locked.matchdays.order_by("number"):
            if matchday.status == Matchday.Status.OPEN:
                close_matchday(matchday, by, reason)
            elif matchday.status == Matchday.Status.SCHEDULED:
                matchday.fixtures.update(status=Fixture.Status.SETTLED, note=NOT_PLAYED)
                matchday.status = Matchday.Status.CLOSED
                matchday.save(update_fields=["status"])
        forget_season(locked.pk)
        final = final_order(locked)
        locked.status = Season.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
        following = _propose_next(locked, final)
        _tell_players(locked, final, following)
    return following


def _propose_next(season: Season, final: list[tuple[str, list[int]]]) -> Season | None:
    league = season.league
    if league.seasons.filter(number__gt=season.number).exists():
        return None
    following = Season.objects.create(
        league=league, number=season.number + 1, previous=season, **league.house_rules()
    )
    users = dict(season.entries.values_list("pk", "user_id"))
    order = seeding([ids for _, ids in final], season.promotion)
    Entry.objects.bulk_create(
        Entry(season=following, user_id=users[entry], status=Entry.Status.REGISTERED, seed=seed)
        for seed, entry in enumerate(order, start=1)
    )
    return following


def _tell_players(
    season: Season, final: list[tuple[str, list[int]]], following: Season | None
) -> None:
    league = season.league
    link = reverse(
        "leagues:standings",
        kwargs={"slug": league.club.slug, "league_slug": league.slug, "number": season.number},
    )
    users = dict(season.entries.values_list("pk", "user_id"))
    for name, ids in final:
        for place, entry in enumerate(ids, start=1):
            text = (
                f"{league.name}, season {season.number} is over: you finished {place}. in {name}."
            )
            if following is not None:
                text += f" You are registered for season {following.number}."
            notifications.create(
                users[entry],
                NotificationKind.LEAGUE_SEASON,
                text,
                link,
                subject=season,
                key=f"season-end:{season.pk}",
            )


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _names(season: Season) -> dict[int, str]:
    return {
        entry.pk: str(entry.user) for entry in season.entries.select_related("user").order_by("pk")
    }
