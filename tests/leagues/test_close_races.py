"""Writers racing a season's close, or a ruling, in a fixed interleaving (review wave 3,
S11 and SU1): each takes the season, matchday, fixture and game in the close's order, so
a score change confirmed while the close is in flight either lands before the close
reads the final order or is refused as closed, and a change confirmed while a void is in
flight never makes the voided game count again.

The first writer runs in the test's transaction and holds its locks until the block
ends; the second comes from another connection meanwhile (:class:`tests.races.Meanwhile`).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from leagues.errors import LeaguesError
from leagues.models import Entry, Membership, Role, ScoreAdjustment, Season
from leagues.selectors.standings import compute_season
from leagues.services import adjustments
from leagues.services.season_end import close_announced_season
from moderation.models import Category, Ruling
from moderation.services import rulings
from moderation.services.claims import claim
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.leagues.test_adjustments import finished_game
from tests.moderation.conftest import open_case
from tests.races import Meanwhile

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bob_dave(running: RunningSeason) -> Game:
    return finished_game(running.fixtures[0])


def _announced(season: Season) -> None:
    """The season's close announced for a moment that has come: the beat job closes it."""
    Season.objects.filter(pk=season.pk).update(closes_at=timezone.now() - timedelta(minutes=1))


def _close(season: Season) -> None:
    close_announced_season(season.pk, timezone.now())


def _final_order(running: RunningSeason) -> list[str]:
    """The players in the order the close stored (``Entry.final_rank``)."""
    entries = Entry.objects.filter(season=running.season).select_related("user")
    return [str(entry.user) for entry in sorted(entries, key=lambda e: e.final_rank or 0)]


def _order_now(running: RunningSeason) -> list[str]:
    """The players in the order the standings give now, from the current result rows."""
    (division,) = compute_season(Season.objects.get(pk=running.season.pk))
    return [row.name for row in division.standings.rows]


def _loser_far_behind(running: RunningSeason, game: Game) -> ScoreAdjustment:
    """Alice proposes that the game's loser lost 500 (zero-sum: its winner gains them):
    the winner goes first, the loser last. Olga, the second organiser, is to confirm it."""
    loser = Result.objects.current().of_game(game).get(is_winner=False).seat
    change = adjustments.propose(
        running.season, game.pk, loser, -500, running.organiser, "Miscounted."
    )
    assert any(line.changed for line in adjustments.preview(change).standings)
    return change


def test_a_change_confirmed_while_the_close_is_in_flight_is_refused_as_closed(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    change = _loser_far_behind(running, bob_dave)
    rows = list(Result.objects.current().of_game(bob_dave).values_list("pk", flat=True))
    _announced(running.season)

    with transaction.atomic():
        _close(running.season)  # has read the final order, not yet committed
        confirming = Meanwhile(
            lambda: adjustments.confirm(change.pk, olga), refusal=LeaguesError, name=str
        )
        assert confirming.waiting

    assert "is closed" in confirming.outcome()
    assert list(Result.objects.current().of_game(bob_dave).values_list("pk", flat=True)) == rows
    assert _final_order(running) == _order_now(running)


def test_a_close_arriving_while_a_change_is_confirmed_fixes_the_order_with_it(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    change = _loser_far_behind(running, bob_dave)
    _announced(running.season)

    with transaction.atomic():
        adjustments.confirm(change.pk, olga)
        closing = Meanwhile(lambda: _close(running.season), refusal=LeaguesError, name=str)
        assert closing.waiting

    assert closing.outcome() == "ok"
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.FINISHED
    winner = Result.objects.current().of_game(bob_dave).get(is_winner=True).member
    assert _final_order(running)[0] == str(winner)
    assert _final_order(running) == _order_now(running)


def _void_proposed(running: RunningSeason, game: Game, bob: User) -> tuple[Ruling, User]:
    """Mo, a moderator of the club, proposes to void the game; a second moderator (olga
    organises the club, which moderates it) is to confirm it. Mo may decide score changes
    too."""
    case = open_case(game, bob, Category.BUG, fixture=running.fixtures[0])
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=running.club, user=mo, role=Role.MODERATOR)
    claim(case.pk, mo)
    ruling = rulings.rule(case.pk, mo, Ruling.Kind.VOID, "The pool was dealt twice.")
    assert ruling.status == Ruling.Status.PROPOSED
    return ruling, mo


def test_a_change_confirmed_while_a_void_is_ruled_does_not_make_the_game_count_again(
    running: RunningSeason, bob_dave: Game, olga: User, bob: User
) -> None:
    change = _loser_far_behind(running, bob_dave)
    void, mo = _void_proposed(running, bob_dave, bob)

    with transaction.atomic():
        rulings.confirm(void.pk, olga)
        confirming = Meanwhile(
            lambda: adjustments.confirm(change.pk, mo), refusal=LeaguesError, name=str
        )
        assert confirming.waiting

    assert "changed since" in confirming.outcome()
    sources = set(Result.objects.current().of_game(bob_dave).values_list("source", flat=True))
    assert sources == {Result.Source.VOID}


def test_a_change_confirmed_after_a_void_is_refused(
    running: RunningSeason, bob_dave: Game, olga: User, bob: User
) -> None:
    change = _loser_far_behind(running, bob_dave)
    void, mo = _void_proposed(running, bob_dave, bob)
    rulings.confirm(void.pk, olga)

    with pytest.raises(LeaguesError, match="changed since"):
        adjustments.confirm(change.pk, mo)
    sources = set(Result.objects.current().of_game(bob_dave).values_list("source", flat=True))
    assert sources == {Result.Source.VOID}
