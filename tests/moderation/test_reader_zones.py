"""Issue 26: moderation's times in the reader's zone, the zone named. A moderator in
Tokyo reads a suspension's end in Tokyo time on the ruling's page and on the member's
record; the member suspended, in Lisbon, is refused "until" his own time; the log, one
record for every reader, keeps its words in UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import dateformat

from accounts.models import User
from games.models import Game
from moderation.models import SITE_FORMAT, Case, Category, LogEntry, Ruling, Suspension
from moderation.services.rulings import rule
from tests.conftest import client_as
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed

pytestmark = pytest.mark.django_db

TOKYO, LISBON = ZoneInfo("Asia/Tokyo"), ZoneInfo("Europe/Lisbon")


def written(moment: datetime, zone: ZoneInfo) -> str:
    return dateformat.format(moment.astimezone(zone), SITE_FORMAT)


@pytest.fixture
def suspension(casual_game: Game, alice: User, bob: User, site_moderator: User) -> Suspension:
    """Bob suspended from the site for two days by Sid, a moderator in Tokyo; Bob lives
    in Lisbon."""
    User.objects.filter(pk=site_moderator.pk).update(time_zone="Asia/Tokyo")
    User.objects.filter(pk=bob.pk).update(time_zone="Europe/Lisbon")
    case: Case = claimed(open_case(casual_game, alice, Category.ABUSE, accused=bob), site_moderator)
    ruling = rule(
        case.pk,
        site_moderator,
        Ruling.Kind.SUSPEND,
        "Insults.",
        details={"scope": "site", "days": 2},
        target=bob,
    )
    return Suspension.objects.get(ruling=ruling)


def read(user: User, path: str) -> str:
    response = client_as(User.objects.get(pk=user.pk)).get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_moderator_reads_a_suspensions_end_in_their_zone_the_zone_named(
    suspension: Suspension, site_moderator: User
) -> None:
    ends = written(suspension.ends_at, TOKYO)
    assert ends.endswith(" JST")

    ruling_page = read(site_moderator, reverse("moderation:ruling", args=[suspension.ruling_id]))
    record = read(site_moderator, reverse("moderation:member", args=["bob"]))

    assert f"Bob was suspended from the whole site until {ends}." in ruling_page
    assert f" to {ends}." in record
    for page in (ruling_page, record):
        assert written(suspension.ends_at, UTC) not in page


def test_the_suspended_member_is_told_until_when_in_his_own_zone(
    suspension: Suspension, casual_game: Game, bob: User
) -> None:
    page = read(bob, reverse("games:game", kwargs={"pk": casual_game.pk}))

    ends = written(suspension.ends_at, LISBON)
    assert ends.endswith((" WET", " WEST"))
    assert f"You are suspended from this site until {ends}" in page


def test_the_log_keeps_a_suspensions_end_in_utc_for_every_reader(
    suspension: Suspension, site_moderator: User
) -> None:
    entry = LogEntry.objects.get(action=LogEntry.Action.RULED, changes__ruling=suspension.ruling_id)

    ends = written(suspension.ends_at, UTC)
    assert f"Bob was suspended from the whole site until {ends}." in entry.changes["effects"]
