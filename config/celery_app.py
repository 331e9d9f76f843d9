"""The Celery application: configured from Django settings (CELERY_* names).

Workers start with ``celery -A config.celery_app worker`` and find each app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rummikub_club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
