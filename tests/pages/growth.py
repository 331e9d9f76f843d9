"""How the pages' tests grow the site: a busy lobby around a member, a season of more
matchdays, each played."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.urls import reverse

from accounts.models import User
from benchmarks import site_rows
from benchmarks.league_rows import PlayedFixture, write_played
from games.models.table_settings import TableSettings
from leagues.models import Fixture, FixtureSeat, Matchday
from tests.leagues.conftest import RunningSeason


def site_grows(alice: User, bob: User, carol: User) -> Callable[[int], None]:
    """Each step: games in play among others (to watch) and of alice's (awaiting her, past
    her lists' length in the end), tables waiting for a player, alice's finished tables,
    and notices to her and to others."""

    def grow(n: int) -> None:
        site_rows.games_in_play(n, [bob, carol])
        site_rows.games_in_play(n, [alice, bob])
        site_rows.games_in_play(n, [bob, alice], clock="correspondence")
        site_rows.open_tables(n, carol)
        site_rows.finished_tables(n, [alice, carol])
        site_rows.notifications(n, alice)
        site_rows.notifications(n, bob)

    return grow


def more_matchdays(running: RunningSeason, count: int) -> None:
    """``count`` matchdays more, after those there are, each fixture of them played."""
    first = running.season.matchdays.count() + 1
    now = running.matchday.opens_at
    days = Matchday.objects.bulk_create(
        Matchday(
            season=running.season,
            number=number,
            opens_at=now - timedelta(days=number),
            deadline=now - timedelta(days=number - 1),
            status=Matchday.Status.CLOSED,
        )
        for number in range(first, first + count)
    )
    pairs = [running.entries[0:2], running.entries[2:4]]
    fixtures = Fixture.objects.bulk_create(
        Fixture(matchday=day, division=running.division) for day in days for _ in pairs
    )
    FixtureSeat.objects.bulk_create(
        FixtureSeat(fixture=fixture, number=seat, entry=entry)
        for fixture, pair in zip(fixtures, pairs * count, strict=True)
        for seat, entry in enumerate(pair)
    )
    write_played(
        TableSettings(clock="correspondence"),
        [
            PlayedFixture(fixture, [entry.user for entry in pair], [[30, -30], [-5, 5]])
            for fixture, pair in zip(fixtures, pairs * count, strict=True)
        ],
    )


def season_url(running: RunningSeason, name: str) -> str:
    club, league = running.club.slug, running.season.league.slug
    return reverse(name, args=[club, league, running.season.number])
