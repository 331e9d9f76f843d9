"""Starting a season (preview, then one transaction), opening its matchdays, and
finishing a fixture when its table's round ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from common import moments
from games.models import Seat, Table
from games.models.table_settings import TableSettings
from games.services.abandonment import resign
from leagues.errors import LeaguesError
from leagues.models import Division, Entry, Fixture, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.scheduling import schedule_season
from leagues.services.matchdays import open_matchday
from leagues.services.season_start import preview_start, start_season
from leagues.services.seasons import register
from notifications.models import Notification
from tests.factories import SeasonFactory
from tests.games.conftest import current_game

pytestmark = pytest.mark.django_db

Members = Callable[[int], list[User]]


def registered(season: Season, users: list[User]) -> list[User]:
    for user in users:
        register(season, user)
    return users


def test_a_season_without_players_cannot_start(season: Season, alice: User) -> None:
    preview = preview_start(season)
    assert not preview.can_start
    assert preview.problems == ("Nobody is registered yet.",)
    with pytest.raises(LeaguesError, match="Nobody"):
        start_season(season, alice)
    assert season.matchdays.count() == 0


def test_the_preview_shows_divisions_byes_and_what_to_know(
    season: Season, make_members: Members
) -> None:
    Season.objects.filter(pk=season.pk).update(
        starts_at=timezone.now() + timedelta(days=2), registration_approval=True
    )
    season.refresh_from_db()
    players = registered(season, make_members(5))
    Entry.objects.filter(user__in=players[:4]).update(status=Entry.Status.REGISTERED)

    preview = preview_start(season)

    (division,) = preview.divisions
    assert preview.can_start and preview.players == 4
    assert division.players == [str(p) for p in players[:4]]
    assert (division.fixtures_per_matchday, division.byes_per_matchday) == (1, 1)
    byes = [line[3] for line in division.player_lines()]
    assert max(byes) - min(byes) <= 1 and sum(byes) == preview.matchdays
    assert preview.matchdays == 4 and preview.fair  # everyone sits out once
    assert [w.split(":")[0] for w in preview.warnings] == [
        "Division has 4 players at 3 seats",
        "1 registration still awaits approval",
        "The season was to start on " + moments.when(season.starts_at).split(":")[0],
    ]


def test_a_division_smaller_than_a_table_is_a_problem(
    season: Season, make_members: Members
) -> None:
    registered(season, make_members(2))
    preview = preview_start(season)
    assert preview.problems == ("Division has 2 players, fewer than a table of 3.",)


def test_a_division_past_the_largest_is_a_problem_and_is_not_scheduled(
    season: Season, make_members: Members
) -> None:
    registered(season, make_members(41))
    preview = preview_start(season)
    assert preview.problems == (
        "Division has 41 players; a division holds at most 40. Give the league a division size.",
    )
    assert preview.divisions[0].schedule is None


def test_divisions_follow_the_previous_season_then_the_ranking_given(
    season: Season, alice: User, make_members: Members
) -> None:
    users = make_members(7)
    previous = season
    top = Division.objects.create(season=previous, level=1, name="Division 1")
    low = Division.objects.create(season=previous, level=2, name="Division 2")
    # Last season: users 4, 5, 6 in the top division, users 1, 2, 3 below; user 0 is new.
    for seed, index in enumerate([4, 5, 6], start=1):
        Entry.objects.create(season=previous, user=users[index], division=top, seed=seed)
    for seed, index in enumerate([1, 2, 3], start=1):
        Entry.objects.create(season=previous, user=users[index], division=low, seed=seed)
    Season.objects.filter(pk=previous.pk).update(status=Season.Status.FINISHED)
    current = SeasonFactory(league=season.league, number=2, previous=previous, division_size=4)
    registered(current, users)

    seeded = preview_start(current)
    assert [len(d.entries) for d in seeded.divisions] == [4, 3]
    assert [e.user for d in seeded.divisions for e in d.entries] == [
        users[i] for i in (4, 5, 6, 1, 2, 3, 0)
    ]
    ranked = preview_start(current, ranking=[users[3].pk, users[0].pk])
    assert [e.user for e in ranked.divisions[0].entries] == [users[i] for i in (3, 0, 1, 2)]


def test_players_carried_over_by_the_last_season_keep_the_seeds_it_gave_them(
    season: Season, make_members: Members
) -> None:
    carried = make_members(4)
    for seed, user in zip((3, 1, 4, 2), carried, strict=True):
        Entry.objects.create(season=season, user=user, seed=seed)
    newcomer = registered(season, make_members(1))

    (division,) = preview_start(season).divisions

    assert [e.user for e in division.entries] == [carried[i] for i in (1, 3, 0, 2)] + newcomer


def test_starting_writes_the_schedule_and_opens_matchday_one(
    season: Season, alice: User, make_members: Members, django_capture_on_commit_callbacks: Any
) -> None:
    players = registered(season, make_members(4))
    with django_capture_on_commit_callbacks(execute=True):
        start_season(season, alice, reason="all in")
    season.refresh_from_db()

    assert season.status == Season.Status.RUNNING and season.started_at is not None
    (division,) = season.divisions.all()
    entries = list(division.entries.order_by("seed"))
    assert [e.user for e in entries] == players and [e.seed for e in entries] == [1, 2, 3, 4]
    # 4 matchdays, the first length in which all 4 players at 3 seats play alike.
    expected = schedule_season(
        [e.pk for e in entries], seats=3, matchdays=4, seed=f"season-{season.pk}-division-1"
    )
    matchdays = list(season.matchdays.order_by("number"))
    assert len(matchdays) == len(expected.matchdays)
    day = timedelta(days=season.matchday_days)
    for number, matchday in enumerate(matchdays, start=1):
        assert matchday.opens_at == season.started_at + (number - 1) * day
        assert matchday.deadline == matchday.opens_at + day
        planned = expected.matchdays[number - 1].fixtures
        written = [
            tuple(seat.entry_id for seat in fixture.seats.order_by("number"))
            for fixture in matchday.fixtures.order_by("pk")
        ]
        assert written == [fixture.players for fixture in planned]
    assert [m.status for m in matchdays] == ["open"] + ["scheduled"] * (len(matchdays) - 1)
    started = Notification.objects.filter(kind=LeagueNotice.LEAGUE_SEASON)
    assert sorted(started.values_list("user_id", flat=True)) == sorted(p.pk for p in players)
    # One division is not named: the notice said "you play in Division".
    assert {notice.text for notice in started} == {
        f"{season} has started: {len(matchdays)} matchdays of {season.matchday_days} days."
    }
    with pytest.raises(LeaguesError, match="started already"):
        start_season(season, alice)


def test_a_member_may_not_start_a_season(
    season: Season, member: User, make_members: Members
) -> None:
    registered(season, make_members(3))
    with pytest.raises(LeaguesError) as refused:
        start_season(season, member)
    assert refused.value.status == 403
    assert Season.objects.get(pk=season.pk).status == Season.Status.REGISTRATION


def test_an_open_matchday_seats_each_fixture_at_a_table_of_its_own(
    season: Season, alice: User, make_members: Members
) -> None:
    registered(season, make_members(3))
    start_season(season, alice)
    matchday = season.matchdays.get(number=1)
    (fixture,) = matchday.fixtures.order_by("pk")
    table = fixture.table
    assert table is not None and fixture.status == Fixture.Status.PLAYING

    seats = list(table.seats.order_by("number"))
    planned = [seat.entry.user_id for seat in fixture.seats.order_by("number")]
    assert [s.user_id for s in seats] == planned
    assert all(s.kind == Seat.Kind.PLAYER for s in seats)
    assert table.status == Table.Status.PLAYING
    # One game per seat, as the season's settings leave it open.
    settings = TableSettings.from_dict(season.table_settings)
    assert TableSettings.of_table(table) == replace(settings, games_in_round=3)
    assert table.belongs_to == "Winter, season 1, matchday 1"
    assert table.belongs_to_link == "/clubs/tile-club/winter/1/"
    told = Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY)
    assert sorted(told.values_list("user_id", flat=True)) == sorted(planned)
    assert all(n.deadline == matchday.deadline for n in told)


def test_opening_a_matchday_twice_opens_it_once(
    season: Season, alice: User, make_members: Members
) -> None:
    registered(season, make_members(4))
    start_season(season, alice)
    second = season.matchdays.get(number=2)
    open_matchday(second)
    open_matchday(second)
    open_matchday(season.matchdays.get(number=1))
    assert Table.objects.count() == 2
    assert Matchday.objects.get(pk=second.pk).status == Matchday.Status.OPEN
    assert Notification.objects.filter(kind=LeagueNotice.LEAGUE_MATCHDAY).count() == 6


def test_a_fixture_is_finished_when_its_tables_round_ends(
    season: Season, alice: User, make_members: Members, django_capture_on_commit_callbacks: Any
) -> None:
    Season.objects.filter(pk=season.pk).update(
        seats=2, table_settings=TableSettings(games_in_round=1).to_dict()
    )
    season.refresh_from_db()
    registered(season, make_members(2))
    start_season(season, alice)
    fixture = Fixture.objects.get(matchday__number=1)
    assert fixture.table is not None
    game = current_game(fixture.table)
    loser = game.table.seats.get(number=0).user
    assert loser is not None

    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, loser)

    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED
    assert Fixture.objects.exclude(pk=fixture.pk).filter(status="finished").count() == 0
