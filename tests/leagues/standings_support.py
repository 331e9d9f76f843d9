"""A small season with chosen scores, for the standings' selector, views and live tests.

Rows are written directly (clubs, a league, a running season, a division, entries,
matchdays, fixtures and their seats; finished tables through
:mod:`benchmarks.league_rows`), not through the clubs' and seasons' services, so these
tests depend on the models only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from benchmarks.league_rows import PlayedFixture, write_played
from games.models.table_settings import TableSettings
from leagues.models import (
    Club,
    Division,
    Entry,
    Fixture,
    FixtureSeat,
    League,
    Matchday,
    Membership,
    Season,
)
from tests.factories import ClubFactory, SeasonFactory, UserFactory


@dataclass
class SmallSeason:
    """A running season of one division: its club's organiser, its players (members),
    a member of another club; fixtures are added by :meth:`play` and :meth:`schedule`."""

    club: Club
    season: Season
    division: Division
    organiser: User
    players: dict[str, User]
    outsider: User
    entries: dict[str, Entry] = field(default_factory=dict)

    @property
    def settings(self) -> TableSettings:
        return TableSettings.from_dict(self.season.table_settings)

    def matchday(self, number: int) -> Matchday:
        opens = timezone.now() + timedelta(days=7 * (number - 1))
        matchday, _ = Matchday.objects.get_or_create(
            season=self.season,
            number=number,
            defaults={"opens_at": opens, "deadline": opens + timedelta(days=7)},
        )
        return matchday

    def schedule(self, number: int, names: Sequence[str]) -> Fixture:
        """A fixture of matchday ``number`` for ``names`` in seat order, not yet played."""
        fixture = Fixture.objects.create(matchday=self.matchday(number), division=self.division)
        FixtureSeat.objects.bulk_create(
            FixtureSeat(fixture=fixture, number=seat, entry=self.entries[name])
            for seat, name in enumerate(names)
        )
        return fixture

    def play(
        self,
        number: int,
        names: Sequence[str],
        *scores: Sequence[int],
        complete: bool = True,
    ) -> Fixture:
        """A fixture of matchday ``number`` played with ``scores`` (a list per game)."""
        fixture = self.schedule(number, names)
        players = [self.players[name] for name in names]
        write_played(self.settings, [PlayedFixture(fixture, players, scores, complete=complete)])
        fixture.refresh_from_db()
        return fixture


def small_season(
    names: Sequence[str] = ("ann", "bob", "cy", "dee"),
    private: bool = False,
    seats: int = 2,
    slug: str = "tile-club",
    **house_rules: Any,
) -> SmallSeason:
    """A running season of ``names`` in one division of a new club (``slug``)."""
    organiser = UserFactory(username=f"{slug}-organiser")
    club = ClubFactory(name=f"Club {slug}", slug=slug, is_private=private, owner=organiser)
    settings = TableSettings(games_in_round=2).to_dict()
    rules = {"tiebreaks": ["games_won", "head_to_head", "total_score"], **house_rules}
    league = League.objects.create(
        club=club, name="Winter", slug="winter", seats=seats, table_settings=settings, **rules
    )
    season = SeasonFactory(league=league, status=Season.Status.RUNNING)
    division = Division.objects.create(season=season, level=1, name="Division 1")
    players = {
        name: UserFactory(username=f"{slug}-{name}", display_name=name.title()) for name in names
    }
    Membership.objects.bulk_create(Membership(club=club, user=u) for u in players.values())
    outsider = UserFactory(username=f"{slug}-outsider")
    ClubFactory(name=f"Other {slug}", slug=f"other-{slug}", is_private=private, owner=outsider)
    built = SmallSeason(club, season, division, organiser, players, outsider)
    for seed, name in enumerate(names, start=1):
        built.entries[name] = Entry.objects.create(
            season=season, user=players[name], division=division, seed=seed
        )
    return built
