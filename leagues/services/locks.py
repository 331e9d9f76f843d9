"""The close's lock order, kept by every writer that can race a season's close.

Closing a season (:func:`leagues.services.season_end.close_season`) locks the season row,
then its matchdays, then their unfinished fixtures, then (settling them, in the games
services) each game and its table; it reads the final order under those locks and stores
it. A writer that changes what the final order is read from (a score change, a ruling on
a fixture's game, a withdrawal, a substitution, a deadline moved, a matchday settled or
opened) takes the same rows in the same order: **season, then matchday, then fixture,
then game**. Then it either commits before the close reads the order (the order includes
it) or waits for the close and finds the season finished (it is refused, or, for a
ruling, told as a late correction); and no two of them wait on each other in a cycle.

Each function locks its chain from the top and returns the rows as they are under the
locks, so a caller checks the status it reads there (and asks its conflict questions
beside them) before it changes anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from leagues.models import Fixture, Matchday, Season


@dataclass(frozen=True)
class Locked:
    """A fixture's chain, locked from the top: its season, matchday and itself."""

    season: Season
    matchday: Matchday
    fixture: Fixture


def lock_season(season_id: int, *, skip_locked: bool = False) -> Season | None:
    """The season row, locked (``None`` with ``skip_locked`` when another writer holds
    it, or when there is no such season)."""
    return (
        Season.objects.select_for_update(of=("self",), skip_locked=skip_locked)
        .select_related("league__club")
        .filter(pk=season_id)
        .first()
    )


def lock_matchday(matchday_id: int) -> tuple[Season, Matchday]:
    """The matchday's season, then the matchday, locked."""
    season_id = Matchday.objects.values_list("season_id", flat=True).get(pk=matchday_id)
    season = lock_season(season_id)
    assert season is not None  # a matchday's season is never deleted without it
    matchday = Matchday.objects.select_for_update(of=("self",)).get(pk=matchday_id)
    matchday.season = season
    return season, matchday


def lock_fixture(fixture_id: int) -> Locked:
    """The fixture's season, matchday, then the fixture itself, locked."""
    matchday_id = Fixture.objects.values_list("matchday_id", flat=True).get(pk=fixture_id)
    season, matchday = lock_matchday(matchday_id)
    fixture = (
        Fixture.objects.select_for_update(of=("self",)).select_related("table").get(pk=fixture_id)
    )
    fixture.matchday = matchday
    return Locked(season, matchday, fixture)


def lock_fixture_of_game(game_id: int) -> Locked | None:
    """The chain of the fixture whose table played ``game_id``, locked; ``None`` for a
    game of no fixture. Taken before the game's own lock."""
    fixture_id = (
        Fixture.objects.filter(table__games__pk=game_id).values_list("pk", flat=True).first()
    )
    return None if fixture_id is None else lock_fixture(fixture_id)
