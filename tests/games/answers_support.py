"""The solver's answers in tests: the job a page's "thinking" waits for, its answer as the
job's socket would push it (:mod:`common.answers`), and a "solver" queue of the test's
own that holds the jobs until the test works them off (:func:`solver_queue`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.http import HttpResponse

from accounts.models import User
from common import answers
from config.celery_app import app as celery_app
from tests.games.workers import new_prefix, use_queues

JOB = re.compile(r'ws-connect="/ws/answers/([\w-]+)/"')


def job_of(response: HttpResponse | str) -> str:
    """The id of the job whose "thinking" the page shows."""
    html = response if isinstance(response, str) else response.content.decode()
    found = JOB.search(html)
    assert found is not None, f"no solver job on the page:\n{html[:2000]}"
    return found.group(1)


def answered(response: HttpResponse | str, user: User) -> str:
    """The answer pushed to ``user``'s page for the job it shows (it must be in)."""
    html = answers.render(job_of(response), user)
    assert html is not None, "the job has no answer yet"
    return html


class SolverQueue:
    """The "solver" queue of a test's own (:func:`tests.games.workers.use_queues`): what
    the pages ask for waits there in Redis, and :meth:`work` works it off in the test's
    process as the queue's worker would, outside any request."""

    def __init__(self, prefix: str) -> None:
        route = settings.CELERY_TASK_ROUTES["games.solver_tasks.answer_hint"]
        self.name = prefix + route["queue"]

    def waiting(self) -> int:
        """The jobs queued and not worked on yet."""
        server = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        try:
            return int(server.llen(self.name))
        finally:
            server.close()

    def work(self) -> int:
        """Run every task queued (the solver runs here, not in a request); how many."""
        ran = 0
        with celery_app.connection_for_read() as connection:
            queue = connection.SimpleQueue(self.name)
            try:
                while True:
                    try:
                        message = queue.get(block=True, timeout=0.5)
                    except queue.Empty:
                        return ran
                    message.ack()
                    args, kwargs, _ = message.decode()
                    celery_app.tasks[message.headers["task"]].apply(args=args, kwargs=kwargs)
                    ran += 1
            finally:
                queue.close()


@pytest.fixture
def solver_queue() -> Iterator[SolverQueue]:
    """Tasks are queued (not run at once): the "solver" queue holds the pages' jobs."""
    prefix = new_prefix()
    with use_queues(prefix):
        yield SolverQueue(prefix)
