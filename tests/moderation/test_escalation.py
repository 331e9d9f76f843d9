"""A case never expires silently: past its time it escalates to the club's owner, then
the site moderators, who are told; the beat job also frees lapsed claims."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import Case, LogEntry
from moderation.services import claims
from moderation.services.escalation import escalate_overdue
from moderation.tasks import sweep_cases
from notifications.models import Notification
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


def later(hours: float) -> time_machine.travel:
    return time_machine.travel(timezone.now() + timedelta(hours=hours), tick=False)


def test_a_clubs_case_escalates_to_its_owner_then_the_site(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    site_moderator: User,
) -> None:
    # The club passed to olga, who plays in no division (the organiser shares one with
    # the parties: see the test after this one).
    Membership.objects.filter(club=running.club, role=Role.OWNER).update(role=Role.MODERATOR)
    olga = UserFactory(username="olga", display_name="Olga")
    Membership.objects.create(club=running.club, user=olga, role=Role.OWNER)
    case = open_case(league_game, bob, fixture=league_fixture)
    with later(47):
        assert escalate_overdue() == []
    with later(49):
        assert escalate_overdue() == [case.pk]
        assert escalate_overdue() == []  # once per step
    case.refresh_from_db()
    assert case.escalation == Case.Escalation.CLUB_OWNER
    [told] = Notification.objects.filter(kind="moderation_queue")
    assert told.user == olga
    assert told.link == f"/moderation/cases/{case.pk}/"
    assert "escalated to the club's owner" in told.text

    with later(49 + 49):
        assert escalate_overdue() == [case.pk]
    case.refresh_from_db()
    assert case.escalation == Case.Escalation.SITE
    assert Notification.objects.filter(kind="moderation_queue", user=site_moderator).exists()
    assert LogEntry.objects.filter(case=case, action="escalated").count() == 2
    with later(200):
        assert escalate_overdue() == []


@pytest.fixture
def league_case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    return open_case(league_game, bob, fixture=league_fixture)


def test_a_case_whose_owner_has_a_conflict_goes_to_the_site_moderators_at_once(
    league_case: Case, site_moderator: User
) -> None:
    # The club's owner (the organiser) shares a division with the case's parties.
    case = league_case
    with later(settings.MODERATION_ESCALATE_HOURS + 1):
        assert escalate_overdue() == [case.pk]
    case.refresh_from_db()
    assert case.escalation == Case.Escalation.SITE
    told = Notification.objects.filter(kind="moderation_queue")
    assert list(told.values_list("user", flat=True)) == [site_moderator.pk]
    assert "escalated to the site moderators" in told[0].text


def test_a_casual_games_case_escalates_to_the_site_moderators(
    casual_game: Game, alice: User, site_moderator: User
) -> None:
    case = open_case(casual_game, alice)
    with later(settings.MODERATION_ESCALATE_HOURS + 1):
        escalate_overdue()
    case.refresh_from_db()
    assert case.escalation == Case.Escalation.SITE
    assert Notification.objects.get(kind="moderation_queue").user == site_moderator


def test_a_decided_case_does_not_escalate(casual_game: Game, alice: User) -> None:
    case = open_case(casual_game, alice)
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    with later(100):
        assert escalate_overdue() == []


def test_the_beat_job_frees_lapsed_claims_and_escalates(
    casual_game: Game, alice: User, site_moderator: User
) -> None:
    case = open_case(casual_game, alice)
    claims.claim(case.pk, site_moderator)
    with later(49):
        sweep_cases()
    case.refresh_from_db()
    assert case.claimed_by is None
    assert case.escalation == Case.Escalation.SITE
    assert "moderation-sweep-cases" in settings.CELERY_BEAT_SCHEDULE
