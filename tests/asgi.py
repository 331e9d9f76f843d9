"""``config.asgi`` for the browser tests' daphne (see :mod:`tests.flushed_database`).

``TESTS_SERVER_NOW`` (an ISO 8601 moment, for a server a test starts for itself): the
server's clock reads that moment when it starts and runs on from it, so that a page that
depends on the calendar (a weekend's pause) can be seen whatever day the tests run on.
"""

import os
from datetime import datetime

from config.asgi import application
from tests.flushed_database import forget_before_each_request_and_task

forget_before_each_request_and_task()

if moment := os.environ.get("TESTS_SERVER_NOW"):
    import time_machine

    time_machine.travel(datetime.fromisoformat(moment), tick=True).start()

__all__ = ["application"]
