"""``config.asgi`` for the browser tests' daphne (see :mod:`tests.flushed_database`)."""

from config.asgi import application
from tests.flushed_database import forget_before_each_request_and_task

forget_before_each_request_and_task()

__all__ = ["application"]
