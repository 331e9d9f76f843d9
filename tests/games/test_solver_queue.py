"""The solver off the web: each door of a player's help (hint, "arrange for me", a River take,
the replay's analysis) answers its request with "thinking" and a job on the "solver"
queue; the request runs no solver (the web's refusal, config.middleware, would make it
fail); the answer is there once the queue's work is done, for the member who asked
only, and an answer the game has moved past is not shown.

The queue is real (Redis, a queue of the test's own): the test works it off itself, after
the request, as its worker would.
"""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts.models import User
from common import answers
from games.models import Draft, Game
from games.services.help import help_busy_key
from tests.conftest import client_as
from tests.games.answers_support import SolverQueue, job_of, solver_queue
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over
from tests.games.positions import put_on_the_river, set_position
from tests.games.views_support import (
    HTMX,
    RACK,
    TABLE,
    hidden_from,
    mover,
    tiles_in,
    url,
    visible_to,
    waiter,
)

pytestmark = pytest.mark.django_db

__all__ = ["solver_queue"]


def test_a_hint_is_thinking_then_pushed_once_the_worker_answers(
    position: Game, solver_queue: SolverQueue
) -> None:
    me = mover(position)

    response = client_as(me).get(url("hint", position), **HTMX)

    assert response.status_code == 200
    assert "The solver is looking for your best play" in response.text
    assert 'aria-live="polite"' in response.text
    assert "Hint: lay" not in response.text
    job = job_of(response)
    assert solver_queue.waiting() == 1
    assert answers.render(job, me) is None  # nothing yet: the web process solved nothing

    assert solver_queue.work() == 1

    pushed = answers.render(job, me)
    assert pushed is not None
    assert f'id="answer-{job}" hx-swap-oob="true"' in pushed
    assert "Hint: lay 9 tiles" in pushed
    state = position.engine_state()
    assert tiles_in(pushed) <= visible_to(state, position.current_seat)
    assert not tiles_in(pushed) & hidden_from(state, position.current_seat)
    # Asked again, the worked-out hint comes at once, with no new job.
    again = client_as(me).get(url("hint", position), **HTMX)
    assert "Hint: lay 9 tiles" in again.text and "ws-connect" not in again.text
    assert solver_queue.waiting() == 0


def test_another_member_gets_nothing_of_a_job(
    position: Game, solver_queue: SolverQueue, carol: User
) -> None:
    job = job_of(client_as(mover(position)).get(url("hint", position), **HTMX))
    solver_queue.work()

    assert answers.render(job, waiter(position)) is None
    assert answers.render(job, carol) is None
    assert answers.READY == {"type": "answer.ready"}  # what the group is told: nothing more


def test_a_second_ask_while_one_is_at_work_is_told_to_wait_and_queues_nothing(
    position: Game, solver_queue: SolverQueue
) -> None:
    me = client_as(mover(position))
    me.get(url("hint", position), **HTMX)

    second = me.post(url("arrange", position), {"tile": ["R4"]}, **HTMX)

    assert second.status_code == 429
    assert "still working on your last request" in second.text
    assert solver_queue.waiting() == 1
    solver_queue.work()
    assert cache.get(help_busy_key(mover(position))) is None  # the answer gave it back
    assert me.post(url("arrange", position), {"tile": ["R4"]}, **HTMX).status_code == 200


def test_a_hint_the_game_moved_past_is_not_shown(position: Game, solver_queue: SolverQueue) -> None:
    me = mover(position)
    job = job_of(client_as(me).get(url("hint", position), **HTMX))
    solver_queue.work()
    client_as(me).post(url("draw", position), {"version": position.version}, **HTMX)

    pushed = answers.render(job, me)

    assert pushed is not None
    assert "The game moved on before the solver was done" in pushed
    assert "Hint:" not in pushed and not tiles_in(pushed)


def test_a_hint_asked_before_a_move_is_not_worked_out_for_the_next_turn(
    position: Game, solver_queue: SolverQueue
) -> None:
    me = mover(position)
    job = job_of(client_as(me).get(url("hint", position), **HTMX))
    client_as(me).post(url("draw", position), {"version": position.version}, **HTMX)

    solver_queue.work()

    pushed = answers.render(job, me)
    assert pushed is not None
    assert "It is not your turn" in pushed and 'role="alert"' in pushed
    assert "Hint:" not in pushed and not tiles_in(pushed)


def test_arranging_is_thinking_then_the_worker_lays_the_tiles(
    position: Game, solver_queue: SolverQueue
) -> None:
    me = mover(position)

    response = client_as(me).post(url("arrange", position), {"tile": ["R4", "R8", "J"]}, **HTMX)

    assert response.status_code == 200
    assert 'id="game-message" hx-swap-oob="innerHTML"' in response.text
    assert "arranging the table" in response.text
    assert not Draft.objects.filter(game=position).exists()

    solver_queue.work()

    draft = Draft.objects.get(game=position)
    laid = sorted(t for tile_set in draft.table for t in tile_set)
    assert laid == sorted([*TABLE[0], *TABLE[1], "R4", "R8", "J"])
    pushed = answers.render(job_of(response), me)
    assert pushed is not None and "The table is arranged with your tiles" in pushed


def test_an_arrangement_the_game_moved_past_is_not_laid(
    position: Game, solver_queue: SolverQueue
) -> None:
    me = mover(position)
    response = client_as(me).post(url("arrange", position), {"tile": ["R4"]}, **HTMX)
    client_as(me).post(url("draw", position), {"version": position.version}, **HTMX)

    solver_queue.work()

    assert not Draft.objects.filter(game=position).exists()
    pushed = answers.render(job_of(response), me)
    assert pushed is not None and "It is not your turn" in pushed


@pytest.fixture
def river_turn(alice: User, bob: User) -> Game:
    game = current_game(start_table(alice, bob, options={"draw_mode": "river"}))
    position = set_position(game, TABLE, RACK)
    put_on_the_river(position, "O5")  # with O2 O3 O4 on the rack it is a play
    return position


def test_a_river_take_is_thinking_then_the_worker_plays_it(
    river_turn: Game, solver_queue: SolverQueue
) -> None:
    player = mover(river_turn)
    me = client_as(player)
    me.post(
        url("move", river_turn),
        {"tile": ["O2", "O3", "O4"], "source": ["rack"] * 3, "target": "new"},
        **HTMX,
    )
    version = river_turn.version

    response = me.post(url("river", river_turn), {"version": version, "index": 0}, **HTMX)

    assert response.status_code == 200
    assert "laying the tile" in response.text
    river_turn.refresh_from_db()
    assert river_turn.version == version  # nothing played yet

    solver_queue.work()

    river_turn.refresh_from_db()
    assert river_turn.version > version
    assert river_turn.engine_state().river == ()
    pushed = answers.render(job_of(response), player)
    assert pushed is not None and 'role="alert"' not in pushed  # played: nothing to say


def test_a_stale_river_take_is_refused_at_once(river_turn: Game, solver_queue: SolverQueue) -> None:
    response = client_as(mover(river_turn)).post(
        url("river", river_turn), {"version": river_turn.version + 1, "index": 0}, **HTMX
    )

    assert response.status_code == 409
    assert solver_queue.waiting() == 0


def test_the_replay_analysis_is_thinking_then_pushed(
    alice: User, bob: User, solver_queue: SolverQueue
) -> None:
    game = play_until_over(current_game(start_table(alice, bob)), random.Random(11))
    path = reverse("games:replay_analysis", kwargs={"pk": game.pk}) + "?turn=1"

    response = client_as(alice).get(path, **HTMX)

    assert response.status_code == 200
    assert "Looking for the best play of this turn" in response.text
    assert "Best play" not in response.text
    solver_queue.work()
    pushed = answers.render(job_of(response), alice)
    assert pushed is not None and "Best play" in pushed
    assert answers.render(job_of(response), bob) is None
    assert "Best play" in client_as(bob).get(path, **HTMX).text  # kept: at once for anyone
