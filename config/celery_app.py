"""The Celery application: configured from Django settings (CELERY_* names).

Workers start with ``celery -A config.celery_app worker`` and find each app's ``tasks.py``.
"""

import logging
import os
from typing import Any

from celery import Celery, Task
from celery.signals import after_setup_logger
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.exceptions import OperationalError

from config.heartbeat import Heartbeat
from engine.solver import allowed

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)


class QueuedAfterCommit(Task):  # type: ignore[type-arg]
    """Every task of the app: queueing it never fails the code that asked for it.

    Tasks are queued after the move is committed, by the receivers of its signals
    (:mod:`games.receivers`).
    While Redis is unreachable (restarting) sending fails; the move stands, so the
    failure is logged, not raised. (Django's ``robust=True`` on_commit would catch it,
    but fails itself while logging a ``functools.partial``: the player got a 500 for a
    move that was made.) What a lost task would have done is covered: the sweeps end due
    turns and send reminders, a bot's turn runs out on its clock, a notification waits
    in the member's list and digest.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """A task is a worker's job wherever it runs: the solver may run in it, also when
        a test runs it in its own process inside a request (Celery's eager mode), where the
        web's refusal (``config.middleware.NoSolverMiddleware``) would otherwise hold."""
        with allowed():
            return super().__call__(*args, **kwargs)

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().apply_async(*args, **kwargs)
        except OperationalError:
            logger.exception("could not queue %s: the broker is unreachable", self.name)
            return None


app = Celery("rummikub_club", task_cls=QueuedAfterCommit)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each worker says which queues it serves, for the readiness probe (config.heartbeat).
app.steps["consumer"].add(Heartbeat)


@after_setup_logger.connect
def _quiet_routine_lines(**kwargs: object) -> None:
    """Beat sends a sweep every few seconds: a line for each sending, receiving and
    finishing would bury everything else the worker says. Failures still show (they are
    errors); the moves the tasks make are logged by the games' services."""
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        logging.getLogger(name).setLevel(logging.WARNING)


class Consumer(CeleryConsumer):
    """The worker's consumer (``worker_consumer`` in the settings), surviving a Redis
    restart.

    When the broker connection drops, Celery 5.7 collects the connection and then closes
    it; closing its channel tries to put the tasks the worker holds back in the queue,
    through a transport collect() has already cleared, and the AttributeError raised
    there stops the worker for good ("Unrecoverable error"): every Redis restart while
    turns' timeouts wait in the worker killed it. Those tasks cannot be put back over a
    dead connection anyway: Redis hands them out again after its visibility timeout if
    it kept them, and the sweep ends their turns meanwhile. So the broken channel skips
    that step, and the worker reconnects.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        channel = getattr(self.connection, "_default_channel", None)
        if channel is not None:
            channel.do_restore = False
        super().on_connection_error_after_connected(exc)
