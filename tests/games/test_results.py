"""Result rows own a game's result: written when it ends, superseded by rulings."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from engine.round import game_places
from games import services
from games.errors import InvalidRuling
from games.models import Game, Result, ResultLogError, Table
from games.models.table_settings import TableSettings
from games.services.results import SeatCorrection, supersede
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table, winner_of
from tests.games.players import user_at
from tests.games.views_support import url

pytestmark = pytest.mark.django_db


def finish_by_drawing(game: Game) -> Game:
    """Both players draw until the pool runs out (the table ends a game there)."""
    while not game.is_over:
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    return game


def two_game_round(alice: User, bob: User) -> Table:
    return start_table(alice, bob, games_in_round=2, options={"pool_empty_end": "immediate"})


def moderator() -> User:
    return UserFactory(username="mod")


def row(game: Game, seat: int) -> Result:
    return Result.objects.current().of_game(game).get(seat=seat)


def test_the_move_that_ends_a_game_writes_a_played_row_per_seat(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))

    outcome = game.engine_state().outcome
    assert outcome is not None
    rows = list(Result.objects.of_game(game).order_by("seat"))
    assert [(r.seat, r.score, r.rack_value, r.is_winner) for r in rows] == [
        (seat, outcome.scores[seat], outcome.rack_values[seat], seat == outcome.winner)
        for seat in (0, 1)
    ]
    assert [r.place for r in rows] == list(game_places("zero_sum", outcome.scores, outcome.winner))
    assert [r.member for r in rows] == [alice, bob]
    assert {(r.source, r.supersedes, r.reason) for r in rows} == {(Result.Source.PLAYED, None, "")}
    assert all(r.created_at == game.finished_at for r in rows)


def test_a_bots_seat_has_a_row_without_a_member(alice: User) -> None:
    table = services.create_table(
        alice,
        TableSettings(games_in_round=1),
        [services.SeatPlan.taken_by(alice), services.SeatPlan.bot("easy")],
    )
    game = current_game(table)
    services.resign(game.pk, alice)

    assert [(r.member, r.is_winner) for r in Result.objects.of_game(game).order_by("seat")] == [
        (alice, False),
        (None, True),
    ]


def test_a_ruling_changes_the_rounds_totals_standings_and_winner_and_not_the_replay(
    alice: User, bob: User
) -> None:
    table = two_game_round(alice, bob)
    first = finish_by_drawing(current_game(table))
    second = current_game(table)
    services.resign(second.pk, user_at(second, 0))  # seat 1 wins the second game
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    results = Result.objects.current().of_table(table)
    before = results.tally(table)
    state, moves = first.state, list(first.moves.values_list("seq", "seat", "action"))
    # The ruling gives the first game to seat 0, by a wide margin.
    corrections = {0: SeatCorrection(score=500, is_winner=True), 1: SeatCorrection(score=-500)}

    rows = supersede(first.pk, corrections, Result.Source.RULING, "Scored wrongly", moderator())

    assert [(r.seat, r.score, r.is_winner, r.place) for r in rows] == [
        (0, 500, True, 1),
        (1, -500, False, 2),
    ]
    after = results.tally(table)
    assert after.totals == (
        before.totals[0] - first.engine_state().outcome.scores[0] + 500,  # type: ignore[union-attr]
        before.totals[1] - first.engine_state().outcome.scores[1] - 500,  # type: ignore[union-attr]
    )
    assert after.wins == (1, 1)
    # One game each: the higher total takes the round, now seat 0.
    assert results.standings(table) == (0, 1) and results.winner(table) == 0
    first.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert first.state == state and first.replay_state() == first.engine_state()
    assert list(first.moves.values_list("seq", "seat", "action")) == moves
    assert first.outcome == first.engine_state().outcome.to_dict()  # type: ignore[union-attr]


def test_a_superseded_row_stays_and_names_its_successor(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    played = row(game, 0)
    mod = moderator()

    supersede(game.pk, {0: SeatCorrection(score=-1)}, Result.Source.RULING, "Recount", mod)
    supersede(game.pk, {0: SeatCorrection(score=-2)}, Result.Source.RULING, "Recount again", mod)

    chain = list(Result.objects.of_game(game).filter(seat=0).order_by("pk"))
    assert [r.score for r in chain] == [played.score, -1, -2]
    assert [r.supersedes_id for r in chain] == [None, chain[0].pk, chain[1].pk]
    assert chain[0].superseded_by == chain[1] and chain[1].superseded_by == chain[2]
    assert row(game, 0) == chain[2]
    assert (chain[2].source, chain[2].reason, chain[2].decided_by) == (
        "ruling",
        "Recount again",
        mod,
    )
    assert Result.objects.current().of_game(game).count() == 2


def test_only_seats_whose_result_changes_get_a_new_row(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    other = row(game, 1)

    supersede(game.pk, {0: SeatCorrection(rack_value=99)}, Result.Source.RULING, "Rack", None)

    assert row(game, 0).rack_value == 99
    assert row(game, 1) == other


def test_moving_the_win_takes_it_from_the_winner_and_reorders_the_places(
    alice: User, bob: User
) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    loser = 1 - (winner_of(game) or 0)

    supersede(game.pk, {loser: SeatCorrection(is_winner=True)}, "ruling", "Wrong winner", None)

    assert winner_of(game) == loser
    assert (row(game, loser).place, row(game, 1 - loser).place) == (1, 2)

    supersede(game.pk, {loser: SeatCorrection(is_winner=False)}, "ruling", "Nobody won", None)

    assert winner_of(game) is None


@pytest.mark.parametrize(
    ("corrections", "source", "reason", "message"),
    [
        ({0: SeatCorrection(score=1)}, "played", "x", "not a played result"),
        ({0: SeatCorrection(score=1)}, "ruling", "  ", "needs its reason"),
        ({2: SeatCorrection(score=1)}, "ruling", "x", "no seat 2"),
        ({}, "ruling", "x", "changes nothing"),
        (
            {0: SeatCorrection(is_winner=True), 1: SeatCorrection(is_winner=True)},
            "ruling",
            "x",
            "at most one winner",
        ),
        ({0: SeatCorrection(rack_value=-1)}, "ruling", "x", "less than nothing"),
    ],
)
def test_a_ruling_that_cannot_be_made_changes_nothing(
    alice: User, bob: User, corrections: Any, source: str, reason: str, message: str
) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    rows = list(Result.objects.order_by("pk"))

    with pytest.raises(InvalidRuling, match=message):
        supersede(game.pk, corrections, source, reason, None)  # type: ignore[arg-type]

    assert list(Result.objects.order_by("pk")) == rows


def test_a_game_in_play_has_no_result_to_correct(alice: User, bob: User) -> None:
    game = current_game(two_game_round(alice, bob))

    with pytest.raises(InvalidRuling, match="finished game"):
        supersede(game.pk, {0: SeatCorrection(score=1)}, Result.Source.RULING, "Early", None)

    assert not Result.objects.exists()


def test_a_ruling_on_an_earlier_game_shows_on_the_page_of_the_game_in_play(
    alice: User, bob: User
) -> None:
    table = two_game_round(alice, bob)
    first = finish_by_drawing(current_game(table))
    second = current_game(table)

    supersede(first.pk, {0: SeatCorrection(score=321)}, Result.Source.RULING, "Typo", None)

    page = alice_page(second, alice)
    assert "Round score: </span>321<" in page
    assert table.games.count() == 2 and not current_game(table).is_over


def alice_page(game: Game, alice: User) -> str:
    return client_as(alice).get(url("game", game)).text


def table_page(table: Table, user: User) -> str:
    return client_as(user).get(reverse("games:table", kwargs={"pk": table.pk})).text


def test_the_final_scoreboard_follows_a_ruling_on_the_last_game(alice: User, bob: User) -> None:
    table = start_table(alice, bob, games_in_round=1)
    game = current_game(table)
    services.resign(game.pk, alice)  # bob wins the round
    assert "Bob wins the round!" in table_page(table, alice)

    supersede(
        game.pk,
        {0: SeatCorrection(score=10, is_winner=True), 1: SeatCorrection(score=-10)},
        Result.Source.RULING,
        "Bob played from the pool",
        None,
    )

    html = table_page(table, alice)
    assert "Alice wins the round!" in html and "(ruling)" in html
    game_html = alice_page(game, alice)
    assert "You win game 1!" in game_html and "A ruling has corrected the result" in game_html
    lobby = client_as(bob).get(reverse("games:lobby")).text
    assert "Alice won" in lobby


def test_rows_are_never_changed_or_deleted(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    played = row(game, 0)

    played.score = 1000
    with pytest.raises(ResultLogError):
        played.save()
    with pytest.raises(ResultLogError):
        played.delete()
    with pytest.raises(ResultLogError):
        Result.objects.filter(pk=played.pk).update(score=1000)
    with pytest.raises(ResultLogError):
        Result.objects.filter(pk=played.pk).delete()
    assert Result.objects.get(pk=played.pk).score != 1000


def test_the_database_keeps_one_chain_per_game_and_seat(alice: User, bob: User) -> None:
    table = two_game_round(alice, bob)
    game = finish_by_drawing(current_game(table))
    other_game = finish_by_drawing(current_game(table))
    played = row(game, 0)

    def insert(**fields: Any) -> None:
        values = {
            "game": game,
            "seat": 0,
            "score": 0,
            "rack_value": 0,
            "place": 1,
            "source": Result.Source.RULING,
            "reason": "test",
            "created_at": played.created_at,
            **fields,
        }
        with pytest.raises(IntegrityError), transaction.atomic():
            Result(**values).save()

    # A second original row for the seat.
    insert(source=Result.Source.PLAYED, reason="")
    # A ruling that supersedes nothing, or says not why.
    insert(supersedes=None)
    insert(supersedes=played, reason="")
    # A second successor of one row.
    supersede(game.pk, {0: SeatCorrection(score=5)}, Result.Source.RULING, "Once", None)
    insert(supersedes=played)
    # A row superseding another seat's or another game's row.
    insert(supersedes=row(game, 1))
    insert(game=other_game, supersedes=row(game, 0))


def test_a_ruling_locks_the_game_then_the_table(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))

    with CaptureQueriesContext(connection) as queries:
        supersede(game.pk, {0: SeatCorrection(score=3)}, Result.Source.RULING, "Order", None)

    assert locked_tables(queries) == ["games_game", "games_table"]


def test_the_move_that_ends_a_game_locks_the_game_then_the_table(alice: User, bob: User) -> None:
    game = current_game(two_game_round(alice, bob))
    while True:
        mover = user_at(game, game.current_seat or 0)
        with CaptureQueriesContext(connection) as queries:
            services.draw(game.pk, mover, game.version)
        game.refresh_from_db()
        if game.is_over:
            break
        assert locked_tables(queries) == ["games_game"]

    assert locked_tables(queries) == ["games_game", "games_table"]
    assert Result.objects.of_game(game).count() == 2


def locked_tables(queries: CaptureQueriesContext) -> list[str]:
    """The tables whose rows the captured queries locked, in order."""
    locked = []
    for query in queries.captured_queries:
        sql = query["sql"]
        if "FOR UPDATE" in sql:
            from_table = sql.split(" FROM ", 1)[1].split()[0].strip('"')
            locked.append(from_table)
    return locked
