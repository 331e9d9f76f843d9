"""Claiming a case: others see it claimed, conflicts are refused with their sentences,
release, "next case", and a claim left unseen lapses."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.errors import Conflict, NotAllowed, NotFound
from moderation.models import Case, Category, LogEntry
from moderation.selectors.queue import queue
from moderation.services import claims
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    return open_case(league_game, bob, fixture=league_fixture)


@pytest.fixture
def second_moderator(running: RunningSeason) -> User:
    user = UserFactory(username="meg", display_name="Meg")
    Membership.objects.create(club=running.club, user=user, role=Role.MODERATOR)
    return user


def test_a_moderator_claims_a_case_and_others_see_it_claimed(
    case: Case, club_moderator: User, second_moderator: User
) -> None:
    claims.claim(case.pk, club_moderator)

    case.refresh_from_db()
    assert case.claimed_by == club_moderator
    assert case.claim_seen_at == case.claimed_at
    [entry] = queue(second_moderator)
    assert entry.holder == club_moderator
    assert not entry.may_take(second_moderator)
    with pytest.raises(Conflict, match="Mo claimed this case"):
        claims.claim(case.pk, second_moderator)
    assert LogEntry.objects.filter(case=case, action="claimed", actor=club_moderator).exists()


def test_claiming_again_keeps_ones_claim(case: Case, club_moderator: User) -> None:
    claims.claim(case.pk, club_moderator)
    claims.claim(case.pk, club_moderator)
    assert LogEntry.objects.filter(action="claimed").count() == 1


def test_a_moderator_who_sat_at_the_table_cannot_claim(
    running: RunningSeason, case: Case, dave: User
) -> None:
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    with pytest.raises(NotAllowed, match="You sat at this game's table"):
        claims.claim(case.pk, dave)
    case.refresh_from_db()
    assert case.claimed_by is None


def test_an_outsider_cannot_know_of_the_case(case: Case, erin: User) -> None:
    with pytest.raises(NotFound):
        claims.claim(case.pk, UserFactory())
    with pytest.raises(NotFound):
        claims.claim(case.pk + 1000, erin)


def test_a_decided_case_is_not_claimed(case: Case, club_moderator: User) -> None:
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    with pytest.raises(Conflict, match="decided already"):
        claims.claim(case.pk, club_moderator)


def test_only_the_holder_releases(case: Case, club_moderator: User, second_moderator: User) -> None:
    claims.claim(case.pk, club_moderator)
    with pytest.raises(Conflict, match="You do not hold this case"):
        claims.release(case.pk, second_moderator)
    claims.release(case.pk, club_moderator)
    case.refresh_from_db()
    assert case.claimed_by is None
    claims.claim(case.pk, second_moderator)


def test_a_claim_unseen_too_long_lapses_and_another_may_take_it(
    case: Case, club_moderator: User, second_moderator: User
) -> None:
    claims.claim(case.pk, club_moderator)
    later = timezone.now() + timedelta(minutes=31)
    with time_machine.travel(later, tick=False):
        [entry] = queue(second_moderator)
        assert entry.holder is None
        claims.claim(case.pk, second_moderator)
    case.refresh_from_db()
    assert case.claimed_by == second_moderator
    assert LogEntry.objects.filter(case=case, action="lapsed", actor=None).count() == 1


def test_seeing_the_case_keeps_the_claim(case: Case, club_moderator: User) -> None:
    claims.claim(case.pk, club_moderator)
    with time_machine.travel(timezone.now() + timedelta(minutes=20), tick=False):
        claims.mark_seen(Case.objects.get(pk=case.pk), club_moderator)
    with time_machine.travel(timezone.now() + timedelta(minutes=40), tick=False):
        assert claims.lapse_claims() == []
    with time_machine.travel(timezone.now() + timedelta(minutes=51), tick=False):
        assert claims.lapse_claims() == [case.pk]
    case.refresh_from_db()
    assert case.claimed_by is None


def test_next_case_takes_the_best_case_one_may_take(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    casual_game: Game,
    bob: User,
    alice: User,
    dave: User,
    site_moderator: User,
) -> None:
    casual = open_case(casual_game, alice)  # running: the highest priority
    league = open_case(league_game, bob, Category.OTHER, fixture=league_fixture)
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)

    assert claims.claim_next(dave) is None  # he sat at the only case his club has
    assert claims.claim_next(site_moderator) == casual
    assert claims.claim_next(site_moderator) == casual  # held already: still the best
    claims.claim(league.pk, site_moderator)
    other = UserFactory()
    other.groups.add(*site_moderator.groups.all())
    assert claims.claim_next(other) is None
