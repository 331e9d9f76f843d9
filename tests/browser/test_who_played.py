"""Who played is a fact of the game, in the browser: after Frank resigned a game and the
organiser seated Hank as his substitute (and Gina withdrew, a bot taking her seat), the
finished game's page, its replay, the season page and the results CSV still name Frank
and Gina for what they did; the game in play names "Hank for Frank"."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game, SeatOccupancy
from games.models.table_settings import TableSettings
from games.services import draw, resign
from leagues.models import Club, Entry, Membership, OnWithdrawal, Role, Season
from leagues.services.matchdays import open_matchday
from leagues.services.organiser import replace_player
from leagues.services.season_end import close_season
from leagues.services.withdrawals import withdraw
from tests.browser.conftest import log_in
from tests.browser.test_clubs import snap
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery
from tests.leagues.conftest import make_season, open_fixture, scheduled_fixture

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

SEASON = "/clubs/tile-club/league-1/1/"


@pytest.fixture
def people(page: Page) -> dict[str, User]:
    return {
        name: UserFactory(username=name, display_name=name.title())
        for name in ("alice", "erin", "frank", "gina", "hank")
    }


@pytest.fixture
def season(people: dict[str, User]) -> Season:
    """Alice organises; Gina, Erin and Frank play a fixture of two games, in that seat
    order; Hank is a member of the club who does not play."""
    club = Club.objects.create(name="Tile Club", slug="tile-club")
    Membership.objects.create(club=club, user=people["alice"], role=Role.OWNER)
    for name in ("erin", "frank", "gina", "hank"):
        Membership.objects.create(club=club, user=people[name])
    players = [people["gina"], people["erin"], people["frank"]]
    settings = TableSettings(clock="correspondence", games_in_round=2)
    season = make_season(club, players, seats=3, on_withdrawal=OnWithdrawal.BOT, settings=settings)
    open_fixture(season, 1, players)
    return season


def test_a_substitution_after_a_resignation_leaves_the_game_to_who_played_it(
    page: Page, people: dict[str, User], season: Season
) -> None:
    fixture = season.matchdays.get().fixtures.get()
    assert fixture.table is not None
    first = fixture.table.games.get(number=1)
    # Game 1: Frank and Gina resign it themselves; Erin wins it.
    resign(first.pk, people["frank"])
    resign(first.pk, people["gina"])
    second = fixture.table.games.get(number=2)

    # Alice seats Hank for Frank from the organiser page.
    log_in(page, people["alice"])
    page.goto(f"{SEASON}organiser/")
    frank_entry = Entry.objects.get(season=season, user=people["frank"])
    row = page.locator(".organiser-entry").filter(has_text="Frank")
    row.get_by_text("Replace").click()
    row.get_by_label("Substitute (username)").fill("hank")
    row.get_by_label("Reason").fill("Frank moves house")
    row.get_by_role("button", name="Seat the substitute").click()
    expect(page.locator(".organiser-entry").filter(has_text="Hank")).to_contain_text("for Frank")
    frank_entry.refresh_from_db()
    assert frank_entry.substitute == people["hank"]
    # Gina withdraws: a bot takes her seat in the game in play.
    withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    assert SeatOccupancy.objects.filter(game=second, seat=2, member=people["hank"]).exists()

    # Game 1's page names who played it: its players and its move log.
    page.goto(f"/games/{first.pk}/")
    players = page.get_by_role("region", name="Players")
    expect(players).to_contain_text("Frank")
    expect(players).to_contain_text("Gina")
    expect(players).not_to_contain_text("Hank")
    expect(players).not_to_contain_text("Bot")
    moves = page.get_by_role("region", name="Moves")
    expect(moves).to_contain_text("Frank resigned.")
    expect(moves).to_contain_text("Gina resigned.")
    expect(moves).not_to_contain_text("Hank")
    snap(page, "who-played-game1")

    # Its replay, at its end.
    page.goto(f"/games/{first.pk}/replay/?turn=99")
    racks = page.get_by_role("region", name="Racks")
    expect(racks).to_contain_text("Frank")
    expect(racks).not_to_contain_text("Hank")
    expect(page.locator("main")).to_contain_text("Gina resigned.")
    expect(page.locator("main")).not_to_contain_text("Bot (normal) for Gina")
    page.goto(f"/games/{first.pk}/replay/?turn=1")
    expect(page.locator("main")).to_contain_text("Frank resigned.")
    expect(page.locator("main")).not_to_contain_text("Hank")

    # The game in play names the substitute and the bot for whom they play.
    page.goto(f"/games/{second.pk}/")
    players = page.get_by_role("region", name="Players")
    expect(players).to_contain_text("Hank for Frank")
    expect(players).to_contain_text("Bot (normal) for Gina")

    # The season page: the fixture's seats by who played them, in seat order.
    page.goto(SEASON)
    expect(page.locator(".fixture-players")).to_have_text(
        "Gina, then Bot (normal) for Gina · Erin · Frank, then Hank for Frank"
    )
    snap(page, "who-played-season")

    # The results CSV: game 1 is Frank's and Gina's.
    answer = page.request.get(f"{SEASON}results.csv")
    assert answer.ok
    rows = list(csv.DictReader(io.StringIO(answer.text())))
    game1 = {row["seat"]: row["player"] for row in rows if row["game"] == "1"}
    assert game1 == {"0": "Gina", "1": "Erin", "2": "Frank"}
    assert Game.objects.filter(pk=second.pk, status=Game.Status.PLAYING).exists()


def test_a_substitute_seated_after_a_resignation_is_not_named_for_that_game(
    page: Page, people: dict[str, User], season: Season
) -> None:
    """Frank plays a move and resigns game 1; Alice seats Hank for Frank while Gina and
    Erin play on; Hank never moves in game 1. Its page and replay name Frank, from the
    deal on; game 2, which Hank plays, names "Hank for Frank"."""
    fixture = season.matchdays.get().fixtures.get()
    assert fixture.table is not None
    first = fixture.table.games.get(number=1)
    players = [people["gina"], people["erin"], people["frank"]]
    while first.current_seat != 2:
        first = draw(first.pk, players[first.current_seat or 0], first.version)
    first = draw(first.pk, people["frank"], first.version)
    resign(first.pk, people["frank"])
    replace_player(
        Entry.objects.get(season=season, user=people["frank"]),
        people["hank"],
        people["alice"],
        "Frank moves house",
    )
    resign(first.pk, people["gina"])
    second = fixture.table.games.get(number=2)

    log_in(page, people["erin"])
    page.goto(f"/games/{first.pk}/")
    expect(page.locator(".result")).to_contain_text("Frank")
    expect(page.locator(".result")).not_to_contain_text("Hank")
    players_panel = page.get_by_role("region", name="Players")
    expect(players_panel).to_contain_text("Frank")
    expect(players_panel).not_to_contain_text("Hank")
    snap(page, "who-played-resigned-then-replaced")

    for turn in (0, 99):
        page.goto(f"/games/{first.pk}/replay/?turn={turn}")
        racks = page.get_by_role("region", name="Racks")
        expect(racks).to_contain_text("Frank")
        expect(racks).not_to_contain_text("Hank")
    snap(page, "who-played-resigned-then-replaced-replay")

    page.goto(f"/games/{second.pk}/")
    expect(page.get_by_role("region", name="Players")).to_contain_text("Hank for Frank")


def test_later_fixtures_name_who_plays_for_whom_and_the_closed_season_its_final_places(
    page: Page, people: dict[str, User], season: Season
) -> None:
    """Alice seats Hank for Frank and Gina withdraws (a bot plays for her); matchday 2
    opens: its game names both seats for whom they play. Frank's and Gina's pages give
    the fixtures to come away; the organiser lists Gina as withdrawn. Once the season is
    closed, its standings and season page show the final places, Gina's none."""
    scheduled_fixture(season, 2, [people["erin"], people["frank"], people["gina"]])
    replace_player(
        Entry.objects.get(season=season, user=people["frank"]),
        people["hank"],
        people["alice"],
        "Frank moves house",
    )
    withdraw(Entry.objects.get(season=season, user=people["gina"]), people["gina"])
    open_matchday(season.matchdays.get(number=2))
    game = Game.objects.get(table__fixture__matchday__number=2, number=1)

    log_in(page, people["erin"])
    page.goto(f"/games/{game.pk}/")
    players = page.get_by_role("region", name="Players")
    expect(players).to_contain_text("Hank for Frank")
    expect(players).to_contain_text("Bot (normal) for Gina")
    snap(page, "who-played-later-fixture")

    log_in(page, people["frank"])
    page.goto("/clubs/me/leagues/")
    expect(page.locator("main")).to_contain_text("Hank plays your fixtures from now on")
    expect(page.get_by_role("link", name="Withdraw from this season…")).to_have_count(0)
    snap(page, "who-played-replaced-my-leagues")

    log_in(page, people["alice"])
    page.goto(f"{SEASON}organiser/")
    gina = page.locator(".organiser-entry").filter(has_text="Gina")
    expect(gina).to_contain_text("withdrawn")
    expect(gina.get_by_text("Replace")).to_have_count(0)
    snap(page, "who-played-organiser-withdrawn")

    close_season(season, people["alice"], "The season is over.")
    page.goto(f"{SEASON}standings/")
    table = page.locator("table").first
    expect(table.locator("thead")).to_contain_text("Place")
    expect(table.locator("tbody tr").last).to_contain_text("withdrew: no place")
    expect(table.locator("tbody tr").last.locator("td").first).to_have_text("\N{EN DASH}")
    snap(page, "who-played-closed-standings")
    page.goto(SEASON)
    expect(page.locator("main")).to_contain_text("In the final order fixed at the close.")
    snap(page, "who-played-closed-season")
