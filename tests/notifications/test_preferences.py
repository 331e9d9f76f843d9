"""The email preferences on the notices page: when the daily digest comes, in the
member's own zone, and the moderators' kind offered to moderators only."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Membership, Role
from moderation.models import SITE_MODERATORS
from notifications.models import Delivery, NotificationPreference
from tests.conftest import client_as
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

LIST = reverse("notifications:list")
SAVE = reverse("notifications:preferences")
QUEUE_LABEL = "Cases to moderate"
MORNING = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


def page_of(member: User) -> str:
    response = client_as(member).get(LIST)
    assert response.status_code == 200
    return response.text


@time_machine.travel(MORNING, tick=False)
@pytest.mark.parametrize(
    ("zone", "shown"),
    [("Europe/Berlin", "08:00 CET"), ("Asia/Tokyo", "16:00 JST"), ("UTC", "07:00 UTC")],
)
def test_the_page_says_when_the_digest_comes_in_the_members_zone(zone: str, shown: str) -> None:
    member = UserFactory(time_zone=zone)

    page = page_of(member)

    # Sent at 07:00 UTC (GAMES_DIGEST_HOUR): at 10:00 UTC the next one is tomorrow's.
    assert 'around <time datetime="2026-12-08T' in page
    assert f">{shown}</time> your time" in page


@time_machine.travel(MORNING, tick=False)
def test_a_different_digest_hour_is_told_as_set(settings: object, alice: User) -> None:
    settings.GAMES_DIGEST_HOUR = 18  # type: ignore[attr-defined]
    alice.time_zone = "Europe/Berlin"
    alice.save(update_fields=["time_zone"])

    assert ">19:00 CET</time> your time" in page_of(alice)


def test_a_member_who_moderates_nothing_is_not_offered_the_moderators_kind(alice: User) -> None:
    assert QUEUE_LABEL not in page_of(alice)


@pytest.fixture
def site_moderator() -> User:
    user = UserFactory(username="sid")
    user.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    return user


def test_a_site_moderator_is_offered_the_moderators_kind(site_moderator: User) -> None:
    assert QUEUE_LABEL in page_of(site_moderator)


def test_a_club_moderator_is_offered_the_moderators_kind(alice: User) -> None:
    club = ClubFactory()
    Membership.objects.create(club=club, user=alice, role=Role.MODERATOR)

    assert QUEUE_LABEL in page_of(alice)


def test_a_clubs_plain_member_is_not_offered_it(alice: User) -> None:
    Membership.objects.create(club=ClubFactory(), user=alice, role=Role.MEMBER)

    assert QUEUE_LABEL not in page_of(alice)


def test_a_member_cannot_set_the_moderators_kind_by_posting_it(alice: User) -> None:
    response = client_as(alice).post(
        SAVE, {"moderation_queue": Delivery.NEVER, "your_turn": Delivery.DIGEST}
    )

    assert response.status_code == 302
    chosen = dict(NotificationPreference.objects.filter(user=alice).values_list("kind", "delivery"))
    assert chosen == {"your_turn": Delivery.DIGEST}


def test_a_moderator_sets_the_moderators_kind(site_moderator: User) -> None:
    response = client_as(site_moderator).post(SAVE, {"moderation_queue": Delivery.DIGEST})

    assert response.status_code == 302
    assert NotificationPreference.objects.get(user=site_moderator).delivery == Delivery.DIGEST


def test_a_visitor_is_sent_to_log_in_and_the_preferences_take_posts_only(
    client: Client, alice: User
) -> None:
    assert client.get(LIST).status_code == 302
    assert client.post(SAVE, {"your_turn": Delivery.NEVER}).status_code == 302
    assert client_as(alice).get(SAVE).status_code == 405
    assert not NotificationPreference.objects.exists()
