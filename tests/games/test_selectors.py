"""The reads of games.selectors: one row per game whichever page lists it, one result per
game whichever page shows it, and the scoreboard's standings."""

from __future__ import annotations

from dataclasses import fields

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Game, Result, Table
from games.models.table_settings import TableSettings
from games.rendering import game_context
from games.selectors.listing import games_to_watch, my_games
from games.selectors.results import game_result
from games.selectors.rows import GameRow, game_row, game_rows
from games.selectors.scoreboard import ScoreRow, StandingRow, scoreboard
from games.selectors.your_move import your_move_games
from games.services import SeatPlan
from games.services.results import SeatCorrection, supersede
from tests.factories import UserFactory
from tests.games.conftest import current_game, seat_starts, start_table

pytestmark = pytest.mark.django_db


def as_row(row: GameRow) -> GameRow:
    """The row part of any game row (the game page's heading carries more)."""
    return GameRow(**{field.name: getattr(row, field.name) for field in fields(GameRow)})


@pytest.mark.parametrize("first", [0, 1])
def test_my_games_say_whose_turn_it_is(alice: User, bob: User, first: int) -> None:
    game = current_game(start_table(alice, bob, first=first))
    mover = (alice, bob)[first]

    [row] = my_games(alice)

    assert row.id == game.pk and row.me == 0
    assert row.turn_name == str(mover)
    assert row.my_turn == (mover == alice)
    assert row.players == ("Alice", "Bob") and row.opponents == ("Bob",)


def test_a_bots_turn_is_named_by_its_level(alice: User) -> None:
    with seat_starts(0):
        table = services.create_table(
            alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.bot("strong")]
        )
    game = current_game(table)
    assert my_games(alice)[0].turn_name == "Alice"

    services.draw(game.pk, alice, 0)

    [row] = my_games(alice)
    assert row.turn_name == "Bot (strong)" and not row.my_turn


def test_every_page_shows_a_game_as_the_same_row(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, first=0))

    listed = my_games(alice)[0]
    awaiting = your_move_games(alice)[0]
    heading = game_context(game, alice)["game"]

    assert listed == awaiting == as_row(heading) == game_row(game, alice)
    assert listed.my_turn and listed.turn_deadline == game.turn_deadline


def test_a_spectator_has_no_seat_in_the_row(alice: User, bob: User, carol: User) -> None:
    game = current_game(start_table(alice, bob))

    [row] = games_to_watch(carol)

    assert row.id == game.pk and row.me is None and not row.my_turn
    assert row.opponents == row.players == ("Alice", "Bob")
    assert games_to_watch(alice) == []


def test_a_list_reads_its_tables_and_seats_in_the_same_queries_however_long(
    alice: User,
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            game_rows(Game.objects.played_by(alice), alice)
        return len(captured.captured_queries)

    start_table(alice, UserFactory())
    one = queries()
    for _ in range(3):
        start_table(alice, UserFactory(), UserFactory())

    assert len(game_rows(Game.objects.played_by(alice), alice)) == 4
    assert queries() == one


def test_nobody_is_to_play_a_finished_game(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, first=0))

    services.resign(game.pk, bob)

    row = game_row(Game.objects.select_related("table").get(pk=game.pk), alice)
    assert row.is_over and row.turn_name == "" and not row.my_turn
    assert row.players == ("Alice", "Bob")


def finished_round(alice: User, bob: User) -> Table:
    table = start_table(alice, bob, games_in_round=1)
    services.resign(current_game(table).pk, alice)
    table.refresh_from_db()
    return table


def test_the_scoreboard_and_the_game_page_show_one_result(alice: User, bob: User) -> None:
    table = finished_round(alice, bob)
    game = current_game(table)

    board = scoreboard(table)
    page = game_context(game, alice)["game"]

    last_move_at = game.moves.order_by("-seq").values_list("created_at", flat=True)[0]
    assert board.rows == (ScoreRow(game.pk, 1, True, page.result, last_move_at),)
    assert page.result == game_result(game) and page.result is not None
    assert page.result.winner == 1 and not page.result.ruled


def test_the_standings_name_each_seat_by_its_place(alice: User, bob: User) -> None:
    table = finished_round(alice, bob)
    game = current_game(table)
    scores = dict(Result.objects.current().of_game(game).values_list("seat", "score"))

    board = scoreboard(table)

    assert board.is_over and board.winner_name == "Bob"
    assert board.standings == (
        StandingRow(1, "Bob", scores[1], 1, 1),
        StandingRow(0, "Alice", scores[0], 0, 2),
    )


def test_a_ruling_reaches_the_scoreboard_and_the_game_page_alike(alice: User, bob: User) -> None:
    table = finished_round(alice, bob)
    game = current_game(table)
    corrections = {0: SeatCorrection(score=10, is_winner=True), 1: SeatCorrection(score=-10)}

    supersede(game.pk, corrections, Result.Source.RULING, "Recount", None)

    result = game_result(game)
    assert result is not None and result.ruled and result.winner == 0
    assert result.scores == (10, -10)
    assert scoreboard(table).rows[0].result == result
    assert scoreboard(table).winner_name == "Alice"


def test_a_game_in_play_has_no_result(alice: User, bob: User) -> None:
    table = start_table(alice, bob, games_in_round=2)
    game = current_game(table)

    assert game_result(game) is None
    assert scoreboard(table).rows == (ScoreRow(game.pk, 1, False, None),)
