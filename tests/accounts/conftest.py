from collections.abc import Iterator

import pytest

from config.celery_app import app as celery_app


@pytest.fixture(autouse=True)
def _eager_celery() -> Iterator[None]:
    """Mail tasks run in the test's process, into Django's test outbox."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_eager_propagates = False
