"""For servers and workers that outlive a test: forget what a flush makes stale.

Transactional tests flush the test database after each test, and the flush re-creates the
content types with new ids. A daphne or a Celery worker started once for many tests
would go on using the ids it cached (``ContentType.objects``; the notifications'
subjects use them) and write or look for rows under ids that no longer exist. Such
processes import this module instead of the app's entry points: each request and each
task starts by forgetting the cache, as a fresh process would. Production never flushes.
"""

from typing import Any

from celery.signals import task_prerun
from django.contrib.contenttypes.models import ContentType
from django.core.signals import request_started


def forget_content_types(**kwargs: Any) -> None:
    ContentType.objects.clear_cache()


def forget_before_each_request_and_task() -> None:
    request_started.connect(forget_content_types, dispatch_uid="tests.forget_content_types")
    task_prerun.connect(forget_content_types, dispatch_uid="tests.forget_content_types")
