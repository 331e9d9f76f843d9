"""The Celery application: configured from Django settings (CELERY_* names).

Workers start with ``celery -A config.celery_app worker`` and find each app's ``tasks.py``.
"""

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rummikub_club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
def _quiet_routine_lines(**kwargs: object) -> None:
    """Beat sends a sweep every few seconds: a line for each sending, receiving and
    finishing would bury everything else the worker says. Failures still show (they are
    errors); the moves the tasks make are logged by the games' services."""
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        logging.getLogger(name).setLevel(logging.WARNING)
