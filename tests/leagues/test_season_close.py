"""A season closes only when it is meant to: by its organiser's confirmation from the
preview, or at a close announced in advance after the grace period of the house rules;
never because its last matchday closed. The last matchday's preview says what follows."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.errors import Conflict, LeaguesError
from leagues.models import Matchday, Season
from leagues.services.deadlines import preview_close_matchday
from leagues.services.season_end import (
    announce_close,
    close_announced_season,
    close_season,
    preview_close_season,
)
from leagues.tasks import run_seasons
from notifications.models import Notification
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def test_without_an_organiser_only_an_announced_close_that_is_due_closes_a_season(
    running: RunningSeason,
) -> None:
    late = running.matchday.deadline + timedelta(days=30)
    with pytest.raises(Conflict, match="when an organiser confirms it, or at the close"):
        close_season(running.season, None, "Every matchday is closed.", due_by=late)
    assert close_announced_season(running.season.pk, late) is None
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.RUNNING


def test_the_organisers_confirmation_closes_the_season_at_once(
    running: RunningSeason, olga: User
) -> None:
    with time_machine.travel(running.matchday.deadline + timedelta(minutes=1)):
        run_seasons()  # the last matchday closes; the season waits
        assert Season.objects.get(pk=running.season.pk).status == Season.Status.RUNNING
        # Olga: alice plays in the season (leagues.conflicts).
        close_season(running.season, olga, "The last matchday is over.")
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.FINISHED


def test_a_close_is_announced_once_for_the_grace_period_after_the_last_deadline(
    running: RunningSeason,
) -> None:
    preview = preview_close_season(running.season)
    assert preview.announce_for == running.matchday.deadline + timedelta(hours=48)
    with pytest.raises(LeaguesError, match="Say why"):
        announce_close(running.season, running.organiser, " ")
    announced = announce_close(running.season, running.organiser, "Over.")
    assert announced.closes_at == preview.announce_for
    with pytest.raises(Conflict, match="announced already"):
        announce_close(running.season, running.organiser, "Again.")


def test_an_organiser_may_still_close_an_announced_season_earlier(
    running: RunningSeason, olga: User
) -> None:
    announce_close(running.season, running.organiser, "Over.")
    with time_machine.travel(running.matchday.deadline + timedelta(minutes=1)):
        close_season(running.season, olga, "Nobody disputes anything.")
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.FINISHED


def test_the_last_matchdays_preview_says_the_season_does_not_close_with_it(
    running: RunningSeason,
) -> None:
    then = preview_close_matchday(running.matchday).then
    assert then.startswith("This is the season's last matchday. Closing it does not close")
    assert "only when an organiser closes the season from its own preview" in then

    announced = announce_close(running.season, running.organiser, "Over.")
    running.matchday.refresh_from_db()
    running.matchday.season = announced
    then = preview_close_matchday(running.matchday).then
    assert "the season closes as announced, on" in then and "disputes" in then


def test_an_earlier_matchdays_preview_says_nothing_of_the_season(running: RunningSeason) -> None:
    later = running.matchday.deadline + timedelta(days=7)
    Matchday.objects.create(
        season=running.season, number=2, opens_at=later - timedelta(days=1), deadline=later
    )
    assert preview_close_matchday(running.matchday).then == ""


# --- the pages --------------------------------------------------------------------------


def _url(running: RunningSeason, name: str) -> str:
    league = running.season.league
    return reverse(f"leagues:{name}", args=[league.club.slug, league.slug, 1])


def test_the_organiser_announces_the_close_from_the_close_preview(
    running: RunningSeason, client: Client
) -> None:
    client.force_login(running.organiser)
    page = client.get(_url(running, "close_season"))
    assert page.status_code == 200
    assert "Announce the close" in page.text and "changes only through a moderators" in page.text

    done = client.post(_url(running, "announce_close"), {"reason": "The last matchday is over."})
    assert done.status_code == 302
    assert Season.objects.get(pk=running.season.pk).closes_at is not None
    again = client.get(_url(running, "close_season"))
    assert "The season's close is announced for" in again.text
    bob = running.players[0]
    assert Notification.objects.filter(user=bob, key__startswith="season-close-announced").exists()


def test_the_close_matchday_page_says_what_follows(running: RunningSeason, client: Client) -> None:
    client.force_login(running.organiser)
    league = running.season.league
    url = reverse("leagues:close_matchday", args=[league.club.slug, league.slug, 1, 1])
    page = client.get(url)
    assert page.status_code == 200
    assert "Closing it does not close the season" in page.text


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_an_organiser_announces_a_close(
    running: RunningSeason, client: Client, who: str, rival: User
) -> None:
    client.force_login(running.players[0] if who == "player" else rival)
    refused = client.post(_url(running, "announce_close"), {"reason": "Mine."})
    assert refused.status_code in (403, 404)
    assert Season.objects.get(pk=running.season.pk).closes_at is None


def test_announcing_a_close_takes_a_post(running: RunningSeason, client: Client) -> None:
    client.force_login(running.organiser)
    assert client.get(_url(running, "announce_close")).status_code == 405
