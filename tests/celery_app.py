"""``config.celery_app`` for the tests' workers (see :mod:`tests.flushed_database`)."""

import django

from config.celery_app import app

django.setup()

from tests.flushed_database import forget_before_each_request_and_task  # noqa: E402

forget_before_each_request_and_task()

__all__ = ["app"]
