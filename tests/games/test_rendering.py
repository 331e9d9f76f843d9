import logging
import random
from dataclasses import fields

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from engine.views import PlayerView
from games import services
from games.errors import GameActionError
from games.models import Game, Table
from games.rendering import game_context, render_live_fragments
from games.selectors.live import LiveGame
from games.selectors.rows import PublicGame
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over, user_at
from tests.games.views_support import TILE

pytestmark = pytest.mark.django_db


def test_the_page_context_holds_no_model_and_no_secret(game: Game, alice: User) -> None:
    context = game_context(game, alice)

    assert not any(isinstance(value, Game | Table | LiveGame) for value in context.values())
    assert {f.name for f in fields(PublicGame)}.isdisjoint({"state", "seed", "round"})
    view = context["view"]
    assert isinstance(view, PlayerView) and view.player == 0
    assert view.rack == game.engine_state().racks[0]
    assert view.final_racks is None


def test_a_spectators_context_has_no_rack_and_no_draft(game: Game, carol: User) -> None:
    context = game_context(game, carol)

    assert context["me"] is None and context["draft"] is None
    assert context["view"].rack is None and context["view"].actions == frozenset()
    assert [seat.name for seat in context["seats"]] == ["Alice", "Bob"]


def test_the_player_to_move_sees_her_turn_in_progress(game: Game) -> None:
    mover = user_at(game, game.current_seat or 0)

    context = game_context(game, mover)

    assert context["draft"] is not None and context["draft"].editable


def test_the_fragments_read_the_seats_once(game: Game, carol: User) -> None:
    # Each push renders them for each page open on the game: a query saved is saved often.
    # (The player whose turn it is also has the draft read, with the seat it belongs to.)
    waiting = user_at(game, 1 - (game.current_seat or 0))
    for user in (waiting, carol, None):
        with CaptureQueriesContext(connection) as queries:
            render_live_fragments(Game.objects.select_related("table").get(pk=game.pk), user)

        seat_reads = [q["sql"] for q in queries if 'FROM "games_seat"' in q["sql"]]
        assert len(seat_reads) == 1, seat_reads


def test_every_rack_is_shown_once_the_game_is_over(alice: User, bob: User, carol: User) -> None:
    table = start_table(alice, bob, options={"pool_empty_end": "immediate"}, games_in_round=1)
    game = play_until_over(current_game(table), random.Random(5))

    html = render_live_fragments(game, carol)

    final = game.engine_state().racks
    assert {str(tile) for rack in final for tile in rack} <= set(TILE.findall(html))


def test_no_log_line_names_a_tile(alice: User, bob: User, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    game = current_game(start_table(alice, bob))
    mover = user_at(game, game.current_seat or 0)
    rack = game.engine_state().racks[game.current_seat or 0]
    with pytest.raises(GameActionError):
        services.play(game.pk, mover, 0, [[str(rack[0]), str(rack[1])]])

    play_until_over(game, random.Random(11))

    assert "move 1," in caplog.text
    assert TILE.findall(caplog.text) == []


def test_the_round_totals_are_read_from_result_rows_only_once_a_game_has_ended(
    alice: User, bob: User
) -> None:
    table = start_table(alice, bob, games_in_round=2)
    first = current_game(table)
    with CaptureQueriesContext(connection) as first_game:
        render_live_fragments(first, alice)
    assert not [q for q in first_game.captured_queries if "games_result" in q["sql"]]

    play_until_over(first, random.Random(3))
    second = current_game(table)
    assert second.number == 2
    with CaptureQueriesContext(connection) as second_game:
        context = game_context(second, alice)
    assert [q for q in second_game.captured_queries if "games_result" in q["sql"]]
    finished = first.results.current()
    assert sorted(seat.round_total for seat in context["seats"]) == sorted(
        row.score for row in finished
    )
