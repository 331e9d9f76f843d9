"""Divisions every one of which can play, promotions kept through a change of sizes,
and season lengths that give every player the same number of fixtures: the close's
preview, the start's preview, the start, and the start page."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from leagues.errors import LeaguesError
from leagues.models import Division, Entry, League, Role, Season
from leagues.services.season_end import close_season, preview_close_season
from leagues.services.season_start import preview_start, start_season
from leagues.services.seasons import register
from leagues.standings import FixtureResults, GameResult, Player, Rules, compute, explain
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, _fixture, running_season

pytestmark = pytest.mark.django_db

Members = Callable[[int], list[User]]
SEASON = "/clubs/tile-club/winter/1/"


def registered(season: Season, users: list[User]) -> list[User]:
    for user in users:
        register(season, user)
    return users


def test_seven_players_at_three_seats_start_as_four_and_three_with_the_bye_said(
    season: Season, make_members: Members
) -> None:
    Season.objects.filter(pk=season.pk).update(division_size=3)
    season.refresh_from_db()
    registered(season, make_members(7))

    preview = preview_start(season)

    assert preview.can_start
    assert [len(d.entries) for d in preview.divisions] == [4, 3]
    assert "Division 1 has 4 players at 3 seats: one player sits out each matchday." in (
        preview.warnings
    )
    # 4 matchdays: everyone of Division 1 sits out once, Division 2 plays every time.
    assert preview.matchdays == 4 and preview.lengths == (2, 4)
    for division in preview.divisions:
        assert len({fixtures for _, _, fixtures, _, _ in division.player_lines()}) == 1


def test_an_unequal_length_is_offered_with_its_warning_and_others_are_refused(
    season: Season, alice: User, make_members: Members
) -> None:
    registered(season, make_members(4))

    short = preview_start(season, matchdays=2)

    assert not short.fair
    assert (
        "With 2 matchdays the players of Division play 1 or 2 fixtures, so the standings "
        "rank by points per game played; 4 matchdays give everyone the same."
    ) in short.warnings
    with pytest.raises(LeaguesError, match="A season of 3 matchdays is not offered"):
        start_season(season, alice, matchdays=3)
    assert season.matchdays.count() == 0
    start_season(season, alice, matchdays=2)
    assert season.matchdays.count() == 2
    season.refresh_from_db()
    assert season.per_game


def test_a_fair_length_keeps_the_standings_on_totals(
    season: Season, alice: User, make_members: Members
) -> None:
    registered(season, make_members(4))
    start_season(season, alice)
    season.refresh_from_db()
    assert season.matchdays.count() == 4 and not season.per_game


def one_game(fixture: int, scores: dict[int, int], seats: dict[int, int]) -> FixtureResults:
    winner = max(scores, key=scores.__getitem__)
    places = {seat: 1 + sum(o > v for o in scores.values()) for seat, v in scores.items()}
    game = GameResult(scores=scores, places=places, winner=winner)
    return FixtureResults(fixture, seats, (game,), 1, True, fixture)


def test_per_game_standings_rank_by_points_per_game_played() -> None:
    players = [Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cy")]
    # Ann plays twice (+10, +10: 10 a game), Bob once (+15), Cy three times (-30).
    fixtures = [
        one_game(1, {0: 10, 1: -10}, {0: 1, 1: 3}),
        one_game(2, {0: 10, 1: -5}, {0: 1, 1: 3}),
        one_game(3, {0: 15, 1: -15}, {0: 2, 1: 3}),
    ]
    totals = compute(players, fixtures, Rules())
    per_game = compute(players, fixtures, Rules(per_game=True))

    assert [row.name for row in totals.rows] == ["Ann", "Bob", "Cy"]
    assert [(row.name, row.per_game_text) for row in per_game.rows] == [
        ("Bob", "15"),
        ("Ann", "10"),
        ("Cy", "-10"),
    ]
    assert "rank by points per game played" in explain(Rules(per_game=True))["points"]


@pytest.fixture
def walked(alice: User, bob: User, dave: User, erin: User) -> RunningSeason:
    return walked_season(alice, [bob, dave, erin, alice])


def walked_season(organiser: User, top: list[User]) -> RunningSeason:
    """The walk's season 1 (D4): Division 1 the four ``top`` players; Division 2 Fay and
    Gus; promotion 1. The league then moved to tables of 3 in divisions of 4."""
    running = running_season(organiser, top, games=1)
    season = running.season
    Season.objects.filter(pk=season.pk).update(promotion=1, division_size=4)
    season.refresh_from_db()
    lower = Division.objects.create(season=season, level=2, name="Division 2")
    others = [UserFactory(username=name, display_name=name.title()) for name in ("fay", "gus")]
    for user in others:
        running.club.memberships.create(user=user)
    entries = [
        Entry.objects.create(season=season, user=user, division=lower, seed=n)
        for n, user in enumerate(others, start=1)
    ]
    running.fixtures.append(_fixture(running.matchday, lower, entries, 1))
    League.objects.filter(pk=season.league_id).update(seats=3, division_size=4)
    season.league.refresh_from_db()
    return running


def test_a_close_keeps_a_promotion_that_even_divisions_would_undo_and_says_so(
    walked: RunningSeason,
) -> None:
    preview = preview_close_season(walked.season)
    top, bottom = (names for _, names in preview.final)
    promoted, relegated = bottom[0], top[-1]

    # 6 players at 3 seats: 3 + 3 would put the promoted player back in Division 2, and
    # 4 + 2 leaves a division that cannot fill a table: one division of 6.
    assert preview.next_divisions == [[*top[:3], promoted, relegated, bottom[1]]]
    # Everyone of Division 2 plays in the one division (and nobody goes down).
    assert [(m.name, m.to_level) for m in preview.promoted] == [(p, 1) for p in bottom]
    assert preview.relegated == []
    assert (
        "One division of 6 players rather than divisions of 3 + 3 players, so that "
        f"{promoted} keeps the division the last close moved them to (more than the 5 a "
        "division holds otherwise)."
    ) in preview.warnings

    olga = UserFactory(username="olga")
    walked.club.memberships.create(user=olga, role=Role.ORGANISER)
    following = close_season(walked.season, olga, "the season is over")
    assert following is not None

    # The next season's start cuts it the same way, and says why (closing settled the
    # open fixtures, so the final order may differ from the preview's).
    winner = Entry.objects.get(season=walked.season, division__level=2, final_rank=1)
    start = preview_start(following)
    assert [len(d.entries) for d in start.divisions] == [6]
    assert any(f"so that {winner.user} keeps the division" in w for w in start.warnings)
    assert start.can_start


def test_the_start_page_offers_the_lengths_and_starts_the_one_chosen(
    season: Season, alice: User, member: User, make_members: Members
) -> None:
    registered(season, make_members(4))
    organiser = client_as(alice)

    page = organiser.get(f"{SEASON}start/").content.decode()
    assert '<option value="4" selected>4 matchdays, equal fixtures</option>' in page
    assert '<option value="2">2 matchdays, unequal fixtures</option>' in page
    assert '<input type="hidden" name="matchdays" value="4">' in page

    chosen = organiser.get(f"{SEASON}start/", {"matchdays": "2"}).content.decode()
    assert '<input type="hidden" name="matchdays" value="2">' in chosen
    assert "so the standings rank by points per game played" in chosen
    refused = organiser.get(f"{SEASON}start/", {"matchdays": "3"})
    assert refused.status_code == 400 and "choose 2, 4." in refused.content.decode()
    assert organiser.get(f"{SEASON}start/", {"matchdays": "x"}).status_code == 400
    assert client_as(member).get(f"{SEASON}start/", {"matchdays": "2"}).status_code == 403
    assert organiser.post(f"{SEASON}start/", {"matchdays": "3"}).status_code == 400
    assert client_as(member).post(f"{SEASON}start/", {"matchdays": "2"}).status_code == 403
    assert season.matchdays.count() == 0

    assert organiser.post(f"{SEASON}start/", {"matchdays": "2"}).status_code == 302
    assert season.matchdays.count() == 2
    # The season page and the standings say that the standings go per game.
    page = client_as(member).get(SEASON).content.decode()
    assert "By points per game played: this season" in page
    standings = client_as(member).get(f"{SEASON}standings/").content.decode()
    assert ">Per game</th>" in standings and "rank by points per game played" in standings
    export = client_as(member).get(f"{SEASON}standings.csv")
    assert b"division,rank,player,withdrawn,points,points_per_game," in export.getvalue()
