"""The game page and the moves made on it: the player, the opponent, a spectator, a visitor.

A spectator (carol) is a signed-in member without a seat; a visitor is not signed in.
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Draft, Game, Result
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table, winner_of
from tests.games.positions import set_position
from tests.games.views_support import (
    HTMX,
    RACK,
    TABLE,
    as_codes,
    hidden_from,
    mover,
    post,
    tiles_in,
    url,
    visible_to,
    waiter,
)

pytestmark = pytest.mark.django_db


def board_of(html: str) -> str:
    return html[html.index('id="game-board"') : html.index('id="game-rack"')]


def sets_on_board(html: str) -> list[list[str]]:
    board = board_of(html)
    return [
        re.findall(
            r'data-tile="([^"]+)"', re.findall(r'class="meld-tiles">.*?</div>', meld, re.S)[0]
        )
        for meld in re.findall(r'<li class="meld[^"]*"[^>]*data-drop="\d+".*?</li>', board, re.S)
    ]


# --- the page --------------------------------------------------------------------------


def test_the_player_sees_her_rack_the_table_and_that_it_is_her_turn(position: Game) -> None:
    me = mover(position)

    response = client_as(me).get(url("game", position))

    assert response.status_code == 200
    html = response.text
    state = position.engine_state()
    assert tiles_in(html) <= visible_to(state, position.current_seat)
    assert set(RACK) <= tiles_in(html)
    assert not tiles_in(html) & hidden_from(state, position.current_seat)
    assert "Your turn" in html
    assert f'ws-connect="/ws/games/{position.pk}/"' in html
    for part in ("game-status", "game-players", "game-board", "game-rack", "game-building"):
        assert f'id="{part}"' in html
    assert "End turn" in html and "Draw a tile" in html


def test_the_opponent_sees_his_own_rack_but_not_hers(position: Game) -> None:
    other = waiter(position)
    seat = 1 - (position.current_seat or 0)

    response = client_as(other).get(url("game", position))

    assert response.status_code == 200
    state = position.engine_state()
    assert {str(t) for t in state.racks[seat]} <= tiles_in(response.text)
    assert tiles_in(response.text) <= visible_to(state, seat)
    assert "End turn" not in response.text
    assert f"{mover(position)}\u2019s turn" in response.text


def test_a_spectator_sees_the_table_and_no_rack(position: Game, carol: User) -> None:
    response = client_as(carol).get(url("game", position))

    assert response.status_code == 200
    state = position.engine_state()
    assert tiles_in(response.text) == visible_to(state, None)
    assert re.search(r'<section id="game-rack"[^>]*>\s*</section>', response.text)
    assert "You are watching this game." in response.text


def test_a_visitor_is_sent_to_log_in(position: Game, client: Client) -> None:
    response = client.get(url("game", position))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_missing_game_is_not_found(alice_client: Client) -> None:
    assert alice_client.get(reverse("games:game", kwargs={"pk": 999999})).status_code == 404


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_game_page_is_only_read(position: Game, method: str) -> None:
    response = getattr(client_as(mover(position)), method)(url("game", position))

    assert response.status_code == 405


def test_the_players_turn_in_progress_shows_each_sets_problem(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "move", position, tile=["K1", "K2"], source=["rack", "rack"], target="new")

    html = me.get(url("game", position)).text

    assert "K1 K2 has only 2 tiles: a set needs at least 3 tiles" in as_codes(html)
    assert "K1 K2 has only" not in html  # the player reads small tiles, not codes
    assert "is-invalid" in board_of(html)


# --- moving tiles of the turn in progress ----------------------------------------------


def test_tiles_moved_from_the_rack_make_a_new_set_and_the_board_comes_back(
    position: Game,
) -> None:
    response = post(
        client_as(mover(position)),
        "move",
        position,
        tile=["K1", "K2", "K3"],
        source=["rack"] * 3,
        target="new",
    )

    assert response.status_code == 200
    html = response.text
    assert sets_on_board(html) == [*TABLE, ["K1", "K2", "K3"]]
    assert 'id="game-board" hx-swap-oob="true"' in html
    assert 'id="game-rack" hx-swap-oob="true"' in html
    assert "Plays 3 tiles" in html
    position.refresh_from_db()
    assert position.version == 0


def test_a_tile_joining_a_run_of_its_colour_goes_where_its_number_belongs(
    position: Game,
) -> None:
    me = client_as(mover(position))

    html = post(me, "move", position, tile=["R8", "R4"], source=["rack", "rack"], target="0").text

    assert sets_on_board(html)[0] == ["R4", "R5", "R6", "R7", "R8"]


def test_a_dragged_tile_goes_to_the_position_it_was_dropped_at(position: Game) -> None:
    me = client_as(mover(position))

    html = post(me, "move", position, tile="B10", source="rack", target="1", position="1").text

    assert sets_on_board(html)[1] == ["B9", "B10", "K9", "O9"]
    assert "B9 B10 K9 O9 is neither a run (colours differ) nor a group" in as_codes(html)


def test_tiles_move_between_sets_and_an_emptied_set_disappears(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "move", position, tile="J", source="rack", target="new")

    html = post(me, "move", position, tile="J", source="2", target="0").text

    assert sets_on_board(html) == [["R5", "R6", "R7", "J"], TABLE[1]]


def test_a_tile_that_was_on_the_table_cannot_go_to_the_rack(position: Game) -> None:
    response = post(
        client_as(mover(position)), "move", position, tile="R5", source="0", target="rack"
    )

    assert response.status_code == 400
    assert "R5 was on the table when your turn began: it stays on the table." in as_codes(
        response.text
    )
    assert 'id="game-message" hx-swap-oob="innerHTML"' in response.text
    assert response["HX-Reswap"] == "none"
    assert not Draft.objects.exists()


def test_a_tile_not_on_the_rack_cannot_be_moved(position: Game) -> None:
    response = post(
        client_as(mover(position)), "move", position, tile="B13", source="rack", target="new"
    )

    assert response.status_code == 400
    assert "B13 is not on your rack." in as_codes(response.text)


@pytest.mark.parametrize(
    "data",
    [{}, {"tile": "K1", "target": "new"}, {"tile": "K1", "source": "rack", "target": "up"}],
)
def test_an_incomplete_move_is_refused_with_a_message(position: Game, data: dict) -> None:
    response = post(client_as(mover(position)), "move", position, **data)

    assert response.status_code == 400
    assert "Choose the tiles to move" in response.text


def test_the_opponent_cannot_move_tiles(position: Game) -> None:
    response = post(
        client_as(waiter(position)), "move", position, tile="K1", source="rack", target="new"
    )

    assert response.status_code == 409
    assert "It is not your turn" in response.text
    assert not Draft.objects.exists()


def test_a_spectator_cannot_move_tiles(position: Game, carol: User) -> None:
    response = post(client_as(carol), "move", position, tile="K1", source="rack", target="new")

    assert response.status_code == 403
    assert "You are not playing in this game." in response.text


def test_a_visitor_cannot_move_tiles(position: Game, client: Client) -> None:
    response = client.post(url("move", position), {"tile": "K1", "source": "rack", "target": "new"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_moves_on_a_missing_game_are_not_found(alice_client: Client) -> None:
    response = alice_client.post(
        reverse("games:move", kwargs={"pk": 999999}),
        {"tile": "K1", "source": "rack", "target": "new"},
        **HTMX,
    )

    assert response.status_code == 404


@pytest.mark.parametrize(
    "name", ["move", "reset", "play", "draw", "pass", "discard", "river", "arrange", "use_hint"]
)
def test_actions_refuse_a_get(position: Game, name: str) -> None:
    assert client_as(mover(position)).get(url(name, position)).status_code == 405


def test_reset_puts_the_table_back_as_it_was(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "move", position, tile="K1", source="rack", target="new")

    response = post(me, "reset", position)

    assert response.status_code == 200
    assert sets_on_board(response.text) == TABLE
    assert "Your turn starts over" in response.text


# --- ending the turn -------------------------------------------------------------------


def test_ending_the_turn_plays_the_working_table(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "move", position, tile=["K1", "K2", "K3"], source=["rack"] * 3, target="new")

    response = post(me, "play", position, version=0)

    assert response.status_code == 200
    position.refresh_from_db()
    assert position.version == 1
    assert position.moves.get().action["type"] == "play"
    assert [str(t) for t in position.engine_state().table[-1]] == ["K1", "K2", "K3"]
    assert "End turn" not in response.text  # the turn has passed


def test_going_out_answers_with_the_result_and_the_rounds_new_scores(game: Game) -> None:
    position = set_position(game, TABLE, ["K1", "K2", "K3"])
    me = client_as(mover(position))
    post(me, "move", position, tile=["K1", "K2", "K3"], source=["rack"] * 3, target="new")

    response = post(me, "play", position, version=0)

    assert response.status_code == 200
    position.refresh_from_db()
    winner = winner_of(position)
    assert position.is_over and winner == position.engine_state().outcome.winner
    totals = Result.objects.current().of_table(position.table_id).totals(position.table)
    assert winner is not None and totals[winner] > 0
    assert "You win game 1!" in response.text
    for total in totals:
        assert f"Round score: </span>{total}<" in response.text


def test_an_initial_meld_below_30_is_refused_with_the_rules_sentence(game: Game) -> None:
    position = set_position(game, [], RACK, meld_done=False)
    me = client_as(mover(position))
    post(me, "move", position, tile=["K1", "K2", "K3"], source=["rack"] * 3, target="new")

    response = post(me, "play", position, version=0)

    assert response.status_code == 422
    assert "30" in response.text and "initial meld" in response.text.lower()
    assert 'role="alert"' in response.text
    position.refresh_from_db()
    assert position.version == 0


def test_a_stale_or_repeated_submission_changes_nothing(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "move", position, tile=["K1", "K2", "K3"], source=["rack"] * 3, target="new")
    assert post(me, "play", position, version=0).status_code == 200

    again = post(me, "play", position, version=0)

    assert again.status_code == 409
    assert "The game has changed since your page was loaded" in again.text
    position.refresh_from_db()
    assert position.version == 1


def test_the_opponent_cannot_end_the_turn(position: Game) -> None:
    response = post(client_as(waiter(position)), "play", position, version=0)

    assert response.status_code == 409
    assert "It is not your turn." in response.text


def test_a_spectator_cannot_end_the_turn(position: Game, carol: User) -> None:
    assert post(client_as(carol), "play", position, version=0).status_code == 403


def test_a_move_without_the_version_is_refused(position: Game) -> None:
    response = post(client_as(mover(position)), "play", position)

    assert response.status_code == 400
    assert "reload it" in response.text


def test_without_htmx_a_refusal_answers_the_page_with_the_sentence_and_its_status(
    position: Game,
) -> None:
    me = client_as(waiter(position))

    response = me.post(url("draw", position), {"version": 0})

    assert response.status_code == 409
    assert "It is not your turn." in response.text
    assert 'id="game-rack"' in response.text
    position.refresh_from_db()
    assert position.version == 0


# --- drawing and passing ---------------------------------------------------------------


def test_drawing_gives_a_tile_and_passes_the_turn(position: Game) -> None:
    seat = position.current_seat or 0

    response = post(client_as(mover(position)), "draw", position, version=0)

    assert response.status_code == 200
    position.refresh_from_db()
    assert len(position.engine_state().racks[seat]) == len(RACK) + 1
    assert position.current_seat == 1 - seat


def test_the_opponent_cannot_draw(position: Game) -> None:
    assert post(client_as(waiter(position)), "draw", position, version=0).status_code == 409


def test_a_spectator_cannot_draw(position: Game, carol: User) -> None:
    assert post(client_as(carol), "draw", position, version=0).status_code == 403


def test_passing_is_refused_while_the_pool_has_tiles(position: Game) -> None:
    response = post(client_as(mover(position)), "pass", position, version=0)

    assert response.status_code == 400
    assert "You can only pass when the pool is empty" in response.text
    assert "Pass</button>" not in client_as(mover(position)).get(url("game", position)).text


# --- who may do what: every action, for the opponent, a spectator and a visitor -------

ACTIONS = [
    ("move", {"tile": "K1", "source": "rack", "target": "new"}),
    ("reset", {}),
    ("play", {"version": 0}),
    ("draw", {"version": 0}),
    ("pass", {"version": 0}),
    ("discard", {"version": 0, "tile": "K1"}),
    ("river", {"version": 0, "index": 0}),
    ("arrange", {"tile": "K1"}),
    ("use_hint", {"table": json.dumps(TABLE)}),
]


@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_the_opponent_can_do_nothing_out_of_turn(position: Game, name: str, data: dict) -> None:
    response = post(client_as(waiter(position)), name, position, **data)

    assert response.status_code == 409
    assert "not your turn" in response.text
    assert response["HX-Reswap"] == "none"
    position.refresh_from_db()
    assert position.version == 0 and not Draft.objects.exists()


@pytest.mark.parametrize(("name", "data"), [*ACTIONS, ("resign", {})])
def test_a_spectator_can_do_nothing(position: Game, carol: User, name: str, data: dict) -> None:
    response = post(client_as(carol), name, position, **data)

    assert response.status_code == 403
    assert "You are not playing in this game." in response.text
    position.refresh_from_db()
    assert position.version == 0 and not Draft.objects.exists()


@pytest.mark.parametrize(("name", "data"), [*ACTIONS, ("resign", {})])
def test_a_visitor_can_do_nothing(position: Game, client: Client, name: str, data: dict) -> None:
    response = client.post(url(name, position), data, **HTMX)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    position.refresh_from_db()
    assert position.version == 0


@pytest.mark.parametrize(("name", "data"), ACTIONS)
def test_answers_to_the_player_show_only_what_she_may_see(
    position: Game, name: str, data: dict
) -> None:
    seat = position.current_seat
    response = post(client_as(mover(position)), name, position, **data)

    position.refresh_from_db()
    state = position.engine_state()
    assert tiles_in(response.text) <= visible_to(state, seat) | {"K1"}
    assert not tiles_in(response.text) & hidden_from(state, seat) - {"K1"}


# --- resigning -------------------------------------------------------------------------


def test_a_player_resigns_on_anyones_turn_and_the_other_wins(position: Game) -> None:
    other, winner = waiter(position), position.current_seat

    response = post(client_as(other), "resign", position)

    assert response.status_code == 200
    assert "You resigned this game." in response.text
    position.refresh_from_db()
    assert position.is_over
    assert winner_of(position) == winner
    assert "The other players resigned." in response.text


def test_resigning_twice_or_after_the_end_is_refused(position: Game) -> None:
    me = client_as(mover(position))
    post(me, "resign", position)

    again = post(me, "resign", position)

    assert again.status_code == 409
    assert "This game is over." in again.text


def test_the_page_offers_to_resign_only_to_players_in_the_game(position: Game, carol: User) -> None:
    assert "Resign this game" in client_as(mover(position)).get(url("game", position)).text
    assert "Resign this game" in client_as(waiter(position)).get(url("game", position)).text
    assert "Resign this game" not in client_as(carol).get(url("game", position)).text


def test_resign_is_only_posted(position: Game) -> None:
    assert client_as(mover(position)).get(url("resign", position)).status_code == 405


def test_a_correspondence_game_shows_its_due_date_and_banks(alice: User, bob: User) -> None:
    game = current_game(
        start_table(alice, bob, clock="correspondence", turn_seconds=86400, time_bank_seconds=86400)
    )

    html = client_as(alice).get(url("game", game)).text

    assert "Correspondence · due" in html
    assert "bank 1 d" in html
