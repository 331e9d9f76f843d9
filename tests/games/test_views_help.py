"""Help from the solver (hint, "use this", arrange my picks) and the River's actions."""

import json

import pytest
from django.test import Client

from accounts.models import User
from games.models import Draft, Game
from tests.conftest import client_as
from tests.games.answers_support import answered
from tests.games.conftest import current_game, start_table
from tests.games.positions import put_on_the_river, set_position
from tests.games.views_support import (
    HTMX,
    RACK,
    TABLE,
    as_codes,
    hidden_from,
    mover,
    tiles_in,
    url,
    visible_to,
    waiter,
)

pytestmark = pytest.mark.django_db


# --- hint ------------------------------------------------------------------------------


def test_a_hint_shows_the_best_play_for_the_players_rack(position: Game) -> None:
    response = client_as(mover(position)).get(url("hint", position), **HTMX)

    assert response.status_code == 200
    assert response.text.strip().startswith('<div id="game-help"')
    html = answered(response, mover(position))
    assert "Hint: lay 9 tiles" in html  # all but B10
    assert "Use this" in html
    state = position.engine_state()
    assert tiles_in(html) <= visible_to(state, position.current_seat)
    assert not tiles_in(html) & hidden_from(state, position.current_seat)


def test_a_hint_says_so_when_nothing_can_be_played(game: Game) -> None:
    position = set_position(game, [], ["R1", "B5", "K9", "O13"], meld_done=False)

    response = client_as(mover(position)).get(url("hint", position), **HTMX)
    html = answered(response, mover(position))

    assert "No play for your rack" in html
    assert "draw a tile" in html
    assert "Use this" not in html


def test_using_the_hint_puts_its_table_into_the_turn_in_progress(position: Game) -> None:
    me = client_as(mover(position))
    html = answered(me.get(url("hint", position), **HTMX), mover(position))
    table = json.loads(html.split('name="table" value="')[1].split('"')[0].replace("&quot;", '"'))

    response = me.post(url("use_hint", position), {"table": json.dumps(table)}, **HTMX)

    assert response.status_code == 200
    assert "The hint is on the table" in response.text
    assert Draft.objects.get(game=position).table == table
    assert me.post(url("play", position), {"version": 0}, **HTMX).status_code == 200
    position.refresh_from_db()
    assert position.is_over or position.version == 1


def test_a_hint_table_with_tiles_not_on_the_rack_is_refused(position: Game) -> None:
    table = [*TABLE, ["B13", "K13", "O13"]]

    response = client_as(mover(position)).post(
        url("use_hint", position), {"table": json.dumps(table)}, **HTMX
    )

    assert response.status_code == 400
    assert "is not on your rack" in response.text
    assert not Draft.objects.exists()


def test_a_malformed_hint_table_is_refused(position: Game) -> None:
    response = client_as(mover(position)).post(
        url("use_hint", position), {"table": '{"no": 1}'}, **HTMX
    )

    assert response.status_code == 400


def test_the_opponent_gets_no_hint(position: Game) -> None:
    response = client_as(waiter(position)).get(url("hint", position), **HTMX)

    assert response.status_code == 409
    assert "the solver helps on your turn" in response.text


def test_a_spectator_gets_no_hint(position: Game, carol: User) -> None:
    assert client_as(carol).get(url("hint", position), **HTMX).status_code == 403


def test_a_visitor_gets_no_hint(position: Game, client: Client) -> None:
    assert client.get(url("hint", position)).status_code == 302


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_a_hint_is_only_read(position: Game, method: str) -> None:
    response = getattr(client_as(mover(position)), method)(url("hint", position))

    assert response.status_code == 405


# --- arrange my picks ------------------------------------------------------------------


def test_arranging_lays_the_picked_tiles_on_the_table(position: Game) -> None:
    me = client_as(mover(position))

    response = me.post(url("arrange", position), {"tile": ["R4", "R8", "J"]}, **HTMX)

    assert response.status_code == 200
    draft = Draft.objects.get(game=position)
    laid = sorted(t for tile_set in draft.table for t in tile_set)
    assert laid == sorted([*TABLE[0], *TABLE[1], "R4", "R8", "J"])
    assert "The table is arranged with your tiles" in answered(response, mover(position))


def test_arranging_keeps_the_tiles_already_laid_this_turn(position: Game) -> None:
    me = client_as(mover(position))
    me.post(
        url("move", position),
        {"tile": ["K1", "K2", "K3"], "source": ["rack"] * 3, "target": "new"},
        **HTMX,
    )

    me.post(url("arrange", position), {"tile": ["R4"]}, **HTMX)

    laid = [t for tile_set in Draft.objects.get(game=position).table for t in tile_set]
    assert {"K1", "K2", "K3", "R4"} <= set(laid)


def test_arranging_says_when_the_picked_tiles_do_not_fit(position: Game) -> None:
    response = client_as(mover(position)).post(url("arrange", position), {"tile": ["B10"]}, **HTMX)

    shown = answered(response, mover(position))
    assert "There is no way to lay B10 on the table this turn." in as_codes(shown)
    assert 'role="alert"' in shown
    assert not Draft.objects.exists()


def test_arranging_needs_picked_tiles_from_the_rack(position: Game) -> None:
    me = client_as(mover(position))

    assert me.post(url("arrange", position), {}, **HTMX).status_code == 400
    response = me.post(url("arrange", position), {"tile": ["B13"]}, **HTMX)
    assert response.status_code == 400
    assert "B13 is not on your rack." in as_codes(response.text)


def test_the_opponent_and_a_spectator_cannot_arrange(position: Game, carol: User) -> None:
    data = {"tile": ["R4"]}

    assert (
        client_as(waiter(position)).post(url("arrange", position), data, **HTMX).status_code == 409
    )
    assert client_as(carol).post(url("arrange", position), data, **HTMX).status_code == 403


# --- the River -------------------------------------------------------------------------


@pytest.fixture
def river_game(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob, options={"draw_mode": "river"}))


def test_a_river_draw_shows_the_two_tiles_to_the_drawer_only(river_game: Game, carol: User) -> None:
    me, other = mover(river_game), waiter(river_game)
    assert client_as(me).post(url("draw", river_game), {"version": 0}, **HTMX).status_code == 200
    river_game.refresh_from_db()
    state = river_game.engine_state()
    drawn = [str(t) for t in state.pending_draw]

    mine = client_as(me).get(url("game", river_game)).text
    theirs = client_as(other).get(url("game", river_game)).text
    watching = client_as(carol).get(url("game", river_game)).text

    assert "You drew two tiles." in mine and "Put on the River" in mine
    assert set(drawn) <= tiles_in(mine)
    assert "Put on the River" not in theirs
    assert tiles_in(theirs) <= visible_to(state, 1 - (river_game.current_seat or 0))
    assert tiles_in(watching) <= visible_to(state, None)
    assert "End turn" not in mine  # only the discard can be sent now


def test_discarding_puts_one_drawn_tile_on_the_river(river_game: Game) -> None:
    me = client_as(mover(river_game))
    me.post(url("draw", river_game), {"version": 0}, **HTMX)
    river_game.refresh_from_db()
    tile = str(river_game.engine_state().pending_draw[0])

    response = me.post(url("discard", river_game), {"version": 1, "tile": tile}, **HTMX)

    assert response.status_code == 200
    river_game.refresh_from_db()
    assert [str(t) for t in river_game.engine_state().river] == [tile]
    assert "The River" in response.text


def test_a_discard_of_a_tile_not_drawn_is_refused(river_game: Game) -> None:
    me = client_as(mover(river_game))
    me.post(url("draw", river_game), {"version": 0}, **HTMX)
    river_game.refresh_from_db()
    other = next(
        t for t in ("R1", "B1", "K1") if t not in map(str, river_game.engine_state().pending_draw)
    )

    response = me.post(url("discard", river_game), {"version": 1, "tile": other}, **HTMX)

    assert response.status_code == 400
    assert "you can only discard one of the two tiles you drew" in response.text.lower()


def test_taking_from_the_river_plays_the_key_tile_at_once(river_game: Game) -> None:
    position = set_position(river_game, TABLE, RACK)
    put_on_the_river(position, "O5")  # with O2 O3 O4 on the rack it is a play
    me = client_as(mover(position))
    assert "Take this tile" in me.get(url("game", position)).text
    me.post(
        url("move", position),
        {"tile": ["O2", "O3", "O4"], "source": ["rack"] * 3, "target": "new"},
        **HTMX,
    )

    response = me.post(url("river", position), {"version": 0, "index": 0}, **HTMX)

    assert response.status_code == 200
    position.refresh_from_db()
    after = position.engine_state()
    assert after.river == ()
    assert ["O2", "O3", "O4", "O5"] in [
        sorted(map(str, s), key=lambda t: int(t[1:])) for s in after.table
    ]


def test_taking_a_tile_that_cannot_be_played_is_refused(river_game: Game) -> None:
    position = set_position(river_game, [], ["K1", "B5"], meld_done=False)
    me = client_as(mover(position))
    me.post(url("draw", position), {"version": 0}, **HTMX)
    position.refresh_from_db()
    other = client_as(waiter(position))
    tile = str(position.engine_state().pending_draw[0])
    me.post(url("discard", position), {"version": 1, "tile": tile}, **HTMX)

    response = other.post(url("river", position), {"version": 2, "index": 0}, **HTMX)

    assert f"{tile} cannot be played this turn" in as_codes(answered(response, waiter(position)))
    position.refresh_from_db()
    assert position.version == 2


def test_the_river_is_only_for_river_games(position: Game) -> None:
    response = client_as(mover(position)).post(
        url("river", position), {"version": 0, "index": 0}, **HTMX
    )

    assert response.status_code == 400


def test_a_spectator_cannot_take_from_the_river(river_game: Game, carol: User) -> None:
    response = client_as(carol).post(url("river", river_game), {"version": 0, "index": 0}, **HTMX)

    assert response.status_code == 403
