"""Final means final: after a season closed, an organiser's score change is refused with a
sentence, and a result changes only through a moderators' ruling, whose preview shows
the new final order and says that promotion does not follow it; the game's players, and
those whose final place it changes, are told."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from leagues.errors import Conflict
from leagues.models import Entry, ScoreAdjustment, Season
from leagues.services.adjustments import propose
from leagues.services.season_end import announce_close, close_announced_season
from moderation.models import Case, Ruling
from moderation.services.previews import Preview, preview
from notifications.models import Notification
from tests.leagues.conftest import RunningSeason
from tests.moderation.test_rulings import league_case, ruled

pytestmark = pytest.mark.django_db

__all__ = ["league_case"]


def _close(running: RunningSeason) -> Season:
    # Alice plays in the season, so she announces the close and it closes by itself
    # (leagues.conflicts); nobody else moderates the club, so rulings apply at once.
    announced = announce_close(running.season, running.organiser, "The season is over.")
    assert announced.closes_at is not None
    with time_machine.travel(announced.closes_at + timedelta(minutes=1)):
        close_announced_season(running.season.pk, timezone.now())
    running.season.refresh_from_db()
    assert running.season.status == Season.Status.FINISHED
    return running.season


def _swap(game: Game) -> dict[str, object]:
    """A ruling's details that hand the game to its loser by 60 points."""
    winner = Result.objects.current().of_game(game).get(is_winner=True).seat
    return {"scores": {str(winner): -60, str(1 - winner): 60}, "winner": 1 - winner}


def _preview(case: Case, game: Game, moderator: User) -> Preview:
    return preview(case, moderator, Ruling.Kind.SET_RESULT, "Scored wrongly.", details=_swap(game))


def _final_ranks(season: Season) -> dict[str, int | None]:
    return dict(Entry.objects.filter(season=season).values_list("user__username", "final_rank"))


def test_the_close_keeps_each_players_final_rank(league_case: Case, running: RunningSeason) -> None:
    season = _close(running)
    ranks = sorted(Entry.objects.filter(season=season).values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3, 4]
    told = Notification.objects.filter(key=f"season-end:{season.pk}").values_list("text", flat=True)
    assert sum("you finished 1st in Division 1." in text for text in told) == 1


def test_an_organisers_score_change_after_the_close_is_refused_with_a_sentence(
    league_case: Case, league_game: Game, running: RunningSeason
) -> None:
    season = _close(running)
    with pytest.raises(Conflict) as refused:
        propose(season, league_game.pk, 0, 100, running.organiser, "A late correction.")
    assert refused.value.message == (
        "Winter league, season 1 is closed: its results are final and change only through "
        "a moderators' ruling. Report the game to the moderators if it needs correcting."
    )
    assert not ScoreAdjustment.objects.exists()


def test_a_rulings_preview_after_the_close_shows_the_final_order_and_that_promotion_stays(
    league_case: Case, league_game: Game, running: RunningSeason, club_moderator: User
) -> None:
    _close(running)
    shown = _preview(league_case, league_game, club_moderator)
    moved = {line.name for line in shown.standings if line.rank_before != line.rank_after}
    assert moved == {"Bob", "Dave"}
    assert "is closed: this ruling changes its final standings" in shown.after_close
    assert "promotion and relegation do not follow it" in shown.after_close
    assert "season 2's divisions and seeds stay as the close made them" in shown.after_close


def test_a_rulings_preview_before_the_close_says_nothing_of_it(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    shown = _preview(league_case, league_game, club_moderator)
    assert shown.after_close == ""


def test_a_late_ruling_tells_the_players_where_they_stand_now(
    league_case: Case, league_game: Game, running: RunningSeason, club_moderator: User
) -> None:
    season = _close(running)
    final = _final_ranks(season)

    ruled(league_case, club_moderator, Ruling.Kind.SET_RESULT, details=_swap(league_game))

    told = {
        n.user.username: n.text
        for n in Notification.objects.filter(key__startswith="season-late:").select_related("user")
    }
    assert {"bob", "dave"} <= set(told)  # the game's players, whose place changed
    assert "erin" not in told or "of a fixture of your division" in told["erin"]
    assert f"(you finished {_ordinal(final['bob'])} at the close)" in told["bob"]
    assert told["bob"].endswith("Promotion and relegation made at the close stand.")
    # What they were told at the close stays as it was.
    assert (
        dict(Entry.objects.filter(season=season).values_list("user__username", "final_rank"))
        == final
    )


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[number]
