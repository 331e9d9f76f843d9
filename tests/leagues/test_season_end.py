"""Closing a season: its preview, the matchdays it closes, and the next season proposed
with promotion and relegation."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from leagues.errors import LeaguesError, NotAllowed
from leagues.models import Division, Entry, Fixture, League, Matchday, Role, Season
from leagues.notices import LeagueNotice
from leagues.selectors.standings import compute_season
from leagues.services.season_end import close_season, final_order, preview_close_season
from notifications.models import Delivery, Notification
from notifications.services.notices import set_preference
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason, _fixture, running_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_divisions(alice: User, bob: User, dave: User, erin: User) -> RunningSeason:
    """Division 1: bob-dave and erin-alice; division 2: four more players; one game a
    fixture, promotion 1; matchday 2 scheduled, never opened."""
    running = running_season(alice, [bob, dave, erin, alice], games=1)
    season = running.season
    Season.objects.filter(pk=season.pk).update(promotion=1, division_size=4)
    # The next season's divisions follow the league's house rules.
    League.objects.filter(pk=season.league_id).update(division_size=4)
    season.refresh_from_db()
    lower = Division.objects.create(season=season, level=2, name="Division 2")
    others = [UserFactory() for _ in range(4)]
    for user in others:
        running.club.memberships.create(user=user)
    entries = [
        Entry.objects.create(season=season, user=user, division=lower, seed=n)
        for n, user in enumerate(others, start=1)
    ]
    running.fixtures += [
        _fixture(running.matchday, lower, entries[:2], 1),
        _fixture(running.matchday, lower, entries[2:], 1),
    ]
    running.entries += entries
    now = timezone.now()
    Matchday.objects.create(
        season=season, number=2, opens_at=now + timedelta(days=2), deadline=now + timedelta(days=9)
    )
    return running


@pytest.fixture
def closer(two_divisions: RunningSeason) -> User:
    """An organiser of the club who plays in no fixture: closing the season early would
    settle alice's own fixture, which she may not decide."""
    user = UserFactory(username="olga", display_name="Olga")
    two_divisions.club.memberships.create(user=user, role=Role.ORGANISER)
    return user


def finish_all_but_the_last(running: RunningSeason) -> None:
    """Seat 1 resigns every fixture's game but the last one's, which stays unfinished.
    The round's end is announced after the commit: the fixture is finished then."""
    for fixture in running.fixtures[:-1]:
        assert fixture.table is not None
        game = current_game(fixture.table)
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.resign(game.pk, fixture.seats.get(number=1).entry.user)


def test_the_preview_says_what_closing_will_do(two_divisions: RunningSeason) -> None:
    finish_all_but_the_last(two_divisions)

    preview = preview_close_season(two_divisions.season)

    assert preview.open_matchdays == [1] and preview.unplayed_matchdays == [2]
    assert preview.unfinished_fixtures == 1
    assert [name for name, _ in preview.final] == ["Division 1", "Division 2"]
    assert len(preview.promoted) == 1 and len(preview.relegated) == 1
    assert preview.promoted[0].from_level == 2 and preview.relegated[0].to_level == 2
    assert [len(d) for d in preview.next_divisions] == [4, 4]
    assert any("1 fixture of matchday 1 is unfinished" in w for w in preview.warnings)
    assert any("never opened" in warning for warning in preview.warnings)
    assert two_divisions.season.status == Season.Status.RUNNING


def test_closing_settles_finishes_and_proposes_the_next_season_with_promotion(
    two_divisions: RunningSeason, closer: User
) -> None:
    finish_all_but_the_last(two_divisions)
    season = two_divisions.season
    final = final_order(season)

    following = close_season(season, closer, "The season's last deadline passed.")

    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED and season.finished_at is not None
    assert set(season.matchdays.values_list("status", flat=True)) == {Matchday.Status.CLOSED}
    last = Fixture.objects.get(pk=two_divisions.fixtures[-1].pk)
    assert last.status == Fixture.Status.SETTLED
    assert set(Fixture.objects.filter(matchday__number=2).values_list("status", flat=True)) <= {
        Fixture.Status.SETTLED
    }
    assert following is not None and following.status == Season.Status.REGISTRATION
    assert (following.number, following.previous) == (2, season)
    seeds = {e.user_id: e.seed for e in following.entries.all()}
    users = dict(season.entries.values_list("pk", "user_id"))
    upper, lower = final[0][1], final[1][1]
    # The last of division 1 and the first of division 2 swap divisions.
    assert seeds[users[upper[-1]]] > 4 and seeds[users[lower[0]]] <= 4
    assert sorted(seeds.values()) == list(range(1, 9))
    told = Notification.objects.filter(kind=LeagueNotice.LEAGUE_SEASON)
    assert told.count() == 8 and "You are registered for season 2" in told.first().text  # type: ignore[union-attr]


def test_a_withdrawn_player_is_not_carried_over(two_divisions: RunningSeason, closer: User) -> None:
    gone = two_divisions.entries[-1]
    Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)

    following = close_season(two_divisions.season, closer, "End of the season.")

    assert following is not None
    assert not following.entries.filter(user=gone.user).exists()
    assert following.entries.count() == 7


def test_closing_needs_a_reason_and_happens_once(
    two_divisions: RunningSeason, closer: User
) -> None:
    with pytest.raises(LeaguesError):
        close_season(two_divisions.season, closer, "  ")
    assert two_divisions.season.status == Season.Status.RUNNING

    close_season(two_divisions.season, closer, "Done.")
    with pytest.raises(LeaguesError):
        close_season(two_divisions.season, closer, "Done again.")
    with pytest.raises(LeaguesError):
        preview_close_season(Season.objects.get(pk=two_divisions.season.pk))
    assert Season.objects.filter(league=two_divisions.season.league).count() == 2


# --- the page ---------------------------------------------------------------------------


def close_url(running: RunningSeason) -> str:
    league = running.season.league
    return reverse(
        "leagues:close_season", args=[league.club.slug, league.slug, running.season.number]
    )


def test_an_organiser_does_not_close_early_a_season_they_play_in(
    two_divisions: RunningSeason, alice: User
) -> None:
    with pytest.raises(NotAllowed, match="You play in the fixture at table"):
        close_season(two_divisions.season, alice, "Done.")
    assert Season.objects.get(pk=two_divisions.season.pk).status == Season.Status.RUNNING
    assert not Fixture.objects.filter(status=Fixture.Status.SETTLED).exists()


def test_the_organiser_sees_the_preview_then_closes(
    two_divisions: RunningSeason, closer: User, client: Client
) -> None:
    client.force_login(closer)

    page = client.get(close_url(two_divisions))
    assert page.status_code == 200
    assert "Promotion and relegation" in page.text and "Division 2" in page.text
    assert Season.objects.get(pk=two_divisions.season.pk).status == Season.Status.RUNNING

    done = client.post(close_url(two_divisions), {"reason": "Last deadline passed."})
    assert done.status_code == 302 and "/standings/" in done["Location"]
    assert Season.objects.get(pk=two_divisions.season.pk).status == Season.Status.FINISHED
    assert client.get(close_url(two_divisions)).status_code == 409


def test_only_organisers_may_close_a_season(
    two_divisions: RunningSeason, bob: User, client: Client
) -> None:
    assert client.get(close_url(two_divisions)).status_code == 302  # to log in
    client.force_login(bob)
    assert client.get(close_url(two_divisions)).status_code == 403
    assert client.post(close_url(two_divisions), {"reason": "Mine now"}).status_code == 403
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.post(close_url(two_divisions), {"reason": "x"}).status_code == 403
    assert client.put(close_url(two_divisions)).status_code in (403, 405)
    assert Season.objects.get(pk=two_divisions.season.pk).status == Season.Status.RUNNING


def test_the_closed_standings_show_the_places_fixed_at_the_close(
    two_divisions: RunningSeason, closer: User
) -> None:
    """Division 2's first by points withdrew: the close gave them no place and ranked
    the others without them; the standings page and CSV say so after the close."""
    finish_all_but_the_last(two_divisions)
    season = two_divisions.season
    fixture = two_divisions.fixtures[2]
    gone = fixture.seats.get(number=0).entry  # won their game: first by points
    Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)
    (_, told) = final_order(season)[1]
    assert gone.pk not in told

    close_season(season, closer, "End of the season.")

    season.refresh_from_db()
    rows = compute_season(season)[1].standings.rows
    assert [(row.entry, row.place) for row in rows] == [
        *((entry, place) for place, entry in enumerate(told, start=1)),
        (gone.pk, None),
    ]
    args = ["tile-club", "winter", season.number]
    page = client_as(closer).get(reverse("leagues:standings", args=args)).content.decode()
    assert ">Place</th>" in page and "withdrew: no place" in page
    assert re.search(rf'data-entry="{gone.pk}" class="is-withdrawn">\s*<td>\u2013</td>', page)
    answer = client_as(closer).get(reverse("leagues:standings_csv", args=args))
    lines = list(csv.DictReader(io.StringIO(answer.content.decode())))
    division_2 = [
        (line["rank"], line["withdrawn"]) for line in lines if line["division"] == "Division 2"
    ]
    assert division_2 == [("1", "no"), ("2", "no"), ("3", "no"), ("", "yes")]


def test_each_player_is_told_whether_they_go_up_go_down_or_stay(
    two_divisions: RunningSeason, closer: User, mailoutbox: list[Any]
) -> None:
    # Walk W7: the notices said only where each finished.
    finish_all_but_the_last(two_divisions)
    season = two_divisions.season
    final = final_order(season)
    users = dict(season.entries.values_list("pk", "user_id"))
    (top, *_, last_up), (first_down, *_, bottom) = final[0][1], final[1][1]

    riser = User.objects.get(pk=users[first_down])
    set_preference(riser, LeagueNotice.LEAGUE_SEASON, Delivery.IMMEDIATE)

    with TestCase.captureOnCommitCallbacks(execute=True):
        close_season(season, closer, "The season's last deadline passed.")

    def told(entry: int) -> str:
        notice = Notification.objects.get(kind=LeagueNotice.LEAGUE_SEASON, user_id=users[entry])
        return notice.text

    assert told(last_up).endswith("registered for season 2: you go down to Division 2.")
    assert told(first_down).endswith("registered for season 2: you go up to Division 1.")
    assert told(top).endswith("registered for season 2: you stay in Division 1.")
    assert told(bottom).endswith("registered for season 2: you stay in Division 2.")
    # The mail of the notice (asked for at once here) says the same.
    (email,) = [m for m in mailoutbox if "you go up to Division 1." in m.body]
    assert "you go up to Division 1." in email.subject
