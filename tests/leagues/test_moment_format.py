"""One way to write a moment in notices and mails (``common.moments.when``): the day not
padded, the zone named, in the member's zone. The walk found "to finish by Tue 08 Dec,
23:23 CET" in a notice beside "due Tue 8 Dec, 23:23 CET"."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from leagues.models import Club, Fixture, Matchday
from leagues.notices import LeagueNotice
from leagues.services.matchdays import open_matchday
from notifications.models import Notification
from tests.conftest import client_as
from tests.leagues.conftest import make_season, scheduled_fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

EMAILS = Path(__file__).resolve().parents[2] / "templates" / "emails"
DUE = datetime(2026, 12, 8, 22, 23, tzinfo=UTC)
WRITTEN = "Tue 8 Dec, 23:23 CET"


def test_a_matchdays_notice_its_mail_and_the_list_write_its_deadline_alike(
    league_club: Club,
    alice: User,
    bob: User,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    User.objects.filter(pk=bob.pk).update(time_zone="Europe/Berlin")
    season = make_season(league_club, [alice, bob], seats=2)
    fixture = scheduled_fixture(season, 1, [alice, bob])
    Matchday.objects.filter(pk=fixture.matchday_id).update(deadline=DUE)
    Fixture.objects.filter(pk=fixture.pk).update(deadline=DUE)

    with django_capture_on_commit_callbacks(execute=True):
        open_matchday(fixture.matchday)

    notice = Notification.objects.get(user=bob, kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert notice.text.endswith(f"to finish by {WRITTEN}.")
    # Bob may also be told it is his turn, if the deal lets him start.
    (mail,) = [m for m in mailoutbox if m.to == [bob.email] and "finished by" in m.body]
    assert f"finished by {WRITTEN}." in mail.body
    page = client_as(bob).get(reverse("notifications:list")).text
    assert f"due {WRITTEN}" in page


def test_every_mail_writes_a_moment_with_the_one_filter() -> None:
    found = {
        (path.name, fmt)
        for path in EMAILS.glob("*.txt")
        for fmt in re.findall(r"\|date:[\"']([^\"']*)[\"']", path.read_text())
    }
    assert found == set()
    assert any("|when" in path.read_text() for path in EMAILS.glob("*.txt"))
