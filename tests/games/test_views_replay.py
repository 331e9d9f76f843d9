"""The replay of a finished game: turn by turn, every rack shown, never the pool's order."""

import random
from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from engine.game import apply, new_game
from games import services
from games.models import Game
from games.selectors.analysis import analysis_key
from games.selectors.replay import replay_frame
from tests.conftest import client_as
from tests.games.answers_support import answered
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over, send, simple_action, user_at
from tests.games.views_support import HTMX, tiles_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice: User, bob: User) -> Game:
    """A game alice and bob played for ten moves, then bob resigned (game 2 goes on)."""
    game = current_game(start_table(alice, bob))
    rng = random.Random(11)
    for _ in range(10):
        game.refresh_from_db()
        assert game.current_seat is not None
        send(
            game,
            user_at(game, game.current_seat),
            simple_action(game.engine_state(), game.current_seat, rng),
        )
    services.resign(game.pk, bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def played_out(alice: User, bob: User) -> Game:
    """A game alice and bob played to its very end."""
    return play_until_over(current_game(start_table(alice, bob)), random.Random(11))


def url(game: Game, turn: object = None) -> str:
    path = reverse("games:replay", kwargs={"pk": game.pk})
    return path if turn is None else f"{path}?{urlencode({'turn': turn})}"


def state_after(game: Game, turns: int):  # type: ignore[no-untyped-def]
    moves = list(game.moves.order_by("seq"))
    wanted = sorted({m.turn_number for m in moves})[:turns]
    state = new_game(
        game.engine_ruleset(), game.seed, None if game.start_drawn else game.starting_seat
    )
    for move in moves:
        if move.turn_number in wanted:
            state = apply(state, move.engine_action(), move.seat)
    return state


@pytest.mark.parametrize("who", ["alice", "bob", "carol"])
def test_players_and_spectators_replay_a_finished_game(
    finished: Game, who: str, request: pytest.FixtureRequest
) -> None:
    user = request.getfixturevalue(who)

    response = client_as(user).get(url(finished))

    assert response.status_code == 200
    assert "The deal" in response.text
    assert "starts." in response.text


def test_each_step_shows_the_table_and_every_rack_but_not_the_pool(played_out: Game) -> None:
    me = client_as(played_out.table.creator)
    steps = replay_frame(played_out, 0).steps
    for turn in (0, 1, steps // 2, steps):
        html = me.get(url(played_out, turn)).text
        state = state_after(played_out, turn)
        shown = {str(t) for s in state.table for t in s} | {str(t) for r in state.racks for t in r}
        shown |= {str(t) for t in state.river}
        assert tiles_in(html) == shown
        assert f"pool: {len(state.pool)} tile" in html


def test_the_last_step_shows_the_result(finished: Game) -> None:
    frame = replay_frame(finished, 10_000)

    html = client_as(finished.table.creator).get(url(finished, frame.steps)).text

    assert frame.step == frame.steps and frame.outcome is not None
    assert "Result" in html
    assert 'data-replay="next"' in html and 'aria-disabled="true"' in html


def test_steps_describe_what_each_player_did(finished: Game) -> None:
    frame = replay_frame(finished, 1)
    last = replay_frame(finished, 10_000)

    assert len(frame.events) >= 1
    assert any(word in frame.events[0] for word in ("played", "drew", "passed", "time"))
    assert last.events[-1] == "Bob resigned."


def test_htmx_steps_get_only_the_frame(finished: Game) -> None:
    response = client_as(finished.table.creator).get(url(finished, 2), **HTMX)

    assert response.text.strip().startswith('<div id="replay-frame"')
    assert 'data-step="2"' in response.text


@pytest.mark.parametrize("turn", ["99999", ""])
def test_turn_numbers_past_the_end_are_clamped_to_the_game(finished: Game, turn: str) -> None:
    response = client_as(finished.table.creator).get(url(finished, turn))

    assert response.status_code == 200


@pytest.mark.parametrize("turn", ["-3", "x", "²", "٣", "1_0", " 2", "9" * 5000])
def test_a_turn_that_is_not_a_number_is_a_bad_request(finished: Game, turn: str) -> None:
    response = client_as(finished.table.creator).get(url(finished, turn))

    assert response.status_code == 400
    assert "Not a number: expected digits 0-9." in response.text


def test_a_game_in_play_has_no_replay_yet(alice: User, bob: User, carol: User) -> None:
    game = current_game(start_table(alice, bob))

    for user in (alice, bob, carol):
        assert client_as(user).get(url(game)).status_code == 404


def test_a_visitor_is_sent_to_log_in(finished: Game, client: Client) -> None:
    response = client.get(url(finished))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_replay_is_only_read(finished: Game, method: str) -> None:
    client = client_as(finished.table.creator)

    assert getattr(client, method)(url(finished)).status_code == 405


def test_the_finished_game_page_offers_the_replay_and_the_next_game(finished: Game) -> None:
    html = (
        client_as(finished.table.creator)
        .get(reverse("games:game", kwargs={"pk": finished.pk}))
        .text
    )

    assert url(finished) in html
    assert "Play game 2 of 2" in html
    assert reverse("games:current", kwargs={"pk": finished.table_id}) in html
    assert "Racks at the end" in html


def test_the_result_says_how_many_tiles_were_left_and_what_they_count(finished: Game) -> None:
    steps = replay_frame(finished, 0).steps
    html = client_as(finished.table.creator).get(url(finished, steps)).text
    result = html.split('class="replay-outcome"')[1]

    outcome = replay_frame(finished, steps).outcome
    assert outcome is not None
    points = [value for value in outcome.rack_values if value]
    assert points and all(f"· {value} point" in result for value in points)
    assert " tiles " in result


# --- analysis --------------------------------------------------------------------------


def analysis_url(game: Game, turn: int) -> str:
    return reverse("games:replay_analysis", kwargs={"pk": game.pk}) + f"?turn={turn}"


def test_each_turn_is_shown_beside_the_solvers_best_play_once_computed(
    played_out: Game, alice: User
) -> None:
    page = client_as(alice).get(url(played_out, 1)).text
    assert f'hx-get="{analysis_url(played_out, 1)}"' in page
    assert "games/replay/analysis" not in client_as(alice).get(url(played_out, 0)).text

    first = client_as(alice).get(analysis_url(played_out, 1), **HTMX)
    assert first.status_code == 200
    assert "Best play" not in first.text  # a worker's job (eager here: done already)
    pushed = answered(first, alice)
    assert "Best play" in pushed
    frame = replay_frame(played_out, 1)
    assert frame.turn_start is not None
    kept = cache.get(analysis_key(frame, frame.turn_start))
    assert kept.mover == frame.seats[frame.turn_start.seat].name
    again = client_as(alice).get(analysis_url(played_out, 1), **HTMX).text
    assert "Best play" in again and "ws-connect" not in again  # from the cache, at once


def test_a_member_runs_one_analysis_at_a_time(played_out: Game, alice: User) -> None:
    cache.set(f"games:analysis-busy:{alice.pk}", 1, 30)
    try:
        response = client_as(alice).get(analysis_url(played_out, 2), **HTMX)
    finally:
        cache.delete(f"games:analysis-busy:{alice.pk}")

    assert response.status_code == 429
    assert "still analysing" in response.text


def test_no_analysis_before_the_game_is_over(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    assert client_as(alice).get(analysis_url(game, 1), **HTMX).status_code == 404


def test_an_analysis_the_wall_time_ceiling_stops_says_so_and_is_not_kept(
    played_out: Game, alice: User, settings: object
) -> None:
    # The budget is steps (the same analysis whatever the load); the seconds are only
    # a last stop, read every 2048 steps: a turn that takes more is cut short by a
    # ceiling already past, and says so.
    settings.GAMES_ANALYSIS_SECONDS = 1e-6  # type: ignore[attr-defined]
    turns = played_out.moves.order_by("-turn_number").values_list("turn_number", flat=True)
    cut = None
    for turn in range(1, turns[0] + 1):
        response = client_as(alice).get(analysis_url(played_out, turn), **HTMX)
        shown = answered(response, alice) if "ws-connect" in response.text else response.text
        if "cut short: the server was too busy" in shown.lower():
            cut = turn
            break
    assert cut is not None
    frame = replay_frame(played_out, cut)
    assert frame.turn_start is not None
    assert cache.get(analysis_key(frame, frame.turn_start)) is None
