"""The standings read from result rows, the page and its CSV exports, and who may see them."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, Result
from games.services.results import SeatCorrection, supersede
from leagues.models import Entry, Fixture, Season
from leagues.selectors.standings import compute_season, season_results, season_standings
from tests.conftest import client_as
from tests.factories import SeasonFactory
from tests.leagues.standings_support import SmallSeason, small_season

pytestmark = pytest.mark.django_db


def url(built: SmallSeason, name: str = "leagues:standings", number: int = 1, **more: int) -> str:
    return reverse(name, args=[built.club.slug, "winter", number, *more.values()])


def played(built: SmallSeason) -> SmallSeason:
    """Ann beat Bob twice, Cy and Dee split; next matchday half played."""
    built.play(1, ["ann", "bob"], [30, -30], [12, -12])
    built.play(1, ["cy", "dee"], [10, -10], [-4, 4])
    built.play(2, ["ann", "cy"], [-5, 5], complete=False)
    built.schedule(2, ["bob", "dee"])
    return built


def test_standings_come_from_the_current_result_rows_through_the_fixture_seats() -> None:
    built = played(small_season())

    (division,) = compute_season(built.season)

    rows = [
        (r.rank, r.name, r.points, r.games_played, r.games_won) for r in division.standings.rows
    ]
    assert rows == [
        (1, "Ann", 37, 3, 2),
        (2, "Cy", 11, 3, 2),
        (3, "Dee", -6, 2, 1),
        (4, "Bob", -42, 2, 0),
    ]
    ann = division.standings.rows[0]
    assert (ann.fixtures_played, ann.fixtures_won) == (1, 1)
    # Each player has a game or a fixture left: every rank is still open to them, as a
    # game may swing by the value of every tile of the set.
    assert all((r.best_rank, r.worst_rank) == (1, 4) for r in division.standings.rows)


def test_a_superseded_result_counts_as_corrected() -> None:
    built = played(small_season())
    game = Game.objects.get(table__fixture__seats__entry=built.entries["bob"], number=1)

    supersede(
        game.pk,
        {0: SeatCorrection(score=-50), 1: SeatCorrection(score=50, is_winner=True)},
        Result.Source.RULING,
        "Recount",
        built.organiser,
    )

    rows = {r.name: r for r in compute_season(built.season)[0].standings.rows}
    assert (rows["Ann"].points, rows["Bob"].points) == (-43, 38)
    assert (rows["Ann"].games_won, rows["Bob"].games_won) == (1, 1)


def test_the_standings_take_the_same_few_queries_whatever_the_seasons_size() -> None:
    small = small_season()
    small.play(1, ["ann", "bob"], [3, -3], [1, -1])
    with CaptureQueriesContext(connection) as few:
        compute_season(small.season)

    names = [f"p{n}" for n in range(12)]
    large = small_season(names, slug="big-club")
    for day in range(1, 4):
        for pair in range(6):
            a, b = names[(pair + day) % 12], names[(pair + day + 6) % 12]
            large.play(day, [a, b], [day, -day], [-pair, pair])
    with CaptureQueriesContext(connection) as many:
        compute_season(large.season)

    assert len(few) == len(many) <= 6


def test_a_withdrawn_player_stays_in_the_standings_marked() -> None:
    built = played(small_season())
    Entry.objects.filter(pk=built.entries["bob"].pk).update(status=Entry.Status.WITHDRAWN)

    page = client_as(built.players["ann"]).get(url(built))

    rows = {r.name: r for r in compute_season(built.season)[0].standings.rows}
    assert rows["Bob"].withdrawn and rows["Bob"].points == -42
    assert b'class="is-withdrawn"' in page.content and b"withdrawn</span>" in page.content


def test_the_page_shows_each_division_the_tiebreaks_and_ranks_to_come() -> None:
    built = played(small_season())

    page = client_as(built.organiser).get(url(built))

    assert page.status_code == 200
    text = page.content.decode()
    text = text[text.index('id="standings-tables"') :]
    assert 'data-explains="head_to_head"' in text and "Head-to-head: only among" in text
    assert text.index("Ann") < text.index("Cy") < text.index("Bob")
    # Everyone can still finish anywhere: the bounds would say nothing.
    assert "data-best" not in text and "can still finish anywhere" in text
    # The crosstable is only a placeholder that loads it when first opened.
    crosstable = url(built, "leagues:crosstable", level=1)
    assert "Who met whom" in text and f'hx-get="{crosstable}" hx-trigger="toggle once"' in text
    assert "games together" not in text
    assert f'ws-connect="/ws/leagues/seasons/{built.season.pk}/"' in page.content.decode()


def test_best_and_worst_ranks_show_once_they_narrow() -> None:
    built = small_season()
    built.play(1, ["ann", "bob"], [30, -30], [12, -12])
    built.play(1, ["cy", "dee"], [10, -10], [-4, 4])
    built.play(2, ["ann", "cy"], [-5, 5], [6, -6])
    built.play(2, ["bob", "dee"], [-5, 5], complete=False)

    text = client_as(built.players["ann"]).get(url(built)).content.decode()

    assert "<td data-best>1</td><td data-worst>3</td>" in text  # Ann can no longer be last
    assert "<td data-best>2</td><td data-worst>4</td>" in text  # nor Cy first
    assert "can still finish anywhere" not in text


@pytest.mark.parametrize("viewer", ["ann", "dee", "outsider", "visitor"])
def test_the_viewers_own_row_is_marked(viewer: str) -> None:
    built = played(small_season())
    user = built.outsider if viewer == "outsider" else built.players.get(viewer)

    text = client_as(user).get(url(built)).content.decode()

    marked = [
        entry
        for entry in (built.entries[name].pk for name in ("ann", "bob", "cy", "dee"))
        if f'<tr data-entry="{entry}" class=" is-viewer" aria-current="true">' in text
    ]
    expected = [built.entries[viewer].pk] if viewer in built.entries else []
    assert marked == expected
    assert ('<span class="tag tag-viewer">you</span>' in text) == bool(expected)


def test_a_substitute_sees_the_row_they_play_marked() -> None:
    built = played(small_season())
    Entry.objects.filter(pk=built.entries["bob"].pk).update(substitute=built.outsider)
    text = client_as(built.outsider).get(url(built)).content.decode()
    assert f'<tr data-entry="{built.entries["bob"].pk}" class=" is-viewer"' in text


def test_tiebreaks_mark_the_columns_they_read_and_only_head_to_head_adds_one() -> None:
    cumulative = small_season()
    # Everyone level on points and games won: head-to-head decides, and shows.
    cumulative.play(1, ["ann", "bob"], [10, -10], [-10, 10])
    cumulative.play(1, ["cy", "dee"], [5, -5], [-5, 5])
    placement = played(small_season(slug="other", scoring="placement", placement_points=[2, 0]))

    text = client_as(cumulative.organiser).get(url(cumulative)).content.decode()
    by_places = client_as(placement.organiser).get(url(placement)).content.decode()

    head = text[text.index("<thead>") : text.index("</thead>")]
    assert "TB " not in head
    # tiebreaks: games won, head-to-head, total score (the points themselves here).
    assert 'data-tiebreak="games_won">Won<sup class="tiebreak-mark">1</sup>' in head
    assert 'data-tiebreak="head_to_head">H2H<sup class="tiebreak-mark">2</sup>' in head
    assert 'data-tiebreak="total_score"' not in head and ">Score<" not in head
    assert head.count("data-tiebreak") == 2
    assert "<td data-head-to-head>" in text
    head = by_places[by_places.index("<thead>") : by_places.index("</thead>")]
    assert 'data-tiebreak="total_score">Score<sup class="tiebreak-mark">3</sup>' in head
    # Where head-to-head separates nobody its column would be empty: it is left out.
    untied = client_as(cumulative.organiser).get(url(played(small_season(slug="third"))))
    assert "H2H" not in untied.content.decode()


def test_an_htmx_refresh_gets_the_tables_only() -> None:
    built = played(small_season())

    page = client_as(built.players["ann"]).get(url(built), headers={"HX-Request": "true"})

    text = page.content.decode()
    assert text.lstrip().startswith('<div id="standings-tables">')
    # The season's status is refreshed with the tables (it may have ended meanwhile).
    assert 'data-status="running"' in text
    assert "<html" not in text and "How the standings count" not in text


def test_past_seasons_stay_browsable_from_a_season_list() -> None:
    built = played(small_season())
    Season.objects.filter(pk=built.season.pk).update(status=Season.Status.FINISHED)
    league = built.season.league
    SeasonFactory(league=league, number=2)

    page = client_as(built.players["ann"]).get(url(built, number=2))
    old = client_as(built.players["ann"]).get(url(built, number=1))

    assert page.status_code == 200 and f'href="{url(built, number=1)}"' in page.content.decode()
    assert "Nobody plays" not in old.content.decode() and b"Ann" in old.content
    assert b"data-best" not in old.content  # a finished season has its final ranks


@pytest.mark.parametrize("viewer", ["organiser", "member", "outsider", "visitor"])
def test_a_public_clubs_standings_are_for_everyone(viewer: str) -> None:
    built = played(small_season())
    user = {"organiser": built.organiser, "member": built.players["dee"]}.get(viewer)
    user = built.outsider if viewer == "outsider" else user

    for name in ("leagues:standings", "leagues:standings_csv", "leagues:results_csv"):
        assert client_as(user).get(url(built, name)).status_code == 200


@pytest.mark.parametrize(
    ("viewer", "status"), [("organiser", 200), ("member", 200), ("outsider", 404), ("visitor", 404)]
)
def test_a_private_clubs_standings_are_for_its_members_only(viewer: str, status: int) -> None:
    built = played(small_season(private=True))
    users = {"organiser": built.organiser, "member": built.players["dee"]}
    user = built.outsider if viewer == "outsider" else users.get(viewer)

    for name in ("leagues:standings", "leagues:standings_csv", "leagues:results_csv"):
        response = client_as(user).get(url(built, name))
        assert response.status_code == status
        if status == 404:
            assert b"Ann" not in response.content


def test_the_pages_refuse_other_methods_and_unknown_seasons() -> None:
    built = played(small_season())
    client = client_as(built.organiser)

    for name in ("leagues:standings", "leagues:standings_csv", "leagues:results_csv"):
        assert client.post(url(built, name)).status_code == 405
    assert client.get(url(built, number=7)).status_code == 404
    assert client.get(url(built, number=99999)).status_code == 404
    assert client.get(url(built).replace("winter", "summer")).status_code == 404


def test_a_divisions_crosstable_comes_apart_and_is_cached_until_the_season_changes(
    django_capture_on_commit_callbacks: Any,
) -> None:
    built = played(small_season())
    crosstable = url(built, "leagues:crosstable", level=1)

    first = client_as(built.players["ann"]).get(crosstable)
    with CaptureQueriesContext(connection) as again:
        second = client_as(built.organiser).get(crosstable)

    assert first.status_code == 200 and first.content == second.content
    text = first.content.decode()
    assert text.lstrip().startswith('<table class="crosstable-table" data-division="1">')
    assert 'title="2 games together">2\u20130<' in text
    # Read from the cache: the season and the organiser's session only, no standings.
    assert not any("games_result" in query["sql"] for query in again.captured_queries)
    game = Game.objects.get(table__fixture__seats__entry=built.entries["bob"], number=1)
    with django_capture_on_commit_callbacks(execute=True):
        swap = {0: SeatCorrection(score=-30), 1: SeatCorrection(score=30, is_winner=True)}
        supersede(game.pk, swap, Result.Source.RULING, "Recount", None)
    after = client_as(built.players["ann"]).get(crosstable).content.decode()
    assert 'title="2 games together">1\u20131<' in after


@pytest.mark.parametrize(
    ("viewer", "status"), [("organiser", 200), ("member", 200), ("outsider", 404), ("visitor", 404)]
)
def test_a_private_clubs_crosstable_is_for_its_members_only(viewer: str, status: int) -> None:
    built = played(small_season(private=True))
    users = {"organiser": built.organiser, "member": built.players["dee"]}
    user = built.outsider if viewer == "outsider" else users.get(viewer)

    response = client_as(user).get(url(built, "leagues:crosstable", level=1))

    assert response.status_code == status
    assert (b"Ann" in response.content) == (status == 200)


def test_the_crosstable_refuses_other_methods_and_unknown_divisions() -> None:
    built = played(small_season())
    client = client_as(built.organiser)

    assert client.post(url(built, "leagues:crosstable", level=1)).status_code == 405
    assert client.get(url(built, "leagues:crosstable", level=2)).status_code == 404
    assert client.get(url(built, "leagues:crosstable", level=10**30)).status_code == 404


def read_csv(response: Any) -> list[dict[str, str]]:
    # The results stream (StreamingHttpResponse); getvalue() reads either kind whole.
    return list(csv.DictReader(io.StringIO(response.getvalue().decode())))


def test_the_standings_csv_has_a_line_per_player() -> None:
    built = played(small_season())

    response = client_as(built.players["ann"]).get(url(built, "leagues:standings_csv"))

    assert response["Content-Type"].startswith("text/csv")
    assert "tile-club-winter-season-1-standings.csv" in response["Content-Disposition"]
    lines = read_csv(response)
    assert [(line["rank"], line["player"], line["points"]) for line in lines] == [
        ("1", "Ann", "37"),
        ("2", "Cy", "11"),
        ("3", "Dee", "-6"),
        ("4", "Bob", "-42"),
    ]
    assert list(lines[0])[-5:] == [
        "tiebreak_games_won",
        "tiebreak_head_to_head",
        "tiebreak_total_score",
        "best_rank",
        "worst_rank",
    ]


def test_the_results_csv_has_every_seat_of_every_finished_game() -> None:
    built = played(small_season())
    built.players["dee"].display_name = "=cmd()"
    built.players["dee"].save()

    lines = read_csv(client_as(built.organiser).get(url(built, "leagues:results_csv")))

    assert len(lines) == len(season_results(built.season)) == 10
    first = lines[0]
    assert (first["matchday"], first["game"], first["player"], first["score"]) == (
        "1",
        "1",
        "Ann",
        "30",
    )
    assert first["winner"] == "yes" and first["source"] == "played"
    # A fixture is named by its table, as on every page, not by an internal number.
    tables = {str(f.table_id) for f in Fixture.objects.filter(matchday__season=built.season)}
    assert "fixture" not in first and {line["table"] for line in lines} <= tables
    assert {line["player"] for line in lines} == {"Ann", "Bob", "Cy", "'=cmd()"}


def test_cached_standings_are_forgotten_when_a_result_is_superseded(
    django_capture_on_commit_callbacks: Any,
) -> None:
    built = played(small_season())
    points = lambda: {r.name: r.points for r in season_standings(built.season)[0].standings.rows}  # noqa: E731
    assert points()["Dee"] == -6
    game = Game.objects.get(
        table__fixture__seats__entry=built.entries["cy"],
        table__fixture__matchday__number=1,
        number=1,
    )

    with django_capture_on_commit_callbacks(execute=True):
        supersede(game.pk, {1: SeatCorrection(score=90)}, Result.Source.RULING, "Typo", None)

    assert points()["Dee"] == 94


def test_the_best_and_worst_paragraph_is_shown_only_while_the_season_is_under_way() -> None:
    """Walk turn 4, W12: the closed standings said how best and worst ranks read "while
    the season is under way", for columns it no longer shows."""
    built = played(small_season())
    paragraph = "Best and worst, while the season is under way"
    running = client_as(built.organiser).get(url(built)).content.decode()
    Season.objects.filter(pk=built.season.pk).update(status=Season.Status.FINISHED)

    closed = client_as(built.organiser).get(url(built)).content.decode()

    assert paragraph in running and paragraph not in closed
    assert "the tiebreak it decides" in closed
