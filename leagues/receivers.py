"""What follows in the leagues app from the facts of play (:mod:`games.signals`).

Connected in :meth:`leagues.apps.LeaguesConfig.ready`. Receivers run after the commit of
the fact and take ids, like the games app's own (:mod:`games.receivers`).
"""

from __future__ import annotations

from typing import Any

from leagues.consumers import publish_season_changed
from leagues.models import Fixture
from leagues.selectors.standings import forget_season


def _season_of_table(table_id: int) -> int | None:
    return (
        Fixture.objects.filter(table_id=table_id)
        .values_list("matchday__season_id", flat=True)
        .first()
    )


def standings_changed(sender: type, table_id: int, **kwargs: Any) -> None:
    """A game of a fixture ended, or a ruling changed one's result: the season's cached
    standings go, and its open standings pages refresh. Tables that are no fixture
    (most of them) cost one indexed look-up."""
    season_id = _season_of_table(table_id)
    if season_id is not None:
        forget_season(season_id)
        publish_season_changed(season_id)
