"""The solver's answer over its own socket (``ws/answers/<job>/``, common.answers): only the
member who asked may open it; the answer comes as soon as the worker is done, or at once
if it was done before the socket opened; then the socket closes.

Real Redis channel layer and queue, real database transactions.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from common.answers import Job
from games.models import Game
from games.solver_tasks import ask_hint
from tests.conftest import communicator, db
from tests.games.answers_support import SolverQueue, solver_queue
from tests.games.views_support import hidden_from, mover, tiles_in, visible_to, waiter

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("_close_thread_connections"),
]

__all__ = ["solver_queue"]


@pytest.fixture
def asker(position: Game) -> User:
    return mover(position)


@pytest.fixture
def other(position: Game) -> User:
    return waiter(position)


def path(job: Job) -> str:
    return f"/ws/answers/{job.id}/"


async def test_the_hint_is_pushed_to_the_page_that_asked_once_the_worker_is_done(
    position: Game, asker: User, solver_queue: SolverQueue
) -> None:
    job = await db(ask_hint)(position.pk, asker)
    assert isinstance(job, Job)
    socket = communicator(path(job), asker)
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_nothing(timeout=0.5)  # thinking: nothing to say yet

    await db(solver_queue.work)()

    html = await socket.receive_from(timeout=10)
    assert f'id="answer-{job.id}" hx-swap-oob="true"' in html
    assert "Hint: lay 9 tiles" in html
    state = position.engine_state()
    assert tiles_in(html) <= visible_to(state, position.current_seat)
    assert not tiles_in(html) & hidden_from(state, position.current_seat)
    closed = await socket.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"


async def test_an_answer_done_before_the_socket_opened_comes_at_once(
    position: Game, asker: User, solver_queue: SolverQueue
) -> None:
    job = await db(ask_hint)(position.pk, asker)
    assert isinstance(job, Job)
    await db(solver_queue.work)()

    socket = communicator(path(job), asker)
    connected, _ = await socket.connect()

    assert connected
    assert "Hint: lay 9 tiles" in await socket.receive_from(timeout=10)


async def test_nobody_else_may_open_a_members_answer(
    position: Game, asker: User, other: User, carol: User, solver_queue: SolverQueue
) -> None:
    job = await db(ask_hint)(position.pk, asker)
    assert isinstance(job, Job)
    await db(solver_queue.work)()

    for user in (other, carol, AnonymousUser()):
        socket = communicator(path(job), user)
        connected, _ = await socket.connect()
        assert not connected
    socket = communicator("/ws/answers/no-such-job/", asker)
    connected, _ = await socket.connect()
    assert not connected
