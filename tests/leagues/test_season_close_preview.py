"""The close-season preview's final standings: what the close will fix, after settling
the unfinished fixtures as the close does, with points, and the withdrawn kept."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Result
from leagues.models import Entry, Fixture
from leagues.selectors.standings import compute_season
from leagues.services.season_end import (
    close_season,
    final_order,
    preview_close_season,
    settled,
)
from tests.leagues.conftest import RunningSeason
from tests.leagues.test_season_end import closer, finish_all_but_the_last, two_divisions

pytestmark = pytest.mark.django_db

__all__ = ["closer", "two_divisions"]


def test_the_preview_shows_the_final_standings_the_close_will_fix(
    two_divisions: RunningSeason, closer: User
) -> None:
    finish_all_but_the_last(two_divisions)
    season, last = two_divisions.season, two_divisions.fixtures[-1]
    gone = two_divisions.entries[-1]  # plays the unfinished fixture, then withdraws
    Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)
    as_it_stands = {
        division.name: [row.points_text for row in division.standings.rows]
        for division in compute_season(season)
    }
    rows = Result.objects.count()

    preview = preview_close_season(season)

    # Settled for the preview only: nothing of it stays.
    assert Result.objects.count() == rows
    assert Fixture.objects.get(pk=last.pk).status == Fixture.Status.PLAYING
    upper, lower = preview.standings
    assert [line.place for line in upper.lines] == [1, 2, 3, 4]
    # The withdrawn player keeps a line, without a place; the others' places skip it.
    assert sorted(line.place or 0 for line in lower.lines) == [0, 1, 2, 3]
    # The unfinished fixture's game, settled as it stands, gave its players points.
    assert [line.points for line in lower.lines] != as_it_stands["Division 2"]

    close_season(season, closer, "End of the season.")

    assert settled(season)[0] == preview.standings
    # The promotion shown follows the order the close fixed, after the settling.
    names = {entry.pk: str(entry.user) for entry in season.entries.select_related("user")}
    assert preview.final == [(name, [names[e] for e in ids]) for name, ids in final_order(season)]
    told = {str(entry.user): entry.final_rank for entry in season.entries.select_related("user")}
    for line in lower.lines + upper.lines:
        assert told[line.name] == line.place
