"""The preferences on the notices page: the hour of the daily digest and quiet hours,
chosen and shown on the member's own clocks, and the moderators' kind offered to
moderators only."""

from datetime import UTC, datetime, time

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Membership, Role
from moderation.models import SITE_MODERATORS
from notifications.models import Delivery, NotificationPreference
from notifications.services.notices import set_hours
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
    ("zone", "shown", "moment"),
    [
        ("Europe/Berlin", "Tue 8 Dec, 08:00 CET", "2026-12-08T08:00:00+01:00"),
        ("Asia/Tokyo", "Tue 8 Dec, 08:00 JST", "2026-12-08T08:00:00+09:00"),
        ("UTC", "Tue 8 Dec, 08:00 UTC", "2026-12-08T08:00:00+00:00"),
        ("America/New_York", "Mon 7 Dec, 08:00 EST", "2026-12-07T08:00:00-05:00"),
    ],
)
def test_the_page_says_when_the_digest_comes_in_the_members_zone(
    zone: str, shown: str, moment: str
) -> None:
    member = UserFactory(time_zone=zone)

    page = page_of(member)

    # At 08:00 of each member's day: at 10:00 UTC it came already in Berlin and Tokyo.
    assert f'Your next digest comes <time datetime="{moment}">{shown}</time>' in page
    assert f"Times of your day in {zone}, your time zone" in page
    assert '<option value="8" selected>08:00</option>' in page


@time_machine.travel(MORNING, tick=False)
def test_a_different_digest_hour_is_told_as_set(alice: User) -> None:
    alice.time_zone, alice.digest_hour = "Europe/Berlin", 19
    alice.save(update_fields=["time_zone", "digest_hour"])

    assert ">Mon 7 Dec, 19:00 CET</time>" in page_of(alice)


@time_machine.travel(datetime(2026, 12, 7, 23, 0, tzinfo=UTC), tick=False)
def test_the_page_says_until_when_it_is_quiet_in_the_members_zone(alice: User) -> None:
    set_hours(alice, 8, time(22), time(7))
    alice.time_zone = "Europe/Berlin"
    alice.save(update_fields=["time_zone"])

    page = page_of(alice)

    assert ">Quiet now, until <time" in page and ">Tue 8 Dec, 07:00 CET</time>" in page
    assert 'name="quiet_from" value="22:00"' in page
    assert 'name="quiet_until" value="07:00"' in page


def test_a_member_chooses_the_digest_hour_and_quiet_hours(alice: User) -> None:
    response = client_as(alice).post(
        SAVE, {"digest_hour": "9", "quiet_from": "22:30", "quiet_until": "06:45"}
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.digest_hour, alice.quiet_from, alice.quiet_until) == (
        9,
        time(22, 30),
        time(6, 45),
    )
    assert not NotificationPreference.objects.exists()


def test_quiet_hours_given_empty_are_none(alice: User) -> None:
    set_hours(alice, 8, time(22), time(7))

    response = client_as(alice).post(SAVE, {"quiet_from": "", "quiet_until": ""})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.digest_hour, alice.quiet_from, alice.quiet_until) == (8, None, None)


def test_a_form_without_the_hours_keeps_them(alice: User) -> None:
    set_hours(alice, 6, time(23), time(5))

    response = client_as(alice).post(SAVE, {"your_turn": Delivery.DIGEST})

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.digest_hour, alice.quiet_from, alice.quiet_until) == (6, time(23), time(5))


@pytest.mark.parametrize(
    ("posted", "field", "message"),
    [
        ({"quiet_from": "22:00", "quiet_until": ""}, "quiet_until", "Give both ends"),
        ({"quiet_from": "", "quiet_until": "07:00"}, "quiet_from", "Give both ends"),
        ({"quiet_from": "07:00", "quiet_until": "07:00"}, "quiet_until", "end at another time"),
        ({"quiet_from": "25:00", "quiet_until": "07:00"}, "quiet_from", "Enter a valid time"),
        ({"digest_hour": "24"}, "digest_hour", "Select a valid choice"),
        (
            {"digest_hour": "6", "quiet_from": "22:00", "quiet_until": "07:00"},
            "digest_hour",
            "That hour is in your quiet hours: choose one from 07:00 to 22:00.",
        ),
        (
            {"digest_hour": "23", "quiet_from": "22:00", "quiet_until": "07:00"},
            "digest_hour",
            "That hour is in your quiet hours",
        ),
    ],
)
def test_hours_that_cannot_be_are_refused_by_their_field(
    alice: User, posted: dict[str, str], field: str, message: str
) -> None:
    response = client_as(alice).post(SAVE, posted)

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert message in " ".join(errors[field])
    assert message.split(":")[0] in response.text
    alice.refresh_from_db()
    assert (alice.digest_hour, alice.quiet_from, alice.quiet_until) == (8, None, None)


def test_the_database_refuses_half_quiet_hours(alice: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=alice.pk).update(quiet_from=time(22))
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=alice.pk).update(digest_hour=24)


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
