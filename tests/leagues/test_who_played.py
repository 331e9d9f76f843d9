"""A season names who played each fixture and game: Frank for the fixture he played
before Hank replaced him, "Hank for Frank" from the substitution on; each member's own
page lists the fixtures they play or played, never one another played for the entry."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import icalendar
import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import User
from games.models import Seat, SeatOccupancy, Table
from games.models.table_settings import TableSettings
from games.rendering import game_context
from games.selectors.players import seat_names, table_seat_names
from games.services import SeatPlan, create_table, draw, resign
from leagues.errors import LeaguesError
from leagues.models import Entry, Fixture, Membership, Season
from leagues.selectors.calendar import member_calendar
from leagues.selectors.organiser import organiser_page
from leagues.selectors.player import player_seasons
from leagues.selectors.seasons import divisions, matchdays
from leagues.selectors.standings import season_results
from leagues.services.matchdays import open_matchday
from leagues.services.organiser import replace_player
from leagues.services.season_end import close_season, ordinal, preview_close_season
from leagues.services.withdrawals import withdraw
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import ClubFactory, UserFactory
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

pytestmark = pytest.mark.django_db

substitutes_played_for = import_module("leagues.migrations.0011_substitutes_played_for")


@pytest.fixture
def people(db: None) -> dict[str, User]:
    return {
        name: UserFactory(username=name, display_name=name.title())
        for name in ("alice", "erin", "frank", "gina", "hank")
    }


@pytest.fixture
def season(people: dict[str, User], django_capture_on_commit_callbacks: Any) -> Season:
    """Matchday 1's one-game fixture (Gina, Erin, Frank) is played: Frank and Gina
    resign. Then Alice seats Hank for Frank; matchday 2's fixture is still to open."""
    club = ClubFactory(name="Tile Club", slug="tile-club", owner=people["alice"])
    for name in ("erin", "frank", "gina", "hank"):
        Membership.objects.create(club=club, user=people[name])
    players = [people["gina"], people["erin"], people["frank"]]
    settings = TableSettings(clock="correspondence", games_in_round=1)
    season = make_season(club, players, seats=3, settings=settings)
    played = open_fixture(season, 1, players)
    assert played.table is not None
    game = played.table.games.get()
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, people["frank"])
        resign(game.pk, people["gina"])
    played.refresh_from_db()
    assert played.table.status == Table.Status.FINISHED
    assert played.status == Fixture.Status.FINISHED
    scheduled_fixture(season, 2, [people["erin"], people["frank"], people["gina"]])
    entry = Entry.objects.get(season=season, user=people["frank"])
    with django_capture_on_commit_callbacks(execute=True):
        replace_player(entry, people["hank"], people["alice"], "Frank moves house")
    return season


def test_the_season_page_names_who_played_each_fixture(
    season: Season, people: dict[str, User]
) -> None:
    days = matchdays(season, people["hank"])
    first, second = (day.divisions[0].fixtures[0] for day in days)
    assert first.players == ("Gina", "Erin", "Frank")
    assert not first.is_mine  # Hank never sat at it
    assert second.players == ("Erin", "Hank for Frank", "Gina")
    assert second.is_mine
    assert matchdays(season, people["frank"])[0].divisions[0].fixtures[0].is_mine


def test_the_results_export_names_who_played_each_game(season: Season) -> None:
    players = {line.seat: line.player for line in season_results(season)}
    assert players == {0: "Gina", 1: "Erin", 2: "Frank"}


def test_each_member_s_page_lists_the_fixtures_they_play_or_played(
    season: Season, people: dict[str, User]
) -> None:
    def listed(name: str) -> list[tuple[int, tuple[str, ...]]]:
        (mine,) = player_seasons(people[name])
        return [(fixture.matchday, fixture.opponents) for fixture in mine.fixtures]

    assert listed("hank") == [(2, ("Erin", "Gina"))]
    assert listed("frank") == [(1, ("Gina", "Erin"))]
    assert listed("gina") == [(1, ("Erin", "Frank")), (2, ("Erin", "Hank for Frank"))]
    feed = member_calendar(people["hank"]).decode()
    assert "matchday 1" not in feed
    assert "matchday 2" in feed


def test_the_organisers_page_names_who_played_each_fixture(season: Season) -> None:
    (day,) = organiser_page(season).open_matchdays
    assert day.matchday.number == 1
    assert [line.players for line in day.fixtures] == ["Gina, Erin, Frank"]


@pytest.fixture
def resigned_then_replaced(
    people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> Season:
    """Matchday 1's one-game fixture (Gina, Erin, Frank): Frank plays a move and resigns,
    Alice seats Hank for Frank while Gina and Erin play on, and Gina resigns. Hank never
    moved in that game."""
    club = ClubFactory(name="Tile Club", slug="tile-club", owner=people["alice"])
    for name in ("erin", "frank", "gina", "hank"):
        Membership.objects.create(club=club, user=people[name])
    players = [people["gina"], people["erin"], people["frank"]]
    settings = TableSettings(clock="correspondence", games_in_round=1)
    season = make_season(club, players, seats=3, settings=settings)
    fixture = open_fixture(season, 1, players)
    assert fixture.table is not None
    game = fixture.table.games.get()
    while game.current_seat != 2:
        game = draw(game.pk, players[game.current_seat or 0], game.version)
    game = draw(game.pk, people["frank"], game.version)
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, people["frank"])
        replace_player(
            Entry.objects.get(season=season, user=people["frank"]),
            people["hank"],
            people["alice"],
            "Frank moves house",
        )
        resign(game.pk, people["gina"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FINISHED
    return season


def test_a_substitute_who_never_moved_in_a_game_is_not_named_for_it(
    resigned_then_replaced: Season, people: dict[str, User]
) -> None:
    season = resigned_then_replaced
    players = {line.seat: line.player for line in season_results(season)}
    assert players == {0: "Gina", 1: "Erin", 2: "Frank"}
    (day,) = matchdays(season, people["hank"])
    (fixture,) = day.divisions[0].fixtures
    assert fixture.players == ("Gina", "Erin", "Frank")
    assert not fixture.is_mine


def test_the_fixture_stays_with_who_played_it_in_my_leagues_and_the_calendar(
    resigned_then_replaced: Season, people: dict[str, User]
) -> None:
    def listed(name: str) -> list[tuple[int, tuple[str, ...]]]:
        (mine,) = player_seasons(people[name])
        return [(fixture.matchday, fixture.opponents) for fixture in mine.fixtures]

    assert listed("frank") == [(1, ("Gina", "Erin"))]
    assert listed("hank") == []
    assert listed("erin") == [(1, ("Gina", "Frank"))]
    # The fixture's deadline and its matchday's opening (walk W24), both Frank's.
    assert sorted(_summaries("frank", people)) == [
        f"{resigned_then_replaced}: matchday 1 opens",
        f"{resigned_then_replaced}: matchday 1 vs Gina, Erin",
    ]
    assert _summaries("hank", people) == []


def _summaries(name: str, people: dict[str, User]) -> list[str]:
    feed = icalendar.Calendar.from_ical(member_calendar(people[name]))
    return [str(event["summary"]) for event in feed.walk("VEVENT")]


def test_later_fixtures_name_a_substitute_and_a_bot_for_whom_they_play(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    """Hank plays for Frank and a bot for Gina (withdrawn) at matchday 2, seated there
    directly: every page names their seats as the standings name the entries."""
    with django_capture_on_commit_callbacks(execute=True):
        withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    named = ("Erin", "Hank for Frank", "Bot (normal) for Gina")

    def listed(name: str) -> list[tuple[int, tuple[str, ...]]]:
        (mine,) = player_seasons(people[name])
        return [(fixture.matchday, fixture.opponents) for fixture in mine.fixtures]

    # Before its table is set up.
    assert matchdays(season, people["erin"])[1].divisions[0].fixtures[0].players == named
    assert listed("erin")[1] == (2, named[1:])

    with django_capture_on_commit_callbacks(execute=True):
        open_matchday(season.matchdays.get(number=2))
    fixture = Fixture.objects.get(matchday__season=season, matchday__number=2)
    assert fixture.table is not None
    game = fixture.table.games.get()
    assert seat_names(game) == list(named)
    assert table_seat_names(fixture.table.pk) == list(named)
    assert [seat.name for seat in game_context(game, people["erin"])["seats"]] == list(named)
    assert matchdays(season, people["erin"])[1].divisions[0].fixtures[0].players == named
    assert listed("erin")[1] == (2, named[1:])
    lines = {day.matchday.number: day for day in organiser_page(season).open_matchdays}
    assert [line.players for line in lines[2].fixtures] == [", ".join(named)]

    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, people["hank"])
        resign(game.pk, people["erin"])
    exported = {line.seat: line.player for line in season_results(season) if line.matchday == 2}
    assert exported == dict(enumerate(named))


def test_a_replaced_or_withdrawn_players_page_gives_the_fixtures_to_come_away(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    """Frank (replaced by Hank) and Gina (withdrawn) keep matchday 1, which they played;
    matchday 2 is no longer theirs, their pages say so, and neither may withdraw."""
    with django_capture_on_commit_callbacks(execute=True):
        withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    for name in ("frank", "gina"):
        (mine,) = player_seasons(people[name])
        assert [fixture.matchday for fixture in mine.fixtures] == [1]
        assert not mine.is_playing and not mine.may_withdraw
        assert not matchdays(season, people[name])[1].divisions[0].fixtures[0].is_mine
    (hanks,) = player_seasons(people["hank"])
    assert hanks.is_playing and [fixture.matchday for fixture in hanks.fixtures] == [2]

    franks = client_as(people["frank"]).get(reverse("leagues:player")).content.decode()
    assert "Hank plays your fixtures from now on" in franks
    assert "Withdraw from this season" not in franks
    ginas = client_as(people["gina"]).get(reverse("leagues:player")).content.decode()
    assert "Gina withdrew" not in ginas
    assert "You withdrew: the fixtures still to play are no longer yours, a bot plays" in ginas

    frank_entry = Entry.objects.get(season=season, user=people["frank"])
    refused = client_as(people["frank"]).post(reverse("leagues:withdraw", args=[frank_entry.pk]))
    assert refused.status_code == 403
    frank_entry.refresh_from_db()
    assert frank_entry.status == Entry.Status.REGISTERED


def test_the_close_carries_a_replaced_place_over_to_nobody_unless_the_organiser_chooses(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    preview = preview_close_season(season)
    assert [entry.user for entry in preview.replaced] == [people["frank"]]
    assert (
        "Frank, whom Hank replaced, is not registered for season 2, nor is Hank, unless "
        "you choose one of them below to take the place; either may still register."
    ) in preview.warnings
    assert [sorted(names) for names in preview.next_divisions] == [["Erin", "Gina"]]

    with django_capture_on_commit_callbacks(execute=True):
        following = close_season(season, people["alice"], "The season is over.")

    assert following is not None
    registered = set(following.entries.values_list("user__username", flat=True))
    assert registered == {"erin", "gina"}
    frank = Entry.objects.get(season=season, user=people["frank"])
    assert frank.final_rank is not None  # his entry's place is kept and told all the same
    place = f"{ordinal(frank.final_rank)} in Division 1."
    franks = Notification.objects.get(user=people["frank"], key__startswith="season-end:")
    assert franks.text.endswith(
        f"you finished {place} Hank played for you, and you are not registered for "
        "season 2: register there if you want to play."
    )
    told = Notification.objects.get(user=people["hank"], key__startswith="season-end-substitute")
    assert told.text == f"{season} is over: Frank, whom you played for, finished {place}"


def test_the_substitute_chosen_takes_the_place_where_it_finished(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    frank = Entry.objects.get(season=season, user=people["frank"])

    with django_capture_on_commit_callbacks(execute=True):
        following = close_season(
            season, people["alice"], "The season is over.", carry_over={frank.pk: people["hank"].pk}
        )

    assert following is not None
    ranks = dict(season.entries.values_list("user__username", "final_rank"))
    seeds = dict(following.entries.values_list("user__username", "seed"))
    assert seeds == {"erin": ranks["erin"], "gina": ranks["gina"], "hank": ranks["frank"]}
    told = Notification.objects.get(user=people["hank"], key__startswith="season-end-substitute")
    assert told.text.endswith("You are registered for season 2 in their place.")
    franks = Notification.objects.get(user=people["frank"], key__startswith="season-end:")
    assert "you are not registered for season 2" in franks.text


def test_a_place_goes_only_to_its_member_or_substitute_and_a_refusal_changes_nothing(
    season: Season, people: dict[str, User]
) -> None:
    frank = Entry.objects.get(season=season, user=people["frank"])
    erin = Entry.objects.get(season=season, user=people["erin"])
    for carry_over in ({frank.pk: people["erin"].pk}, {erin.pk: people["erin"].pk}):
        with pytest.raises(LeaguesError):
            close_season(season, people["alice"], "The season is over.", carry_over=carry_over)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    assert not Season.objects.filter(previous=season).exists()


def test_the_organiser_chooses_on_the_close_page_and_bad_input_changes_nothing(
    season: Season, people: dict[str, User]
) -> None:
    frank = Entry.objects.get(season=season, user=people["frank"])
    url = reverse("leagues:close_season", args=["tile-club", season.league.slug, season.number])
    organiser = client_as(people["alice"])
    page = organiser.get(url).content.decode()
    assert f'name="carry_{frank.pk}" value="substitute"' in page
    assert "Hank, who played for them" in page

    bad = organiser.post(url, {"reason": "Over.", f"carry_{frank.pk}": "erin"})
    assert bad.status_code == 400
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING

    done = organiser.post(url, {"reason": "Over.", f"carry_{frank.pk}": "member"})
    assert done.status_code == 302
    following = Season.objects.get(previous=season)
    assert following.entries.filter(user=people["frank"]).exists()
    assert not following.entries.filter(user=people["hank"]).exists()


def test_withdrawn_players_are_listed_as_such_and_the_closed_season_in_its_final_order(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    listed = {
        line.entry.user.username: line.entry.status for line in organiser_page(season).entries
    }
    assert listed == {"erin": "registered", "frank": "registered", "gina": "withdrawn"}
    organisers = client_as(people["alice"]).get(
        reverse("leagues:organiser", args=["tile-club", season.league.slug, season.number])
    )
    assert "withdrawn" in organisers.content.decode()
    (division,) = divisions(season, people["erin"])
    assert not division.final
    assert [(p.name, p.withdrawn) for p in division.players] == [
        ("Gina", True),
        ("Erin", False),
        ("Frank (played by Hank)", False),
    ]

    with django_capture_on_commit_callbacks(execute=True):
        close_season(season, people["alice"], "The season is over.")

    season.refresh_from_db()
    (division,) = divisions(season, people["erin"])
    assert division.final
    final = dict(season.entries.values_list("user__username", "final_rank"))
    assert [(p.place, p.withdrawn) for p in division.players] == [
        (1, False),
        (2, False),
        (None, True),
    ]
    assert final["gina"] is None


def test_the_migration_completes_the_record_of_tables_set_up_before_plays_for(
    season: Season, people: dict[str, User], django_capture_on_commit_callbacks: Any
) -> None:
    """Matchday 2's table set up as before ``Seat.plays_for``: Hank seated for Frank, and
    a bot for Gina, who withdrew under the bot rule, named alone. The migration appends
    whom they played for; the rows that were there stay."""
    with django_capture_on_commit_callbacks(execute=True):
        withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    fixture = Fixture.objects.get(matchday__season=season, matchday__number=2)
    settings = TableSettings.from_dict(season.table_settings)
    plans = [
        SeatPlan.taken_by(people["erin"]),
        SeatPlan.taken_by(people["hank"]),
        SeatPlan.bot("normal"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        table = create_table(people["alice"], settings, plans, seated_by_authority=True)
    Fixture.objects.filter(pk=fixture.pk).update(table=table, status=Fixture.Status.PLAYING)
    game = table.games.get()
    assert table_seat_names(table.pk) == ["Erin", "Hank", "Bot (normal)"]
    before = list(SeatOccupancy.objects.filter(game=game).values_list("pk", "plays_for"))

    substitutes_played_for.forwards(apps, None)
    substitutes_played_for.forwards(apps, None)  # a second run appends nothing more

    named = ["Erin", "Hank for Frank", "Bot (normal) for Gina"]
    assert table_seat_names(table.pk) == named
    assert seat_names(game) == named
    rows = SeatOccupancy.objects.filter(game=game)
    assert (
        list(rows.filter(pk__in=[pk for pk, _ in before]).values_list("pk", "plays_for")) == before
    )
    assert list(rows.exclude(pk__in=[pk for pk, _ in before]).values_list("seat", "plays_for")) == [
        (1, people["frank"].pk),
        (2, people["gina"].pk),
    ]
    seats = dict(Seat.objects.filter(table=table).values_list("number", "plays_for"))
    assert seats == {0: None, 1: people["frank"].pk, 2: people["gina"].pk}
    # Frank is in the record of the game Hank played for him, as at tables set up now.
    (franks,) = player_seasons(people["frank"])
    assert [fixture.matchday for fixture in franks.fixtures] == [1]
