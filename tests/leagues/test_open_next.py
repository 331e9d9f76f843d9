"""The next matchday opens early when every fixture before it is done; a deadline
extended past the next matchday's opening warns."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from leagues.errors import Conflict
from leagues.models import Fixture, FixtureSeat, Matchday
from leagues.notices import LeagueNotice
from leagues.services.matchdays import open_next_matchday
from leagues.services.organiser import overlap_warning
from notifications.models import Notification
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db

PAGE = "/clubs/tile-club/winter/1/organiser/"
OPEN_NEXT = PAGE + "matchdays/next/open/"


def add_matchday_2(running: RunningSeason) -> Matchday:
    """Matchday 2, scheduled to open at matchday 1's deadline: the first player meets the
    third, the second the fourth (bob-erin and dave-alice in the folder's season)."""
    opens = running.matchday.deadline
    matchday = Matchday.objects.create(
        season=running.season, number=2, opens_at=opens, deadline=opens + timedelta(days=2)
    )
    first, second, third, fourth = running.entries
    for pair in ((first, third), (second, fourth)):
        fixture = Fixture.objects.create(matchday=matchday, division=running.division)
        for number, entry in enumerate(pair):
            FixtureSeat.objects.create(fixture=fixture, number=number, entry=entry)
    return matchday


def finish_matchday_1(running: RunningSeason) -> None:
    first, second = running.fixtures
    Fixture.objects.filter(pk=first.pk).update(status=Fixture.Status.FINISHED)
    Fixture.objects.filter(pk=second.pk).update(status=Fixture.Status.SETTLED)


def test_the_next_matchday_waits_while_a_fixture_before_it_is_unfinished(
    running: RunningSeason,
) -> None:
    following = add_matchday_2(running)
    Fixture.objects.filter(pk=running.fixtures[0].pk).update(status=Fixture.Status.FINISHED)

    with pytest.raises(Conflict, match="1 fixture before it is not finished yet"):
        open_next_matchday(running.season, running.organiser, "Everyone is done.")

    following.refresh_from_db()
    assert following.status == Matchday.Status.SCHEDULED
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN


def test_once_every_fixture_is_done_the_next_matchday_opens_now_and_keeps_its_deadline(
    running: RunningSeason, olga: User
) -> None:
    following = add_matchday_2(running)
    finish_matchday_1(running)
    before = timezone.now()

    # Olga: alice plays in matchday 2 (leagues.conflicts).
    opened = open_next_matchday(running.season, olga, "Everyone is done.")

    assert opened.pk == following.pk and opened.status == Matchday.Status.OPEN
    assert before <= opened.opens_at <= timezone.now()
    assert opened.deadline == following.deadline
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.CLOSED
    fixtures = list(opened.fixtures.select_related("table"))
    assert [f.status for f in fixtures] == [Fixture.Status.PLAYING] * 2
    assert all(f.table is not None and f.table.settles_at == opened.deadline for f in fixtures)
    told = Notification.objects.filter(
        kind=LeagueNotice.LEAGUE_MATCHDAY, key=f"league-matchday-{opened.pk}"
    )
    assert told.count() == 4
    event = Matchday.pgh_event_model.objects.filter(  # type: ignore[attr-defined]
        pgh_obj_id=opened.pk, opens_at=opened.opens_at
    ).first()
    assert event.pgh_context.metadata["reason"] == "Everyone is done."


def test_a_season_with_nothing_left_to_open_says_so(running: RunningSeason) -> None:
    finish_matchday_1(running)
    with pytest.raises(Conflict, match="open already"):
        open_next_matchday(running.season, running.organiser, "Everyone is done.")


def test_a_deadline_past_the_next_opening_is_warned_of(running: RunningSeason) -> None:
    following = add_matchday_2(running)
    matchday = running.matchday

    assert overlap_warning(matchday, following.opens_at) == ""
    warning = overlap_warning(matchday, following.opens_at + timedelta(hours=5))
    assert warning.startswith("Matchday 2 opens ")
    assert warning.endswith("until then its players play matchdays 1 and 2 at once.")


def test_the_organisers_page_extends_with_a_warning_and_opens_the_next_matchday(
    running: RunningSeason, client: Client, olga: User
) -> None:
    following = add_matchday_2(running)
    client.force_login(olga)  # alice plays in both matchdays (leagues.conflicts)
    page = client.get(PAGE).content.decode()
    assert "Matchday 2 opens " in page and "may open early once every fixture" in page

    later = following.opens_at + timedelta(hours=5)
    answer = client.post(
        PAGE + "matchdays/1/deadline/",
        {"deadline": later.strftime("%Y-%m-%dT%H:%M"), "reason": "Snow."},
        follow=True,
    )
    assert "deadline is extended" in answer.content.decode()
    assert "play matchdays 1 and 2 at once" in answer.content.decode()

    refused = client.post(OPEN_NEXT, {"reason": "Hurry."})
    assert refused.status_code == 409
    assert Matchday.objects.get(pk=following.pk).status == Matchday.Status.SCHEDULED

    finish_matchday_1(running)
    assert "Open matchday 2 now" in client.get(PAGE).content.decode()
    opened = client.post(OPEN_NEXT, {"reason": "Everyone is done."}, follow=True)
    assert "Matchday 2 is open now" in opened.content.decode()
    assert Matchday.objects.get(pk=following.pk).status == Matchday.Status.OPEN


def test_only_organisers_open_the_next_matchday(running: RunningSeason, client: Client) -> None:
    following = add_matchday_2(running)
    finish_matchday_1(running)
    client.force_login(running.players[0])  # bob, a member

    assert client.post(OPEN_NEXT, {"reason": "Let us go."}).status_code == 403
    assert Matchday.objects.get(pk=following.pk).status == Matchday.Status.SCHEDULED
