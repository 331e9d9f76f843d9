"""An organiser's score change is a ruling in all but name (review wave 2, finding 5):
refused for a game the organiser plays in or is a party to a case about, waiting for a
second organiser or moderator of the club where one is free to decide it, applied
through superseding result rows on confirmation, nothing on a decline, at once where
nobody else could decide it. And the organisers' other tools refuse the fixtures the
organiser plays in: closing their matchday early, moving it, seating a substitute."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from games.services.adjudication import stop_round
from games.services.results import SeatCorrection, supersede
from leagues.errors import Conflict, LeaguesError, NotAllowed
from leagues.models import Entry, Fixture, Matchday, Membership, Role, ScoreAdjustment
from leagues.selectors.adjustments import deciders
from leagues.selectors.standings import compute_season
from leagues.services import adjustments
from leagues.services.deadlines import close_matchday
from leagues.services.organiser import replace_player, reschedule_fixture
from moderation.models import Category
from notifications.models import Notification
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db

Status = ScoreAdjustment.Status


def finished_game(fixture: Fixture) -> Game:
    """Game 1 of the fixture, finished (its round stopped)."""
    assert fixture.table_id is not None
    stop_round(fixture.table_id)
    return Game.objects.get(table_id=fixture.table_id, number=1)


@pytest.fixture
def bob_dave(running: RunningSeason) -> Game:
    return finished_game(running.fixtures[0])


@pytest.fixture
def erin_alice(running: RunningSeason) -> Game:
    return finished_game(running.fixtures[1])


def result_rows(game: Game) -> list[tuple[int, int, int | None]]:
    return list(Result.objects.filter(game=game).values_list("pk", "score", "supersedes_id"))


def points(running: RunningSeason) -> dict[str, str]:
    (division,) = compute_season(running.season)
    return {row.name: row.points_text for row in division.standings.rows}


def test_alice_cannot_set_the_score_of_her_own_game(
    running: RunningSeason, erin_alice: Game, olga: User
) -> None:
    alice, before = running.organiser, result_rows(erin_alice)
    with pytest.raises(NotAllowed, match=r"You play in the fixture at table \d+\."):
        adjustments.propose(running.season, erin_alice.pk, 1, 9999, alice, "typo")
    assert result_rows(erin_alice) == before
    assert not ScoreAdjustment.objects.exists()


def test_an_earlier_substitute_cannot_set_the_score_either(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    # olga played dave's seat for a while, then dave came back: she took part.
    dave_entry = running.entries[1]
    Entry.objects.filter(pk=dave_entry.pk).update(substitute=olga)
    Entry.objects.filter(pk=dave_entry.pk).update(substitute=None)
    with pytest.raises(NotAllowed, match=r"You play in the fixture at table \d+\."):
        adjustments.propose(running.season, bob_dave.pk, 0, 5, olga, "typo")


def test_a_party_to_a_case_about_the_game_cannot_set_its_score(
    running: RunningSeason, bob_dave: Game, bob: User
) -> None:
    alice = running.organiser
    open_case(bob_dave, bob, Category.COLLUSION, fixture=running.fixtures[0], accused=alice)
    with pytest.raises(NotAllowed, match=r"You are a party to a case about this game\."):
        adjustments.propose(running.season, bob_dave.pk, 0, 5, alice, "typo")
    assert not ScoreAdjustment.objects.exists()


def test_with_a_second_organiser_the_change_waits(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    alice, before, standings = running.organiser, result_rows(bob_dave), points(running)
    seat_1 = Result.objects.current().get(game=bob_dave, seat=1)

    change = adjustments.propose(running.season, bob_dave.pk, 1, -701, alice, "Miscounted.")

    assert (change.status, change.score_before, change.score) == (
        Status.PROPOSED,
        seat_1.score,
        -701,
    )
    assert result_rows(bob_dave) == before and points(running) == standings
    assert deciders(change) == [olga]
    assert Notification.objects.filter(user=olga, text__contains="proposes").exists()


def test_a_confirmation_supersedes_the_result_and_the_standings_follow(
    running: RunningSeason, bob_dave: Game, olga: User, bob: User, dave: User
) -> None:
    alice, standings = running.organiser, points(running)
    old = Result.objects.current().get(game=bob_dave, seat=1)
    change = adjustments.propose(running.season, bob_dave.pk, 1, -701, alice, "Miscounted.")

    with pytest.raises(NotAllowed, match="not the one who proposed it"):
        adjustments.confirm(change.pk, alice)
    confirmed = adjustments.confirm(change.pk, olga)

    assert (confirmed.status, confirmed.decided_by) == (Status.CONFIRMED, olga)
    new = Result.objects.current().get(game=bob_dave, seat=1)
    assert (new.score, new.supersedes_id, new.reason, new.decided_by) == (
        -701,
        old.pk,
        "Miscounted.",
        alice,
    )
    assert Result.objects.filter(pk=old.pk, score=old.score).exists()  # the old row stays
    assert points(running) != standings
    for user in (alice, bob, dave):
        assert Notification.objects.filter(user=user, text__contains="confirmed").exists()
    with pytest.raises(Conflict, match="confirmed by a second organiser"):
        adjustments.decline(change.pk, olga, "Too late.")


def test_a_decline_leaves_everything(
    running: RunningSeason, bob_dave: Game, olga: User, bob: User
) -> None:
    alice, before, standings = running.organiser, result_rows(bob_dave), points(running)
    change = adjustments.propose(running.season, bob_dave.pk, 1, -701, alice, "Miscounted.")

    with pytest.raises(LeaguesError, match="Say why"):
        adjustments.decline(change.pk, olga, " ")
    declined = adjustments.decline(change.pk, olga, "The rack was counted right.")

    assert (declined.status, declined.decision_note) == (
        Status.DECLINED,
        "The rack was counted right.",
    )
    assert result_rows(bob_dave) == before and points(running) == standings
    assert Notification.objects.filter(user=alice, text__contains="declined").exists()
    assert Notification.objects.filter(user=bob, text__contains="declined").exists()


def test_a_club_with_a_single_organiser_applies_at_once(
    running: RunningSeason, bob_dave: Game
) -> None:
    change = adjustments.propose(running.season, bob_dave.pk, 1, -702, running.organiser, "Typo.")
    assert (change.status, change.decided_by) == (Status.APPLIED, None)
    assert Result.objects.current().get(game=bob_dave, seat=1).score == -702


def test_a_second_organiser_in_conflict_does_not_count(
    running: RunningSeason, bob_dave: Game, dave: User
) -> None:
    # dave organises too, but he played the game: nobody else may decide it.
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.ORGANISER)
    change = adjustments.propose(running.season, bob_dave.pk, 1, -702, running.organiser, "Typo.")
    assert change.status == Status.APPLIED


def test_a_moderator_of_the_club_may_confirm(
    running: RunningSeason, bob_dave: Game, bob: User
) -> None:
    mo = UserFactory(username="mo")
    Membership.objects.create(club=running.club, user=mo, role=Role.MODERATOR)
    change = adjustments.propose(running.season, bob_dave.pk, 1, -702, running.organiser, "Typo.")
    with pytest.raises(NotAllowed, match="Only the club's organisers and moderators"):
        adjustments.confirm(change.pk, bob)
    assert adjustments.confirm(change.pk, mo).status == Status.CONFIRMED


def test_one_change_of_a_game_waits_at_a_time_and_a_stale_one_is_refused(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    alice = running.organiser
    change = adjustments.propose(running.season, bob_dave.pk, 1, -701, alice, "Miscounted.")
    with pytest.raises(Conflict, match="awaits a second organiser"):
        adjustments.propose(running.season, bob_dave.pk, 1, -5, olga, "Also.")
    # A ruling changed the seat meanwhile: olga was shown another score.
    supersede(bob_dave.pk, {1: SeatCorrection(score=-7)}, Result.Source.RULING, "Ruled.", None)
    with pytest.raises(Conflict, match="changed since"):
        adjustments.confirm(change.pk, olga)
    assert ScoreAdjustment.objects.get(pk=change.pk).status == Status.PROPOSED


def test_the_preview_shows_the_seat_and_the_standings_before_and_after(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    before = result_rows(bob_dave)
    change = adjustments.propose(running.season, bob_dave.pk, 1, -701, running.organiser, "x")
    preview = adjustments.preview(change)
    seat_1 = next(line for line in preview.seats if line.seat == 1)
    assert seat_1.after[0] == -701 and seat_1.changed
    assert preview.division == "Division 1" and any(line.changed for line in preview.standings)
    # A preview writes nothing.
    assert result_rows(bob_dave) == before
    assert ScoreAdjustment.objects.get(pk=change.pk).status == Status.PROPOSED


def current_scores(game: Game) -> dict[int, int]:
    return dict(Result.objects.current().of_game(game).values_list("seat", "score"))


def test_under_zero_sum_the_winners_score_follows_a_losers_and_the_sum_stays(
    running: RunningSeason, bob_dave: Game
) -> None:
    before = current_scores(bob_dave)
    winner = Result.objects.current().get(game=bob_dave, is_winner=True).seat
    loser = 1 - winner

    change = adjustments.propose(
        running.season, bob_dave.pk, loser, before[loser] - 5, running.organiser, "Miscounted."
    )

    after = current_scores(bob_dave)
    assert change.status == Status.APPLIED
    assert after == {loser: before[loser] - 5, winner: before[winner] + 5}
    assert sum(after.values()) == sum(before.values())
    row = Result.objects.current().get(game=bob_dave, seat=winner)
    assert (row.reason, row.supersedes_id is not None) == ("Miscounted.", True)
    told = Notification.objects.filter(text__contains="the winner's follows").first()
    assert told is not None


def test_under_zero_sum_the_winners_own_score_and_a_losers_gain_are_refused(
    running: RunningSeason, bob_dave: Game
) -> None:
    before = result_rows(bob_dave)
    winner = Result.objects.current().get(game=bob_dave, is_winner=True).seat
    alice = running.organiser
    with pytest.raises(LeaguesError, match="change a loser's score and the winner's follows"):
        adjustments.propose(running.season, bob_dave.pk, winner, 700, alice, "Typo.")
    with pytest.raises(LeaguesError, match="0 or less"):
        adjustments.propose(running.season, bob_dave.pk, 1 - winner, 3, alice, "Typo.")
    assert result_rows(bob_dave) == before and not ScoreAdjustment.objects.exists()


def test_a_proposal_shows_the_winner_moving_the_other_way(
    running: RunningSeason, bob_dave: Game, olga: User
) -> None:
    before = current_scores(bob_dave)
    winner = Result.objects.current().get(game=bob_dave, is_winner=True).seat
    loser = 1 - winner
    change = adjustments.propose(
        running.season, bob_dave.pk, loser, before[loser] + 4, running.organiser, "x"
    )
    lines = {line.seat: line for line in adjustments.preview(change).seats}
    assert lines[winner].after[0] == before[winner] - 4 and lines[winner].changed
    assert current_scores(bob_dave) == before


def test_under_penalty_points_only_the_seat_changes(running: RunningSeason, bob_dave: Game) -> None:
    Game.objects.filter(pk=bob_dave.pk).update(
        ruleset={**bob_dave.ruleset, "score_mode": "penalty_only"}
    )
    before = current_scores(bob_dave)
    winner = Result.objects.current().get(game=bob_dave, is_winner=True).seat

    adjustments.propose(running.season, bob_dave.pk, 1 - winner, 33, running.organiser, "Typo.")

    assert current_scores(bob_dave) == {**before, 1 - winner: 33}


# --- the other tools -------------------------------------------------------------------


def test_an_organiser_does_not_close_early_a_matchday_they_play_in(
    running: RunningSeason, olga: User
) -> None:
    with pytest.raises(NotAllowed, match=r"You play in the fixture at table \d+\. It is still"):
        close_matchday(running.matchday, running.organiser, "Early.")
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN
    assert not Fixture.objects.filter(status=Fixture.Status.SETTLED).exists()
    # Once the deadline has passed, closing settles nothing early.
    Matchday.objects.filter(pk=running.matchday.pk).update(
        opens_at=timezone.now() - timedelta(days=3), deadline=timezone.now() - timedelta(hours=1)
    )
    assert close_matchday(running.matchday, running.organiser, "Due.").status == "closed"


def test_an_organiser_does_not_move_a_fixture_they_play_in(
    running: RunningSeason, olga: User
) -> None:
    own = running.fixtures[1]
    later = timezone.now() + timedelta(days=5)
    with pytest.raises(NotAllowed, match="You play in the fixture at table"):
        reschedule_fixture(own, later, running.organiser, "Busy.")
    assert Fixture.objects.get(pk=own.pk).deadline is None
    assert reschedule_fixture(own, later, olga, "Alice is busy.").deadline == later
    assert reschedule_fixture(running.fixtures[0], later, running.organiser, "Ok.").deadline


def test_an_organiser_does_not_seat_themself_in_a_game_in_play(
    running: RunningSeason, olga: User
) -> None:
    bob_entry = running.entries[0]
    with pytest.raises(NotAllowed, match="You would take a seat in a game in play"):
        replace_player(bob_entry, olga, olga, "I will play it.")
    assert Entry.objects.get(pk=bob_entry.pk).substitute is None


def test_an_organiser_does_not_replace_their_opponent(running: RunningSeason) -> None:
    erin_entry = running.entries[2]
    frank = UserFactory(username="frank")
    Membership.objects.create(club=running.club, user=frank)
    with pytest.raises(NotAllowed, match="You play in the fixture at table"):
        replace_player(erin_entry, frank, running.organiser, "Erin is slow.")
    assert Entry.objects.get(pk=erin_entry.pk).substitute is None
