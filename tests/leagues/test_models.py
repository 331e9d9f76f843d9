"""The league models' constraints, and the history their rows keep."""

from __future__ import annotations

import pghistory
import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.models.table_settings import TableSettings
from leagues.models import (
    Club,
    ClubInvitation,
    Entry,
    JoinRequest,
    League,
    Matchday,
    Membership,
    Role,
    Season,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(alice: User) -> League:
    club = Club.objects.create(name="Tile Club", slug="tile-club")
    Membership.objects.create(club=club, user=alice, role=Role.OWNER)
    return League.objects.create(
        club=club, name="Winter", slug="winter", seats=3, table_settings=TableSettings().to_dict()
    )


def test_a_club_name_is_unique_whatever_its_case(league: League) -> None:
    with pytest.raises(IntegrityError):
        Club.objects.create(name="TILE CLUB", slug="other")


def test_a_club_has_one_owner(league: League, bob: User) -> None:
    with pytest.raises(IntegrityError):
        Membership.objects.create(club=league.club, user=bob, role=Role.OWNER)


def test_one_pending_invitation_and_request_per_member(
    league: League, alice: User, bob: User
) -> None:
    ClubInvitation.objects.create(club=league.club, user=bob, invited_by=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubInvitation.objects.create(club=league.club, user=bob, invited_by=alice)
    JoinRequest.objects.create(club=league.club, user=bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        JoinRequest.objects.create(club=league.club, user=bob)
    JoinRequest.objects.filter(user=bob).update(status="declined")
    JoinRequest.objects.create(club=league.club, user=bob)


def test_a_season_copies_the_house_rules_and_a_league_runs_one_at_a_time(league: League) -> None:
    season = Season.objects.create(league=league, number=1, **league.house_rules())
    assert season.seats == 3
    assert season.tiebreaks == league.tiebreaks
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(league=league, number=2, **league.house_rules())
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    Season.objects.create(league=league, number=2, **league.house_rules())


def test_a_matchday_deadline_follows_its_opening(league: League) -> None:
    season = Season.objects.create(league=league, number=1, **league.house_rules())
    now = timezone.now()
    with pytest.raises(IntegrityError):
        Matchday.objects.create(season=season, number=1, opens_at=now, deadline=now)


def test_changes_to_an_entry_are_kept_with_their_reason(league: League, bob: User) -> None:
    season = Season.objects.create(league=league, number=1, **league.house_rules())
    entry = Entry.objects.create(season=season, user=bob)
    with pghistory.context(reason="withdrew by email"):
        entry.status = Entry.Status.WITHDRAWN
        entry.save()
    events = list(pghistory.models.Events.objects.references(entry).order_by("pgh_created_at"))
    assert [event.pgh_label for event in events] == ["insert", "update"]
    assert events[-1].pgh_context["reason"] == "withdrew by email"
    assert events[-1].pgh_data["status"] == "withdrawn"
