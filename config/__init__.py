"""Project configuration: settings, URLs, ASGI/WSGI entry points and the Celery app."""

# Loading the Celery app with Django makes `@shared_task` bind to it in every process.
from config.celery_app import app as celery_app

__all__ = ["celery_app"]
