"""Rulings that change results: set the result, award a forfeit, void; dismiss and warn;
who may rule; superseding a ruling restores the standings exactly."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from leagues.models import Fixture, Membership, Role, Season
from leagues.selectors.standings import compute_season, season_results
from leagues.standings import Standings
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound
from moderation.models import Case, LogEntry, Ruling
from moderation.notices import ModerationNotice
from moderation.services.rulings import rule
from notifications.models import Notification
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


def claimed(case: Case, moderator: User) -> Case:
    """The claiming service is another helper's: here the claim is set directly."""
    case.claimed_by, case.claimed_at = moderator, timezone.now()
    case.save(update_fields=["claimed_by", "claimed_at"])
    return case


def standings(season: Season) -> list[Standings]:
    return [division.standings for division in compute_season(season)]


def rows(game: Game) -> dict[int, tuple[int, int, bool, str]]:
    return {
        row.seat: (row.score, row.place, row.is_winner, row.source)
        for row in Result.objects.current().of_game(game)
    }


@pytest.fixture
def league_case(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> Case:
    return claimed(open_case(league_game, bob, fixture=league_fixture), club_moderator)


def ruled(case: Case, by: User, kind: str, **kwargs: Any) -> Ruling:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return rule(case.pk, by, kind, kwargs.pop("note", "Seen in the move log."), **kwargs)


def test_setting_the_result_supersedes_the_rows_and_decides_the_case(
    league_case: Case, league_game: Game, club_moderator: User, running: RunningSeason
) -> None:
    before = standings(running.season)
    played = rows(league_game)
    winner = next(seat for seat, values in played.items() if values[2])
    loser = 1 - winner
    ruling = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SET_RESULT,
        details={"scores": {str(loser): 25, str(winner): -25}, "winner": loser},
    )
    assert ruling.status == Ruling.Status.APPLIED
    assert rows(league_game)[loser] == (25, 1, True, "ruling")
    assert rows(league_game)[winner] == (-25, 2, False, "ruling")
    league_case.refresh_from_db()
    assert league_case.status == Case.Status.DECIDED
    assert standings(running.season) != before
    entry = LogEntry.objects.get(case=league_case, action=LogEntry.Action.RULED)
    assert entry.actor == club_moderator
    assert entry.reason == "Seen in the move log."
    assert set(entry.changes["results"]) == {"0", "1"}


def test_superseding_a_ruling_restores_the_standings_exactly(
    league_case: Case, league_game: Game, club_moderator: User, running: RunningSeason
) -> None:
    before, played = standings(running.season), rows(league_game)
    winner = next(seat for seat, values in played.items() if values[2])
    first = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SET_RESULT,
        details={"scores": {str(winner): -40, str(1 - winner): 40}, "winner": 1 - winner},
    )
    assert standings(running.season) != before
    undo = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.DISMISS,
        supersedes_id=first.pk,
        note="The report was mistaken after all.",
    )
    assert standings(running.season) == before
    assert {s: v[:3] for s, v in rows(league_game).items()} == {s: v[:3] for s, v in played.items()}
    first.refresh_from_db()
    assert first.status == Ruling.Status.SUPERSEDED
    assert undo.supersedes == first
    assert LogEntry.objects.filter(case=league_case, action=LogEntry.Action.SUPERSEDED).count() == 1


def test_a_void_game_counts_for_nobody_until_a_ruling_restores_it(
    league_case: Case, league_game: Game, club_moderator: User, running: RunningSeason
) -> None:
    before = standings(running.season)
    void = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    assert {values[3] for values in rows(league_game).values()} == {"void"}
    assert not Result.objects.counting().of_game(league_game).exists()
    after = standings(running.season)[0]
    assert sum(row.games_played for row in after.rows) == 0
    # The season's results export still lists the game, as void.
    assert {line.source for line in season_results(running.season)} == {"void"}
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=void.pk)
    assert standings(running.season) == before


def test_a_forfeit_puts_one_seat_last_and_the_others_stand(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    played = rows(league_game)
    winner = next(seat for seat, values in played.items() if values[2])
    ruled(league_case, club_moderator, Ruling.Kind.FORFEIT, details={"seat": winner})
    after = rows(league_game)
    other = 1 - winner
    # The forfeiter is last, below the other seat, which wins; zero-sum stays zero-sum.
    assert after[winner][:3] == (min(v[0] for v in played.values()), 2, False)
    assert after[other][1:3] == (1, True)
    assert sum(v[0] for v in after.values()) == sum(v[0] for v in played.values())


def test_only_the_claiming_moderator_without_a_conflict_may_rule(
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    alice: User,
    club_moderator: User,
    running: RunningSeason,
) -> None:
    case = open_case(league_game, bob, fixture=league_fixture)
    with pytest.raises(NotAllowed, match="claimed"):
        rule(case.pk, club_moderator, Ruling.Kind.DISMISS, "No.")
    outsider = UserFactory(username="olly")
    with pytest.raises(NotFound):
        rule(case.pk, outsider, Ruling.Kind.DISMISS, "No.")
    claimed(case, alice)  # the owner shares the division with both players
    with pytest.raises(NotAllowed, match="play in Division 1"):
        rule(case.pk, alice, Ruling.Kind.DISMISS, "No.")
    claimed(case, club_moderator)
    with pytest.raises(ModerationError, match="note"):
        rule(case.pk, club_moderator, Ruling.Kind.DISMISS, "  ")
    assert not Ruling.objects.exists()
    assert not LogEntry.objects.exists()


def test_refusals_say_why_and_change_nothing(
    league_case: Case, club_moderator: User, bob: User
) -> None:
    kind = Ruling.Kind
    for what, details, message in [
        (kind.SET_RESULT, {"scores": {"0": "ten", "1": 3}}, "whole number"),
        (kind.SET_RESULT, {"scores": {"0": 1}}, "seat 2's score"),
        (kind.SET_RESULT, {"scores": {"0": 1, "1": 2}, "winner": 5}, "no seat 6"),
        (kind.FORFEIT, {}, "the seat that forfeits"),
        (kind.PAUSE, {}, "over"),
        (kind.REWIND, {"turn": 1}, "over"),
    ]:
        with pytest.raises(ModerationError, match=message):
            rule(league_case.pk, club_moderator, what, "Because.", details=details)
    with pytest.raises(ModerationError, match="Name the member"):
        rule(league_case.pk, club_moderator, kind.WARN, "Because.")
    stranger = UserFactory(username="stan")
    with pytest.raises(ModerationError, match="not a party"):
        rule(league_case.pk, club_moderator, kind.WARN, "Because.", target=stranger)
    assert not Ruling.objects.exists()


def test_a_warning_names_a_party_and_decides_the_case(
    league_case: Case, club_moderator: User, dave: User
) -> None:
    ruling = ruled(league_case, club_moderator, Ruling.Kind.WARN, target=dave)
    assert ruling.target == dave
    assert ruling.effects == {"decided": True}
    league_case.refresh_from_db()
    assert league_case.status == Case.Status.DECIDED


def test_a_decided_case_takes_only_rulings_that_supersede(
    league_case: Case, club_moderator: User
) -> None:
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS)
    with pytest.raises(Conflict, match="supersedes"):
        rule(league_case.pk, club_moderator, Ruling.Kind.VOID, "Then void it.")


def test_a_ruling_undone_only_in_the_order_it_was_made(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    played = {seat: values[:3] for seat, values in rows(league_game).items()}
    first = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    second = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SET_RESULT,
        supersedes_id=first.pk,
        details={"scores": {"0": 5, "1": -5}, "winner": 0},
    )
    assert rows(league_game)[0][:3] == (5, 1, True)
    with pytest.raises(Conflict, match="applied"):
        rule(league_case.pk, club_moderator, Ruling.Kind.DISMISS, "Again.", supersedes_id=first.pk)
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=second.pk)
    # Undoing the second brings back what it found: the void undone, the played result.
    assert {values[3] for values in rows(league_game).values()} == {"restored"}
    assert {seat: values[:3] for seat, values in rows(league_game).items()} == played


@pytest.fixture
def second_moderator(running: RunningSeason) -> User:
    user = UserFactory(username="max", display_name="Max")
    Membership.objects.create(club=running.club, user=user, role=Role.MODERATOR)
    return user


def test_a_standings_change_waits_for_a_second_moderator(
    league_case: Case,
    league_game: Game,
    club_moderator: User,
    second_moderator: User,
    running: RunningSeason,
) -> None:
    before, played = standings(running.season), rows(league_game)
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    assert ruling.status == Ruling.Status.PROPOSED
    assert rows(league_game) == played
    # The second moderator is asked; the proposer and the conflicted owner are not.
    asked = Notification.objects.filter(kind=ModerationNotice.MODERATION_QUEUE)
    assert [(n.user, n.link) for n in asked] == [
        (second_moderator, f"/moderation/rulings/{ruling.pk}/")
    ]
    assert standings(running.season) == before
    with pytest.raises(NotAllowed, match="second moderator"):
        confirm_it(ruling, club_moderator)
    confirmed = confirm_it(ruling, second_moderator)
    assert confirmed.status == Ruling.Status.APPLIED
    assert confirmed.confirmed_by == second_moderator
    assert {values[3] for values in rows(league_game).values()} == {"void"}
    actions = set(LogEntry.objects.filter(case=league_case).values_list("action", flat=True))
    assert {"proposed", "confirmed", "ruled"} <= actions


def test_a_declined_ruling_changes_nothing(
    league_case: Case, league_game: Game, club_moderator: User, second_moderator: User
) -> None:
    from moderation.services.rulings import decline

    played = rows(league_game)
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    with pytest.raises(ModerationError, match="why"):
        decline(ruling.pk, second_moderator, "")
    declined = decline(ruling.pk, second_moderator, "The evidence does not support it.")
    assert declined.status == Ruling.Status.DECLINED
    assert rows(league_game) == played
    league_case.refresh_from_db()
    assert league_case.status == Case.Status.OPEN
    with pytest.raises(Conflict):
        confirm_it(ruling, second_moderator)


def test_a_dismissal_needs_no_second_moderator(
    league_case: Case, club_moderator: User, second_moderator: User
) -> None:
    assert ruled(league_case, club_moderator, Ruling.Kind.DISMISS).status == Ruling.Status.APPLIED


def confirm_it(ruling: Ruling, by: User) -> Ruling:
    from moderation.services.rulings import confirm

    with TestCase.captureOnCommitCallbacks(execute=True):
        return confirm(ruling.pk, by)


def test_the_log_says_proposals_confirmations_and_refusals_as_sentences_with_names(
    league_case: Case, club_moderator: User, second_moderator: User
) -> None:
    from moderation.services.rulings import decline

    first = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    decline(first.pk, second_moderator, "The evidence does not support it.")
    second = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    confirm_it(second, second_moderator)
    summaries = dict(
        LogEntry.objects.filter(case=league_case)
        .exclude(action=LogEntry.Action.RULED)
        .values_list("action", "summary")
        .order_by("pk")
    )
    proposer, n = club_moderator.display_name, league_case.pk
    assert summaries["proposed"] == f"{proposer} proposed to void the game in case {n}."
    assert summaries["declined"] == (
        f"Max declined {proposer}'s ruling to void the game in case {n}: nothing of it happens."
    )
    assert summaries["confirmed"] == (
        f"Max confirmed {proposer}'s ruling to void the game in case {n}: it is applied."
    )
